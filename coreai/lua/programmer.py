"""The Programmer agent's self-heal loop: ask an LLM for Lua, run it in a sandbox, repair it from the error.

    outcome = run_programmer_task(
        "spawn a ring of 8 grunts around the player and report the count",
        llm=client, runner=manager, system_prompt=programmer_role_text, subscribers=[bus.publish],
    )

Each attempt asks for one ```lua block, runs it with ``runner.execute`` in the ``programmer`` console
sandbox, and on a failure re-prompts with the code and the error, up to ``max_repairs`` times. Every
attempt shares one trace id and emits ``LuaExecutionSucceeded`` / ``LuaExecutionFailed`` to the
subscribers; a script that works is saved as a version. ``runner.execute`` must run on the game's main
thread: call this loop there, or pass a runner that marshals to it.

``programmer_demo_script()`` holds the scripted replies a stub backend plays for the demo task; the first
has a deliberate mistake so the repair is visible.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from loguru import logger
from pydantic import BaseModel, ConfigDict, Field

from coreai.errors import LlmError
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest
from coreai.lua.results import ExecResult

PROGRAMMER_DEMO_TASK = "spawn a ring of 8 grunts around the player and report the count"

_LUA_BLOCK = re.compile(r"```[ \t]*lua[ \t]*\r?\n(.*?)```", re.S | re.I)
_ANY_BLOCK = re.compile(r"```[ \t]*[A-Za-z0-9_+-]*[ \t]*\r?\n(.*?)```", re.S)
_LUA_START = re.compile(
    r"^(--|local\s|function\s|for\s|while\s|if\s|return\b|coreai_world_\w+\s*\(|"
    r"(report|print|warn|every|after)\s*\(|[A-Za-z_][\w.]*\s*=[^=])"
)


@dataclass(frozen=True)
class LuaExecutionSucceeded:
    trace_id: str
    task: str
    attempt: int  # 1 = first try, 2 = first repair, ...
    code: str
    result: ExecResult
    version: int | None  # number in the version store, when saved


@dataclass(frozen=True)
class LuaExecutionFailed:
    trace_id: str
    task: str
    attempt: int
    code: str
    error: str
    error_kind: str  # syntax, runtime, budget, memory, no_code, llm, ...
    will_retry: bool


LuaExecutionEvent = LuaExecutionSucceeded | LuaExecutionFailed


@dataclass(frozen=True)
class ProgrammerOutcome:
    ok: bool
    trace_id: str
    attempts: int
    code: str
    result: ExecResult | None
    error: str | None
    version: int | None
    events: tuple[LuaExecutionEvent, ...]


class ProgrammerSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_repairs: int = Field(default=3, ge=0, le=10, description="re-prompts after the first attempt")
    sandbox: str = Field(default="programmer", description="console sandbox the scripts run in")
    role: str = "Programmer"
    max_tokens: int = Field(default=512, ge=16, le=8192)
    temperature: float = Field(default=0.2, ge=0, le=2)
    timeout_s: float | None = Field(default=60.0, gt=0)
    save_versions: bool = True


class LuaRunner(Protocol):
    """What the loop needs from the mod manager (``ModManager`` satisfies it)."""

    def execute(self, code: str, mod: str = ..., *, trace_id: str | None = None) -> ExecResult: ...

    def save_script_version(self, name: str, code: str, note: str = "") -> int: ...


def extract_lua(text: str) -> str | None:
    """The first ```lua block (else the first fenced block) of a reply; an unfenced reply that starts like
    Lua code is taken whole (small models often drop the fence); None when there is no code."""
    m = _LUA_BLOCK.search(text) or _ANY_BLOCK.search(text)
    if m is not None:
        return m.group(1).strip() or None
    stripped = text.strip()
    if "```" not in stripped and _LUA_START.match(stripped):
        return stripped
    return None


def _task_message(task: str) -> str:
    return (
        f"Task: {task}\nWrite Lua for the game's Mod API v1. Reply with the whole script in one ```lua block."
    )


def _repair_message(code: str, error: str) -> str:
    return (
        "The previous attempt failed. Fix that exact problem.\n"
        f"fix_this_lua:\n```lua\n{code}\n```\n"
        f"lua_error: {error}\n"
        "Reply with the complete corrected script in one ```lua block."
    )


