"""One hardened Lua 5.4 runtime (lupa.lua54) for one mod or console: boot, budgets, guarded entries.

The runtime is created with ``register_eval=False``, ``register_builtins=False``,
``unpack_returned_tuples=True`` and a ``max_memory`` cap. The trusted ``boot.lua`` chunk builds the mod's
environment and the budget machinery (a count hook in every coroutine, kills that pcall cannot swallow);
``guards.lua`` adds the standard libraries with expensive C calls guarded; ``api.lua`` adds Mod API v1
as Lua closures around the Python callables of a ``ModBridge``. Python only ever calls the runner
functions boot returns; ``attribute_filter`` is not relied on (CVE-2026-34444) because no Python object
is ever reachable from mod code.

Every entry returns a ``Fault`` or nothing; no Lua or Python exception escapes to the caller.
"""

from __future__ import annotations

import re
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from loguru import logger
from lupa import lua54

from coreai.errors import LuaError, LuaMemoryExceeded
from coreai.lua.convert import lua_to_py, to_plain
from coreai.lua.results import Fault, FaultKind
from coreai.lua.settings import MIB, CallBudget, LuaSettings
from coreai.lua.timerpool import TimerPool
from coreai.paths import shipped

log = logger.bind(feature="lua", trace_id=None)

_BOOT_SRC = shipped("lua", "boot.lua").read_text(encoding="utf-8")
_GUARDS_SRC = shipped("lua", "guards.lua").read_text(encoding="utf-8")
_API_SRC = shipped("lua", "api.lua").read_text(encoding="utf-8")
_LOCATED = re.compile(r"^(?P<src>[^\s:][^:\n]*):(?P<line>\d+): (?P<msg>.*)$", re.S)
_WHERE = re.compile(r"^(?P<src>.+):(?P<line>\d+)$")
_REENTRANT = Fault("internal", "re-entrant call refused: this sandbox is already running mod code")


@dataclass(frozen=True)
class ExecOutcome:
    fault: Fault | None
    values: list[Any]
    instructions: int
    seconds: float


def _locate(message: str) -> tuple[str | None, int | None, str]:
    m = _LOCATED.match(message)
    if not m:
        return None, None, message
    return m.group("src"), int(m.group("line")), m.group("msg")


def _mod_frames(traceback: str) -> str:
    """The traceback without the sandbox's own frames (boot/guards/api chunks, C wrappers)."""
    keep = [
        line
        for line in traceback.splitlines()
        if line.strip()
        and "coreai-" not in line
        and "[C]: in upvalue" not in line
        and "tail calls" not in line
    ]
    return "\n".join(keep)


