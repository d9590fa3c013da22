"""The one list of LLM backends: each kind's name, configuration model, build function and probe.

A **kind** (``BackendKind``) is a way of talking to a model: ``stub`` (scripted, offline), ``local``
(llama-cpp-python on a GGUF file), ``openai`` (any OpenAI-compatible HTTP server). An **entry**
(``BackendEntry``) is a registered, named instance of a kind: what settings routes, F6, ``/backend`` and
``--director`` name. Every built-in kind has one entry of the same name whose configuration is its settings
section (``[llm.local]``, ``[llm.openai]``); more entries of a kind can be added with their own
configuration (``BACKENDS.add("lmstudio", "openai", OpenAILlmConfig(base_url=...))``: a discovered server).

``rules`` is also a name settings accept: it is the director's deterministic policy, not a chat backend,
so it is never built (a role routed there falls back to ``stub`` with a reason).

Everything that lists backends reads ``BACKENDS``: ``coreai.settings.BackendName`` validates against it,
``game.ai.backends.build_backends`` builds what the routes need through it, F6 and ``/backend`` probe
through it, ``--director`` and the eval's ``--backend`` take their choices from it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from coreai.errors import LlmErrorCode, SettingsError
from coreai.llm.config import LocalLlmConfig, OpenAILlmConfig
from coreai.llm.health import HealthReport, check_local_backend, probe_openai, require_model_file
from coreai.llm.types import LlmClient

ProgressCallback = Callable[[float, str], None]
RULES = "rules"  # the director's deterministic policy: a valid route name, never a chat backend


@dataclass(frozen=True)
class BuildContext:
    on_progress: ProgressCallback | None = None  # model loading progress (local models)
    prompt_cache_bytes: int = 0


@dataclass(frozen=True)
class BackendKind:
    name: str
    summary: str
    build: Callable[[str, Any, BuildContext], LlmClient]  # (entry name, config, context) -> client
    config_key: str | None = None  # the [llm.<key>] settings section of the default entry
    config_model: type[BaseModel] | None = None
    # Why an entry cannot be built right now, found cheaply (no load, no network); None when it can.
    precheck: Callable[[Any], str | None] | None = None
    # The health probe F6 and /backend run before switching; None: always answers (nothing to probe).
    probe: Callable[[Any], HealthReport] | None = None
    # One line for the log and the F6/console notices: what this entry talks to.
    describe: Callable[[Any], str] | None = None


@dataclass(frozen=True)
class BackendEntry:
    name: str
    kind: BackendKind
    config: BaseModel | None = None  # None: the kind's settings section


class BackendRegistry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kinds: dict[str, BackendKind] = {}
        self._entries: dict[str, BackendEntry] = {}

    # -- registration -------------------------------------------------------------------------------------
    def register_kind(self, kind: BackendKind) -> None:
        """A new kind, with its default entry of the same name."""
        with self._lock:
            self._kinds[kind.name] = kind
            self._entries[kind.name] = BackendEntry(kind.name, kind)

    def add(
        self, name: str, kind: str, config: BaseModel | None = None, *, replace: bool = False
    ) -> BackendEntry:
        """Register another named entry of ``kind`` (e.g. a second OpenAI-compatible server)."""
        with self._lock:
            found = self._kinds.get(kind)
            if found is None:
                raise SettingsError(
                    "llm.backend", f"unknown backend kind '{kind}' (known: {self._known_kinds()})"
                )
            if name == RULES or (name in self._entries and not replace):
                raise SettingsError("llm.backend", f"a backend named '{name}' is already registered")
            if (
                config is not None
                and found.config_model is not None
                and not isinstance(config, found.config_model)
            ):
                raise SettingsError(
                    "llm.backend",
                    f"'{name}' needs a {found.config_model.__name__}, got {type(config).__name__}",
                )
            entry = BackendEntry(name, found, config)
            self._entries[name] = entry
        return entry

    def remove(self, name: str) -> None:
        """Forget an added entry (a kind's default entry stays)."""
        with self._lock:
            if name in self._entries and name not in self._kinds:
                del self._entries[name]

    # -- reading ------------------------------------------------------------------------------------------
    def _known_kinds(self) -> str:
        return ", ".join(sorted(self._kinds))

    def kinds(self) -> tuple[BackendKind, ...]:
        with self._lock:
            return tuple(self._kinds.values())

    def names(self) -> tuple[str, ...]:
        """Chat backends in registration order (built-in kinds first, then added entries)."""
        with self._lock:
            return tuple(self._entries)

    def route_names(self) -> tuple[str, ...]:
        """What a role may be routed to in settings: every entry, and ``rules``."""
        return (*self.names(), RULES)

    def entry(self, name: str) -> BackendEntry:
        with self._lock:
            found = self._entries.get(name)
            known = ", ".join(self._entries)
        if found is None:
            raise SettingsError("llm.backend", f"unknown backend '{name}' (registered: {known})")
        return found

    def config_for(self, name: str, llm: Any) -> Any:
        """The entry's configuration: its own, else its kind's section of ``llm`` (``LlmSettings``)."""
        entry = self.entry(name)
        if entry.config is not None or entry.kind.config_key is None:
            return entry.config
        return getattr(llm, entry.kind.config_key)

    # -- acting -------------------------------------------------------------------------------------------
    def precheck(self, name: str, llm: Any) -> str | None:
        entry = self.entry(name)
        check = entry.kind.precheck
        return check(self.config_for(name, llm)) if check is not None else None

    def build(self, name: str, llm: Any, ctx: BuildContext | None = None) -> LlmClient:
        """A new client for the entry ``name``; raises ``LlmError``/``SettingsError`` with the reason."""
        entry = self.entry(name)
        return entry.kind.build(name, self.config_for(name, llm), ctx or BuildContext())

    def describe(self, name: str, llm: Any) -> str:
        entry = self.entry(name)
        fn = entry.kind.describe
        return fn(self.config_for(name, llm)) if fn is not None else entry.kind.summary

    def needs_probe(self, name: str) -> bool:
        with self._lock:
            entry = self._entries.get(name)
        return entry is not None and entry.kind.probe is not None

    def probe(self, name: str, llm: Any) -> HealthReport:
        """The health probe before a switch; never raises (an unknown name is a failed report)."""
        try:
            entry = self.entry(name)
        except SettingsError as exc:
            return HealthReport(name, False, exc.message, LlmErrorCode.UNAVAILABLE)
        if entry.kind.probe is None:
            return HealthReport(name, True, entry.kind.summary)
        report = entry.kind.probe(self.config_for(name, llm))
        return (
            report
            if report.backend == name
            else HealthReport(name, report.ok, report.detail, report.code, report.latency_s, report.models)
        )


# -- the built-in kinds -----------------------------------------------------------------------------------
def _build_stub(name: str, config: Any, ctx: BuildContext) -> LlmClient:
    from coreai.llm.stub import StubLlmClient

    return StubLlmClient(name=name)


def _build_local(name: str, config: LocalLlmConfig, ctx: BuildContext) -> LlmClient:
    from loguru import logger

    from coreai.llm.local import LocalLlmClient

    require_model_file(config.model_path)
    logger.bind(feature="llm", trace_id="factory").info(
        "building {} backend on {} (n_ctx={}, threads={})",
        name,
        config.model_path,
        config.n_ctx,
        config.n_threads,
    )
    return LocalLlmClient(
        config, name=name, prompt_cache_bytes=ctx.prompt_cache_bytes, on_progress=ctx.on_progress
    )


def _local_precheck(config: LocalLlmConfig) -> str | None:
    report = check_local_backend(config.model_path)
    return None if report.ok else report.detail


def _build_openai(name: str, config: OpenAILlmConfig, ctx: BuildContext) -> LlmClient:
    from loguru import logger

    from coreai.llm.openai_backend import OpenAIBackend

    client = OpenAIBackend(config, name=name)
    logger.bind(feature="llm", trace_id="factory").info(
        "building {} backend on {} (model {})", name, client.base_url, config.model
    )
    return client


def _openai_precheck(config: OpenAILlmConfig) -> str | None:
    if config.base_url or os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY"):
        return None
    return "no server configured ([llm.openai] base_url or OPENAI_BASE_URL)"


def _openai_describe(config: OpenAILlmConfig) -> str:
    return f"{config.base_url or os.environ.get('OPENAI_BASE_URL') or 'OpenAI'} model {config.model}"


BACKENDS = BackendRegistry()
BACKENDS.register_kind(BackendKind("stub", "scripted, always available", _build_stub))
BACKENDS.register_kind(
    BackendKind(
        "local",
        "a GGUF model in this process (llama-cpp-python)",
        _build_local,
        config_key="local",
        config_model=LocalLlmConfig,
        precheck=_local_precheck,
        probe=lambda c: check_local_backend(c.model_path),
        describe=lambda c: f"{os.path.basename(c.model_path)} (loading in the background)",
    )
)
BACKENDS.register_kind(
    BackendKind(
        "openai",
        "an OpenAI-compatible server",
        _build_openai,
        config_key="openai",
        config_model=OpenAILlmConfig,
        precheck=_openai_precheck,
        probe=probe_openai,
        describe=_openai_describe,
    )
)
