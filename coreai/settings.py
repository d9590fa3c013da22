"""The AI core's settings: one pydantic model loaded from an editable TOML file with documented defaults.

The file is ``saves/settings.toml`` (missing file = all defaults); ``settings.example.toml`` at the
repository root documents every key with its default. Any bad value raises ``SettingsError`` whose ``key``
is the dotted path of the offending setting (``mainloop.drain_budget_ms``, ``llm.backends.Creator``...).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from coreai.errors import SettingsError
from coreai.llm.config import LocalLlmConfig, OpenAILlmConfig
from coreai.llm.registry import BACKENDS
from coreai.lua.settings import LuaSettings
from coreai.mcp.settings import McpSettings
from coreai.paths import settings_file
from coreai.validation import explain


def _registered_backend(name: str) -> str:
    known = BACKENDS.route_names()
    if name not in known:
        raise ValueError(f"unknown backend '{name}' (registered: {', '.join(known)})")
    return name


# A name from the backend registry (coreai.llm.registry.BACKENDS), or "rules".
BackendName = Annotated[str, AfterValidator(_registered_backend)]
Feature = Literal["llm", "agents", "lua", "world", "director", "mcp", "metrics", "game"]
LogLevel = Literal["TRACE", "DEBUG", "INFO", "SUCCESS", "WARNING", "ERROR", "CRITICAL"]

ALL_FEATURES: tuple[Feature, ...] = ("llm", "agents", "lua", "world", "director", "mcp", "metrics", "game")
BUILTIN_ROLES: tuple[str, ...] = ("Creator", "Programmer", "Analyzer", "Merchant", "Chat")
ROLE_PATTERN = r"^[A-Za-z][A-Za-z0-9_]{0,63}$"


def _default_routes() -> dict[str, BackendName]:
    """Agents talk to the local model by default. The Programmer and the Creator are grounded
    (``coreai.lua.grounded``, ``game.agents.creator``): the game's rules read the request and the model only
    fills the slots they leave open, so the bundled model serves them. The director's own mode (static /
    rules / an LLM backend) is chosen separately and starts on the deterministic rules policy."""
    return {
        "Creator": "local",
        "Programmer": "local",
        "Analyzer": "local",
        "Merchant": "local",
        "Chat": "local",
    }


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class LlmSettings(_Section):
    default_backend: BackendName = "local"
    backends: dict[str, BackendName] = Field(default_factory=_default_routes)
    timeout_s: float = Field(default=30.0, gt=0, le=600)
    retry_attempts: int = Field(default=2, ge=0, le=10)
    retry_base_delay_s: float = Field(default=0.25, ge=0, le=30)
    retry_max_delay_s: float = Field(default=4.0, ge=0, le=120)
    # one section per backend kind with a config_key in the registry (a test checks they match)
    local: LocalLlmConfig = Field(default_factory=lambda: LocalLlmConfig.model_validate({}))
    openai: OpenAILlmConfig = Field(default_factory=lambda: OpenAILlmConfig.model_validate({}))

    @field_validator("backends")
    @classmethod
    def _role_names(cls, value: dict[str, str]) -> dict[str, str]:
        for role in value:
            if not re.match(ROLE_PATTERN, role):
                raise ValueError(f"role name '{role}' must match {ROLE_PATTERN}")
        return value


class QueueSettings(_Section):
    max_concurrent: int = Field(default=2, ge=1, le=32)
    max_pending: int = Field(default=64, ge=1, le=10_000)


class MainLoopSettings(_Section):
    drain_budget_ms: float = Field(default=2.0, gt=0, le=50)
    max_pending: int = Field(default=10_000, ge=0, le=10_000_000)  # 0 = unbounded
    max_spawn_per_command: int = Field(default=6, ge=1, le=100)
    rate_per_s: float = Field(default=10.0, ge=0, le=100_000)  # 0 = no rate limit
    rate_burst: float = Field(default=30.0, gt=0, le=100_000)
    wait_timeout_s: float = Field(default=2.0, gt=0, le=60)
    not_draining_after_s: float = Field(default=0.5, gt=0, le=60)


class ToolSettings(_Section):
    max_parallel: int = Field(default=4, ge=1, le=32)
    max_roundtrips: int = Field(default=6, ge=1, le=50)
    max_consecutive_failed_turns: int = Field(default=3, ge=1, le=20)
    max_tool_history_messages: int = Field(default=20, ge=0, le=1000)  # 0 = unlimited
    result_max_chars: int = Field(default=4000, ge=100, le=100_000)


class MemorySettings(_Section):
    max_memory_chars: int = Field(default=4000, ge=100, le=100_000)
    history_keep_recent: int = Field(default=12, ge=2, le=200)
    history_compact_after: int = Field(default=24, ge=4, le=1000)
    summary_max_chars: int = Field(default=1500, ge=100, le=20_000)


class PromptSettings(_Section):
    world_state_max_chars: int = Field(default=3000, ge=100, le=100_000)
    world_state_timeout_s: float = Field(default=0.5, gt=0, le=10)


class LogSettings(_Section):
    level: LogLevel = "INFO"
    features: list[Feature] = Field(default_factory=lambda: list(ALL_FEATURES))
    console: bool = True
    file: bool = True
    file_level: LogLevel = "DEBUG"
    rotation: str = Field(default="5 MB", min_length=1)
    retention: int = Field(default=5, ge=1, le=100)


KEY_NAME = r"^[A-Z][A-Z0-9_]{0,23}$"  # an arcade.key constant name: W, UP, SPACE, LSHIFT, KEY_1...
KeyList = list[Annotated[str, Field(pattern=KEY_NAME)]]


class KeyBindings(_Section):
    """Keyboard bindings (arcade key names). The mouse aims and its left button shoots whatever these say;
    Esc always pauses and leaves menus."""

    move_up: KeyList = Field(default_factory=lambda: ["W", "UP"], max_length=4)
    move_down: KeyList = Field(default_factory=lambda: ["S", "DOWN"], max_length=4)
    move_left: KeyList = Field(default_factory=lambda: ["A", "LEFT"], max_length=4)
    move_right: KeyList = Field(default_factory=lambda: ["D", "RIGHT"], max_length=4)
    shoot: KeyList = Field(default_factory=lambda: ["SPACE"], max_length=4)
    dash: KeyList = Field(default_factory=lambda: ["LSHIFT", "RSHIFT"], max_length=4)
    pause: KeyList = Field(default_factory=lambda: ["P"], max_length=4)


class GameSettings(_Section):
    """Game-side options (the options screen writes these). Each feature appends its own keys here."""

    # Console, F7, F9, chat and options pause the arena while they are open.
    pause_on_overlay: bool = True
    # Particles, glow and vignette: "high", "low", or "auto" (high until the frame rate stays under 30 FPS).
    graphics_quality: Literal["auto", "high", "low"] = "auto"
    # The game-over analysis waits this long for the Analyzer, then shows the rules-based one.
    analysis_timeout_s: float = Field(default=25.0, ge=1.0, le=300.0)
    # Options screen (O on the title and pause screens).
    master_volume: float = Field(default=1.0, ge=0.0, le=1.0)
    music_volume: float = Field(default=0.5, ge=0.0, le=1.0)
    sfx_volume: float = Field(default=1.0, ge=0.0, le=1.0)
    fullscreen: bool = False
    screen_shake: bool = True
    damage_flash: bool = True
    ui_scale: float = Field(default=1.0, ge=0.75, le=1.5)
    # The director's tuning preset: exactly the [presets.*] of assets/director/tuning.toml.
    difficulty: Literal["easy", "normal", "hard"] = "normal"
    pause_on_focus_loss: bool = True
    gamepad: bool = True
    gamepad_deadzone: float = Field(default=0.2, ge=0.0, le=0.9)
    keys: KeyBindings = Field(default_factory=lambda: KeyBindings())


class TalkDecoding(_Section):
    """How one talking role (Merchant, Chat, Analyzer) samples and where its reply is cut.

    Defaults tuned on the tuned half of ``assets/talk/questions.jsonl`` with the bundled 135M model."""

    # greedy: on the tuned questions 12 of 22 Merchant and Chat rewrites passed the guard, 9 of 22 at 0.2
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    repeat_penalty: float = Field(default=1.3, ge=1.0, le=2.0)
    top_k: int = Field(default=20, ge=1, le=1000)
    max_tokens: int = Field(default=60, ge=8, le=1024)
    max_sentences: int = Field(default=2, ge=1, le=10)  # the reply is cut after this many sentences
    max_chars: int = Field(default=260, ge=40, le=2000)  # the panel's room; longer replies are replaced
    deadline_s: float = Field(default=8.0, gt=0, le=120)  # the whole reply, or the grounded answer instead
    stop: list[str] = Field(default_factory=lambda: ["\n\n", "<|im_end|>", "User:", "Player:", "{"])


PLAYER_WAIT_S = 2.8  # a question's whole reply, model's rewrite included, within this (else the grounded one)


def _talk_roles() -> dict[str, TalkDecoding]:
    return {
        "Merchant": TalkDecoding(deadline_s=PLAYER_WAIT_S),
        "Chat": TalkDecoding(deadline_s=PLAYER_WAIT_S),
        "Analyzer": TalkDecoding(max_tokens=110, max_sentences=3, max_chars=420),
    }


class TalkSettings(_Section):
    """Grounded talk: the facts come from the game's data, the model only phrases them, a guard checks."""

    # False: the grounded template answers at once and the model is not asked (fastest, least colourful).
    model_phrasing: bool = True
    # True: the grounded answer shows at once; the model's phrasing replaces it only if it passes the guard.
    # False: the model's phrasing streams as it comes (cut at its first repeat) and is replaced if it fails.
    show_template_first: bool = True
    roles: dict[str, TalkDecoding] = Field(default_factory=_talk_roles)

    def decoding(self, role: str) -> TalkDecoding:
        return self.roles.get(role) or _talk_roles().get(role) or TalkDecoding()