def run_programmer_task(
    task: str,
    *,
    llm: LlmClient,
    runner: LuaRunner,
    system_prompt: str,
    subscribers: Sequence[Callable[[LuaExecutionEvent], None]] = (),
    settings: ProgrammerSettings | None = None,
    trace_id: str | None = None,
) -> ProgrammerOutcome:
    """Run the self-heal loop for ``task``; never raises (LLM failures end it with ``ok=False``)."""
    cfg = settings or ProgrammerSettings()
    trace = trace_id or uuid.uuid4().hex[:12]
    log = logger.bind(feature="lua", trace_id=trace)
    events: list[LuaExecutionEvent] = []

    def emit(event: LuaExecutionEvent) -> None:
        events.append(event)
        for subscriber in subscribers:
            try:
                subscriber(event)
            except Exception:
                log.exception("LuaExecution subscriber failed")

    base = (ChatMessage("system", system_prompt), ChatMessage("user", _task_message(task)))
    messages: tuple[ChatMessage, ...] = base
    code, error = "", None
    last_result: ExecResult | None = None
    total = cfg.max_repairs + 1
    for attempt in range(1, total + 1):
        retry = attempt < total
        request = LlmRequest(
            messages=messages,
            role=cfg.role,
            trace_id=trace,
            max_tokens=cfg.max_tokens,
            temperature=cfg.temperature,
            timeout_s=cfg.timeout_s,
            tool_choice="none",
        )
        try:
            reply = llm.complete(request).content
        except LlmError as exc:
            error = str(exc)
            emit(LuaExecutionFailed(trace, task, attempt, code, error, "llm", False))
            log.warning("programmer attempt {}: LLM failed: {}", attempt, error)
            return ProgrammerOutcome(False, trace, attempt, code, last_result, error, None, tuple(events))
        extracted = extract_lua(reply)
        if extracted is None:
            error = "the reply had no ```lua code block"
            emit(LuaExecutionFailed(trace, task, attempt, "", error, "no_code", retry))
            log.info("programmer attempt {}: {}", attempt, error)
            messages = (
                *base,
                ChatMessage("assistant", reply[:2000]),
                ChatMessage("user", error + ". " + "Reply with the complete script in one ```lua block."),
            )
            continue
        code = extracted
        result = runner.execute(code, cfg.sandbox, trace_id=trace)
        last_result = result
        if result.ok:
            version = None
            if cfg.save_versions:
                try:
                    version = runner.save_script_version(cfg.sandbox, code, note=f"{task} [trace {trace}]")
                except Exception:
                    log.exception("could not save the programmer script")
            emit(LuaExecutionSucceeded(trace, task, attempt, code, result, version))
            log.info("programmer attempt {}: success (version {})", attempt, version)
            return ProgrammerOutcome(True, trace, attempt, code, result, None, version, tuple(events))
        error = result.error or "failed"
        emit(LuaExecutionFailed(trace, task, attempt, code, error, result.error_kind or "runtime", retry))
        log.info("programmer attempt {} failed: {}", attempt, error)
        messages = (
            *base,
            ChatMessage("assistant", f"```lua\n{code}\n```"),
            ChatMessage("user", _repair_message(code, error)),
        )
    return ProgrammerOutcome(False, trace, total, code, last_result, error, None, tuple(events))


_DEMO_MISTAKE = """Here is a script that spawns the ring:

```lua
local s = game.state()
local px, py = s.player_x, s.player_y   -- mistake: the player is s.player.x / s.player.y
local count = 0
for i = 0, 7 do
  local a = i * math.pi / 4
  local ids = coreai_world_spawn("grunt", px + math.cos(a) * 160, py + math.sin(a) * 160)
  count = count + #ids
end
report("spawned " .. count .. " grunts in a ring")
return count
```"""

_DEMO_FIXED = """The player position is a nested table (s.player.x). Fixed:

```lua
local p = game.state().player
local count = 0
for i = 0, 7 do
  local a = i * math.pi / 4
  local ids = coreai_world_spawn("grunt", p.x + math.cos(a) * 160, p.y + math.sin(a) * 160)
  count = count + #ids
end
report("spawned " .. count .. " grunts in a ring around the player")
return count
```"""


def programmer_demo_script() -> list[str]:
    """Scripted Programmer replies for ``PROGRAMMER_DEMO_TASK``: a mistake first, then the repair."""
    return [_DEMO_MISTAKE, _DEMO_FIXED]
