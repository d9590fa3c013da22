"""What the Lua layer hands back: faults, exec results, mod status rows, log entries and HUD notices."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from coreai.errors import (
    LuaBudgetExceeded,
    LuaError,
    LuaMemoryExceeded,
    LuaRuntimeError,
    LuaSyntaxError,
    ModQuarantined,
)

FaultKind = Literal["syntax", "runtime", "budget", "memory", "internal"]
NoticeLevel = Literal["info", "warning", "error"]
ErrorKind = Literal["syntax", "runtime", "budget", "memory", "internal", "quarantined", "invalid"]


@dataclass(frozen=True)
class Fault:
    """One failed entry into mod code. ``message`` is player-readable; ``line`` is the mod's line."""

    kind: FaultKind
    message: str
    source: str | None = None  # "mod/file.lua" as Lua names the chunk
    line: int | None = None
    traceback: str = ""
    budget: str | None = None  # "instructions" or "deadline" for budget kills
    instructions: int = 0

    def describe(self) -> str:
        where = f"{self.source}:{self.line}: " if self.source and self.line is not None else ""
        return f"{self.kind} error: {where}{self.message}"

    def to_error(self, mod: str, trace_id: str | None = None) -> LuaError:
        kw: dict[str, Any] = {"mod": mod, "line": self.line, "trace_id": trace_id}
        if self.kind == "syntax":
            return LuaSyntaxError(self.message, **kw)
        if self.kind == "budget":
            return LuaBudgetExceeded(self.message, budget=self.budget or "instructions", **kw)
        if self.kind == "memory":
            return LuaMemoryExceeded(self.message, **kw)
        return LuaRuntimeError(self.message, traceback=self.traceback, **kw)


class ExecResult(BaseModel):
    """The answer to one ``ModManager.execute`` (console line, agent ``execute_lua``, Programmer attempt)."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    mod: str
    trace_id: str
    values: list[Any] = []  # what the chunk returned, as plain JSON-like data
    output: list[str] = []  # print/warn/report lines written while it ran, "level: text"
    reports: list[str] = []
    error: str | None = None
    error_kind: ErrorKind | None = None
    line: int | None = None
    traceback: str = ""
    instructions: int = 0
    duration_ms: float = 0.0

    @property
    def value(self) -> Any:
        return self.values[0] if self.values else None

    def text(self) -> str:
        """A compact, readable rendering for a console or a tool result."""
        lines = list(self.output)
        if self.ok:
            if self.values:
                lines.append("=> " + ", ".join(repr(v) for v in self.values))
        else:
            lines.append(f"error ({self.error_kind}): {self.error}")
        return "\n".join(lines) if lines else "ok"

    def raise_for_error(self) -> None:
        """Raise the matching ``coreai.errors`` class when the execution failed."""
        if self.ok:
            return
        message = self.error or "failed"
        kw: dict[str, Any] = {"mod": self.mod, "line": self.line, "trace_id": self.trace_id}
        if self.error_kind == "quarantined":
            raise ModQuarantined(self.mod, message)
        if self.error_kind == "syntax":
            raise LuaSyntaxError(message, **kw)
        if self.error_kind == "budget":
            raise LuaBudgetExceeded(message, **kw)
        if self.error_kind == "memory":
            raise LuaMemoryExceeded(message, **kw)
        raise LuaRuntimeError(message, traceback=self.traceback, **kw)


class ModState(StrEnum):
    LOADED = "loaded"  # running
    FAULTED = "faulted"  # running with recent faults, or failed to load (see ModStatus.running)
    QUARANTINED = "quarantined"  # faulted too often; stays off until enabled again or its files change
    DISABLED = "disabled"  # switched off by the player (persisted)
    UNLOADED = "unloaded"  # known but not running
    INVALID = "invalid"  # mod.toml missing or invalid


class ModStatus(BaseModel):
    """One row of the mods panel."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str = ""  # mod.toml's title, else the name
    version: str = ""
    author: str = ""
    description: str = ""
    enabled: bool
    state: ModState
    running: bool
    last_error: str | None = None
    active_version: int | None = None  # number in the version store of the source that runs
    faults: int = 0
    shipped: bool = False
    path: str = ""


@dataclass(frozen=True)
class LogEntry:
    seq: int
    time: float
    mod: str
    level: str  # print, warn, report, error, fault, info
    message: str
    line: int | None = None
    trace_id: str | None = None

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"[{self.mod}] {self.level}: {self.message}{where}"


@dataclass(frozen=True)
class Notice:
    """A short line for the HUD: a report, a revert, a quarantine."""

    time: float
    level: NoticeLevel
    mod: str
    text: str
    kind: str = "info"  # report, revert, quarantine, reload, load_failed, info