class Settings(_Section):
    game: GameSettings = Field(default_factory=lambda: GameSettings())
    llm: LlmSettings = Field(default_factory=lambda: LlmSettings())
    queue: QueueSettings = Field(default_factory=lambda: QueueSettings())
    mainloop: MainLoopSettings = Field(default_factory=lambda: MainLoopSettings())
    tools: ToolSettings = Field(default_factory=lambda: ToolSettings())
    memory: MemorySettings = Field(default_factory=lambda: MemorySettings())
    prompts: PromptSettings = Field(default_factory=lambda: PromptSettings())
    logging: LogSettings = Field(default_factory=lambda: LogSettings())
    lua: LuaSettings = Field(default_factory=lambda: LuaSettings())
    mcp: McpSettings = Field(default_factory=lambda: McpSettings())
    talk: TalkSettings = Field(default_factory=lambda: TalkSettings())


def default_settings_path() -> Path:
    return settings_file()


def settings_from_dict(data: dict[str, Any]) -> Settings:
    """Validate a parsed settings mapping; the first bad value raises ``SettingsError`` naming its key."""
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        key = ".".join(str(part) for part in first["loc"]) or "<root>"
        raise SettingsError(key, explain(exc)) from exc


def load_settings(path: Path | None = None) -> Settings:
    """Read the TOML settings file; a missing file gives the defaults."""
    target = path if path is not None else default_settings_path()
    try:
        raw = target.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise SettingsError(str(target), f"cannot read: {exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(str(target), f"not valid TOML: {exc}") from exc
    return settings_from_dict(data)
