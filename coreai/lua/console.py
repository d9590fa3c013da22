"""One-off Lua (backtick console, the agents' ``execute_lua``, Programmer attempts) in scratch sandboxes.

A scratch sandbox is a mod without files: the full Mod API, its own log and storage, state kept between
lines. ``run`` turns one execution into an ``ExecResult`` and never raises; a line that changed storage
answers only once the change is on disk (``ModStorage.save_now``). A scratch sandbox that hit the
memory cap is rebuilt for the next line, so a memory hog cannot wedge the console.

Scratch sandboxes are bounded together, not only one by one (a client naming 400 of them held 544 MB):
at most ``max_consoles`` live at once, and together they hold at most ``consoles_memory_mb``. Making room
closes the least recently used ones (their state goes; their storage is flushed and stays); a sandbox that
alone holds more than the budget is refused with a clear error and starts fresh on its next line. Their
timers count against the manager's one ``TimerPool`` with every mod's.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable

from loguru import logger

from coreai.lua.bridge import ModBridge, StateCache
from coreai.lua.host import ModHost
from coreai.lua.manifest import NAME_PATTERN
from coreai.lua.results import ErrorKind, ExecResult, ModState
from coreai.lua.sandbox import LuaSandbox
from coreai.lua.settings import MIB, LuaSettings
from coreai.lua.slot import ModSlot
from coreai.lua.timerpool import TimerPool

_NAME = re.compile(NAME_PATTERN)


class Console:
    def __init__(
        self,
        host: ModHost,
        settings: LuaSettings,
        state: StateCache,
        on_report: Callable[[str, str], None],
        timers: TimerPool | None = None,
    ) -> None:
        self.host = host
        self.settings = settings
        self.state = state
        self.on_report = on_report
        self.timers = timers if timers is not None else TimerPool(settings.max_timers_total)
        self.slots: OrderedDict[str, ModSlot] = OrderedDict()  # least recently used first
        self._closed: list[str] = []  # names closed to make room, told in the next result

    def scratch(self, name: str) -> ModSlot | None:
        """The scratch sandbox ``name`` (created on first use, closing the least recently used past
        ``max_consoles``); None for an invalid name."""
        slot = self.slots.get(name)
        if slot is None:
            if not _NAME.fullmatch(name):
                return None
            while len(self.slots) >= self.settings.max_consoles:
                self._close(next(iter(self.slots)), f"at most {self.settings.max_consoles} at once")
            slot = ModSlot.new(name, None, False, self.settings)
            self.slots[name] = slot
        self.slots.move_to_end(name)
        if slot.sandbox is None:
            self._boot(slot)
        return slot

    def memory_used(self) -> int:
        """Bytes every scratch sandbox holds together."""
        return sum(s.sandbox.memory_used for s in self.slots.values() if s.sandbox is not None)

    def _fit_memory(self, keep: str) -> str | None:
        """Close the least recently used scratch sandboxes (never ``keep``) until all of them together are
        within ``consoles_memory_mb``; the refusal when ``keep`` alone is over it (then it is closed too)."""
        budget = self.settings.consoles_memory_mb * MIB
        for name in [n for n in self.slots if n != keep]:
            if self.memory_used() <= budget:
                return None
            self._close(name, f"scratch sandboxes may hold {self.settings.consoles_memory_mb} MiB together")
        used = self.memory_used()
        if used <= budget:
            return None
        self._close(keep, "over the memory budget", tell=False)
        budget_mb = self.settings.consoles_memory_mb
        return (
            f"scratch sandbox '{keep}' holds {used / MIB:.1f} MiB, over the {budget_mb} MiB all scratch "
            "sandboxes may hold together; it was closed and starts fresh on its next line"
        )

    def _close(self, name: str, why: str, *, tell: bool = True) -> None:
        slot = self.slots.pop(name)
        slot.stop(self.settings, call_unload=False)  # its storage is flushed and stays
        logger.bind(feature="lua", trace_id=None).info("scratch sandbox {} closed: {}", name, why)
        if tell:
            self._closed.append(f"info: scratch sandbox '{name}' was closed to make room ({why})")

    def _boot(self, slot: ModSlot) -> None:
        bridge = ModBridge(
            slot.name,
            self.host,
            self.settings,
            log=slot.log,
            storage=slot.storage,
            state=self.state,
            on_report=self.on_report,
            source=f"console:{slot.name}",
        )
        slot.sandbox = LuaSandbox(
            slot.name, bridge.functions(), self.settings, info={"version": "console"}, timers=self.timers
        )
        bridge.to_lua = slot.sandbox.to_lua
        slot.bridge = bridge
        slot.state = ModState.LOADED
        slot.loaded_at = time.monotonic()

    def execute(self, code: str, mod: str, slot: ModSlot | None, trace_id: str) -> ExecResult:
        """Run ``code`` in the running mod ``slot``, or (``slot`` None) in the scratch sandbox ``mod``."""

        def refused(kind: ErrorKind, error: str) -> ExecResult:
            return ExecResult(ok=False, mod=mod, trace_id=trace_id, error_kind=kind, error=error)

        try:
            if not isinstance(code, str):
                return refused("invalid", "code must be a string")
            if slot is not None and not slot.running:
                kind: ErrorKind = "quarantined" if slot.state == ModState.QUARANTINED else "invalid"
                return refused(kind, f"mod '{mod}' is not running ({slot.state})")
            target = slot if slot is not None else self.scratch(mod)
            if target is None:
                return refused("invalid", f"invalid console name '{mod}' (lower_snake_case, 2-40 chars)")
            if slot is not None:
                return self.run(target, code, trace_id, scratch=False)
            over = self._fit_memory(keep=mod)
            if over is not None:
                return refused("memory", over)
            result = self.run(target, code, trace_id, scratch=True)
            over = self._fit_memory(keep=mod)  # what this line allocated counts from now on
            if over is not None:
                self._closed.append(f"warn: {over}")
            closed, self._closed = self._closed, []
            return result.model_copy(update={"output": [*closed, *result.output]}) if closed else result
        except Exception as exc:
            logger.bind(feature="lua", trace_id=trace_id).exception("execute in {} failed", mod)
            return refused("internal", str(exc))

    def run(self, slot: ModSlot, code: str, trace_id: str, *, scratch: bool) -> ExecResult:
        assert slot.sandbox is not None and slot.bridge is not None
        slot.bridge.begin_call(trace_id)
        seq = slot.log.seq
        out = slot.sandbox.exec(code, slot.name, self.settings.exec_budget)
        slot.stats.add(out.seconds)
        entries = slot.log.entries(since=seq)
        fault = out.fault
        lg = logger.bind(feature="lua", trace_id=trace_id)
        if fault is not None:
            slot.log.system("error", f"execute: {fault.describe()}", fault.line)
            lg.info("execute in {} failed: {}", slot.name, fault.describe())
            if scratch and fault.kind == "memory":
                slot.sandbox.close()
                slot.sandbox, slot.bridge = None, None
        else:
            lg.debug("execute in {} ok ({} instructions)", slot.name, out.instructions)
        output = [f"{e.level}: {e.message}" for e in entries if e.level in ("print", "warn", "report")]
        if slot.storage.dirty:  # the caller is told "stored" only once it is on disk
            unsaved = slot.storage.save_now()
            if unsaved is not None:
                output.append(f"warn: storage is not on disk yet (retrying): {unsaved}")
        return ExecResult(
            ok=fault is None,
            mod=slot.name,
            trace_id=trace_id,
            values=out.values,
            output=output,
            reports=[e.message for e in entries if e.level == "report"],
            error=fault.describe() if fault else None,
            error_kind=fault.kind if fault else None,
            line=fault.line if fault else None,
            traceback=fault.traceback if fault else "",
            instructions=out.instructions if fault is None else (fault.instructions or out.instructions),
            duration_ms=round(out.seconds * 1000.0, 3),
        )