class LuaSandbox:
    """A LuaRuntime with Mod API v1 for the mod ``name``; main-thread use only."""

    def __init__(
        self,
        name: str,
        functions: Mapping[str, Callable[..., Any]],
        settings: LuaSettings,
        *,
        files: Mapping[str, str] | None = None,
        info: Mapping[str, str] | None = None,
        timers: TimerPool | None = None,
    ) -> None:
        self.name = name
        self.settings = settings
        # the timer budget shared with the manager's other sandboxes (its own, alone, when none is given)
        self._timers = timers if timers is not None else TimerPool(settings.max_timers_total)
        try:
            lua = lua54.LuaRuntime(
                register_eval=False,
                register_builtins=False,
                unpack_returned_tuples=True,
                max_memory=settings.max_memory_mb * MIB,
            )
            self._lua: Any = lua  # None once closed
            cfg = lua.table_from(
                {
                    "hook_step": settings.hook_step,
                    "deadline_every": settings.deadline_every,
                    "hook_window_kb": settings.hook_window_kb,
                    "hook_window_ms": settings.hook_window_ms,
                    "ns_per_byte": settings.c_ns_per_byte,
                    "max_string": settings.max_string_bytes,
                    "max_memory": settings.max_memory_mb * MIB,
                    "max_elements": settings.max_elements,
                    "pattern_max_cost": settings.pattern_max_cost,
                    "max_pattern_len": settings.max_pattern_len,
                    "max_chunk": settings.max_chunk_bytes,
                    "max_text": settings.max_text,
                }
            )
            pool, key = self._timers, id(self)
            py = lua.table_from(
                dict(
                    functions,
                    now=time.perf_counter,
                    cpu=time.thread_time,
                    timer_room=pool.room,
                    timers_now=lambda n: pool.report(key, n),
                )
            )
            # math.random starts from the mod's name, not the clock: the same inputs give the same run in
            # every process (a fresh Lua 5.4 state seeds itself from the time and an address)
            # (run as Lua source: a Python handle on the state's tables would keep it alive after close)
            lua.execute(f"math.randomseed({zlib.crc32(name.encode('utf-8'))})", name="=coreai-seed", mode="t")
            kit = lua.execute(_BOOT_SRC, cfg, py, name="=coreai-boot", mode="t")
            lua.execute(_GUARDS_SRC, kit, cfg, name="=coreai-guards", mode="t")
            meta = dict(info or {})
            api_info = lua.table_from(
                {
                    "name": name,
                    "version": str(meta.get("version", "")),
                    "author": str(meta.get("author", "")),
                    "max_timers": settings.max_timers,
                    "max_timers_total": settings.max_timers_total,
                    "min_interval": settings.min_timer_interval_s,
                    "files": lua.table_from(dict(files or {})),
                }
            )
            lua.execute(_API_SRC, kit, py, api_info, name="=coreai-api", mode="t")
            kit.seal()
        except lua54.LuaMemoryError as exc:
            raise LuaMemoryExceeded("memory cap hit while booting the sandbox", mod=name) from exc
        except lua54.LuaError as exc:
            raise LuaError(f"sandbox boot failed: {exc}", mod=name) from exc
        self._kit = kit
        runners = kit.runners
        self._r_hook = runners.hook
        self._r_tick = runners.tick
        self._r_exec = runners.exec
        self._r_gc = runners.gc
        self._r_has = runners.has
        self._timer_count = kit.timer_count
        self._busy = False  # inside an entry: a nested entry would reset the running entry's budget
        self.closed = False

    # ------------------------------------------------------------------ entries
    def call(self, hook: str, args: tuple[Any, ...] = (), budget: CallBudget | None = None) -> Fault | None:
        """Run the global function ``hook`` (absent: nothing happens) under ``budget``."""
        b = budget or self.settings.hook_budget
        if self._busy:
            return _REENTRANT
        self._busy = True
        try:
            span = b.deadline_ms / 1000.0
            r = self._r_hook(b.instructions, time.perf_counter() + span, span, hook, *args)
        except Exception as exc:
            return self._internal(exc)
        finally:
            self._busy = False
        if r is None or r[0] is True:
            return None
        return self._fault(r, b)

    def tick(self, dt: float, budget: CallBudget | None = None) -> Fault | None:
        """Run ``on_tick(dt)`` (if defined) and every timer that is due, under one budget."""
        b = budget or self.settings.tick_budget
        if self._busy:
            return _REENTRANT
        self._busy = True
        try:
            span = b.deadline_ms / 1000.0
            r = self._r_tick(b.instructions, time.perf_counter() + span, span, float(dt))
        except Exception as exc:
            return self._internal(exc)
        finally:
            self._busy = False
        if r[0] is True:
            return None
        return self._fault(r, b)

    def exec(self, code: str, chunkname: str, budget: CallBudget | None = None) -> ExecOutcome:
        """Compile ``code`` (text only) in the mod's environment and run it; return its values as data."""
        b = budget or self.settings.exec_budget
        start = time.perf_counter()
        if len(code.encode("utf-8", errors="replace")) > self.settings.max_chunk_bytes:
            fault = Fault("syntax", f"chunk is over {self.settings.max_chunk_bytes} bytes")
            return ExecOutcome(fault, [], 0, 0.0)
        if self._busy:
            return ExecOutcome(_REENTRANT, [], 0, 0.0)
        self._busy = True
        try:
            span = b.deadline_ms / 1000.0
            r = self._r_exec(b.instructions, start + span, span, code, f"={chunkname}")
        except Exception as exc:
            return ExecOutcome(self._internal(exc), [], 0, time.perf_counter() - start)
        finally:
            self._busy = False
        seconds = time.perf_counter() - start
        if r[0] is not True:
            return ExecOutcome(self._fault(r, b), [], int(r[3]), seconds)
        values: list[Any] = []
        packed = r[2]
        try:
            n = int(packed["n"])
            values = [lua_to_py(packed[i]) for i in range(1, n + 1)]
        except Exception as exc:
            values = [f"<unconvertible result: {exc}>"]
        return ExecOutcome(None, values, int(r[1]), seconds)

    # ------------------------------------------------------------------ helpers for the bridge and manager
    def to_lua(self, value: Any) -> Any:
        """A plain Lua value or a fresh Lua table holding a copy of ``value``."""
        plain = to_plain(value)
        if isinstance(plain, dict | list) and self._lua is not None:
            return self._lua.table_from(plain, recursive=True)
        return plain

    @property
    def busy(self) -> bool:
        """True while mod code of this sandbox runs (a host callback is on the stack)."""
        return self._busy

    def has(self, name: str) -> bool:
        try:
            return bool(self._r_has(name))
        except Exception:
            return False

    def collect_garbage(self) -> float:
        """Full GC (trusted: mods cannot define __gc); returns KiB in use."""
        try:
            return float(self._r_gc())
        except Exception:
            return -1.0

    @property
    def memory_used(self) -> int:
        return int(self._lua.get_memory_used() or 0) if self._lua is not None else 0

    @property
    def timer_count(self) -> int:
        try:
            return int(self._timer_count())
        except Exception:
            return 0

    def close(self) -> None:
        """Drop the Lua state now. The state holds the bridge's callables and the bridge holds ``to_lua``
        (this object): a cycle through C that Python's collector cannot see, so without this a closed
        sandbox's memory stayed until a full collection happened to run."""
        if self.closed:
            return
        self.closed = True
        self._timers.drop(id(self))
        self._kit = None
        self._r_hook = self._r_tick = self._r_exec = self._r_gc = self._r_has = None
        self._timer_count = lambda: 0
        self._lua = None  # the last reference: lua_close runs here and frees every Lua allocation

    # ------------------------------------------------------------------ fault mapping
    def _fault(self, r: tuple[Any, ...], budget: CallBudget) -> Fault:
        kind = str(r[1])
        instructions = int(r[3]) if len(r) > 3 and isinstance(r[3], int | float) else 0
        if kind == "budget":
            reason = str(r[2])
            src, line = None, None
            m = _WHERE.match(str(r[4] or "")) if len(r) > 4 else None
            if m:
                src, line = m.group("src"), int(m.group("line"))
            if reason == "deadline":
                msg = f"CPU deadline of {budget.deadline_ms:g} ms exceeded"
            else:
                msg = f"instruction budget of {budget.instructions} exceeded"
            return Fault("budget", msg, src, line, budget=reason, instructions=instructions)
        if kind == "memory":
            self.collect_garbage()
            msg = f"memory cap of {self.settings.max_memory_mb} MiB exceeded"
            return Fault("memory", msg, instructions=instructions)
        message = str(r[2])
        src, line, text = _locate(message)
        tb = _mod_frames(str(r[4])) if len(r) > 4 and r[4] else ""
        fault_kind: FaultKind = "syntax" if kind == "syntax" else "runtime"
        return Fault(fault_kind, text, src, line, traceback=tb, instructions=instructions)

    def _internal(self, exc: BaseException) -> Fault:
        if isinstance(exc, lua54.LuaMemoryError):
            self.collect_garbage()
            return Fault("memory", f"memory cap of {self.settings.max_memory_mb} MiB exceeded")
        if self.closed:
            return Fault("internal", "sandbox is closed")
        log.opt(exception=exc).warning(
            "sandbox {}: unexpected {} at the Lua boundary", self.name, type(exc).__name__
        )
        return Fault("internal", f"{type(exc).__name__}: {exc}")
