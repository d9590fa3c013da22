"""Fault policy of running mods: start a version, auto-revert a fresh version that faults, quarantine a
mod that keeps faulting, promote a version to "good" once it has run cleanly, and post HUD notices.

Rules (timings from ``LuaSettings``; the windows count game seconds once the game sets ``game_clock``, so
a fast headless run is not a mod faulting fast):
- Every source that starts is recorded in the ``VersionStore`` (status ``new``).
- A version that runs ``revert_window_s`` without a fault becomes ``good``.
- A version that faults (load error, runtime error, budget kill, memory cap) before it is good, while an
  earlier good version exists, is marked ``faulted`` and the good one runs instead; files on disk are
  left alone, so nothing the modder typed is lost.
- Otherwise faults are counted; ``quarantine_faults`` within ``fault_window_s`` quarantines the mod
  (persisted) until it is enabled again or its files change.
- Overruns (a budget kill: CPU deadline or instruction budget, or the memory cap) also count without a
  window: ``quarantine_faults`` overruns of one loaded version quarantine it however far apart they are,
  so a mod that stalls the frame once a minute cannot keep doing it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from loguru import logger

from coreai.errors import CoreAIError
from coreai.lua.bridge import StateCache
from coreai.lua.host import ModHost
from coreai.lua.manifest import ModBundle, bundle_from_files
from coreai.lua.prefs import PrefsFile
from coreai.lua.results import Fault, ModState, Notice, NoticeLevel
from coreai.lua.settings import LuaSettings
from coreai.lua.slot import ModSlot
from coreai.lua.timerpool import TimerPool
from coreai.lua.versions import VersionStatus, VersionStore

log = logger.bind(feature="lua", trace_id=None)


class Supervisor:
    def __init__(
        self,
        host: ModHost,
        settings: LuaSettings,
        versions: VersionStore,
        prefs: PrefsFile,
        state: StateCache,
        clock: Callable[[], float],
    ) -> None:
        self.host = host
        self.settings = settings
        self.versions = versions
        self.prefs = prefs
        self.state = state
        self.clock = clock
        self.game_clock = clock  # fault/revert/promote windows: the game's clock once the host sets it
        self.timers = TimerPool(settings.max_timers_total)  # shared by every sandbox (the console's too)
        self.notices: deque[Notice] = deque(maxlen=64)

    # ------------------------------------------------------------------ notices
    def notice(self, level: NoticeLevel, mod: str, text: str, kind: str = "info") -> None:
        self.notices.append(Notice(self.clock(), level, mod, text, kind))
        log.log({"info": "INFO", "warning": "WARNING", "error": "ERROR"}[level], "[{}] {}", mod, text)

    def on_report(self, mod: str, text: str) -> None:
        self.notices.append(Notice(self.clock(), "info", mod, text, "report"))

    # ------------------------------------------------------------------ starting a version
    def activate(self, slot: ModSlot, bundle: ModBundle, reason: str, *, allow_revert: bool = True) -> bool:
        """Stop what runs, start ``bundle``; on a load fault revert to the last good version if allowed."""
        if slot.running:
            slot.stop(self.settings)
        number, good = None, False
        try:
            info = self.versions.record(
                slot.name, bundle.files, note=reason, mod_version=bundle.manifest.version
            )
            number, good = info.number, info.status == "good"
        except CoreAIError as exc:  # the mod still runs; only its history is incomplete
            log.warning("could not record a version of {}: {}", slot.name, exc)
        slot.manifest = bundle.manifest
        fault = slot.start(bundle, self.host, self.settings, self.state, self.on_report, timers=self.timers)
        if fault is None:
            slot.version, slot.bundle = number, bundle
            slot.state = ModState.LOADED
            slot.loaded_at = self.game_clock()
            slot.good = good
            slot.faults.clear()
            slot.overruns = 0
            slot.last_error = None
            slot.log.system("info", f"loaded v{number} ({bundle.manifest.version}): {reason}")
            return True
        self._record(slot, fault, "load")
        if allow_revert and self._revert_to_good(slot, number, bundle.digest, fault, "failed to load"):
            return False
        slot.state = ModState.FAULTED
        self.notice("error", slot.name, f"mod {slot.name} failed to load: {fault.describe()}", "load_failed")
        self._maybe_quarantine(slot)
        return False

    def _revert_to_good(self, slot: ModSlot, bad: int | None, digest: str, fault: Fault, what: str) -> bool:
        good = self.versions.last_good(slot.name, exclude_digest=digest)
        if good is None:
            return False
        try:
            files = self.versions.files(slot.name, good.number)
            bundle = bundle_from_files(files, self.settings, where=slot.name)
        except CoreAIError as exc:
            log.warning("cannot revert {} to v{}: {}", slot.name, good.number, exc)
            return False
        if bad is not None:
            self._mark(slot.name, bad, "faulted")
        if slot.running:
            slot.stop(self.settings, call_unload=False)
        started = self.activate(slot, bundle, f"auto-revert from v{bad}", allow_revert=False)
        text = f"mod {slot.name} v{bad} {what} ({fault.kind}: {fault.message}); reverted to v{good.number}"
        if started:
            slot.last_error = f"v{bad} {what}: {fault.describe()}"
        self.notice("warning", slot.name, text, "revert")
        slot.log.system("warn", text, fault.line)
        return True

    def _mark(self, name: str, number: int, status: VersionStatus) -> None:
        try:
            self.versions.mark(name, number, status)
        except CoreAIError as exc:
            log.warning("could not mark {} v{} {}: {}", name, number, status, exc)

    # ------------------------------------------------------------------ faults
    def _record(self, slot: ModSlot, fault: Fault, during: str) -> None:
        slot.fault_total += 1
        if fault.kind in ("budget", "memory"):
            slot.overruns += 1
        slot.faults.append(self.game_clock())
        slot.last_error = f"{during}: {fault.describe()}"
        slot.log.system("fault", f"{during}: {fault.describe()}", fault.line)
        if fault.traceback:
            slot.log.system("error", fault.traceback.strip(), fault.line)

    def on_fault(self, slot: ModSlot, fault: Fault, during: str) -> None:
        """A running mod faulted in a hook, on_tick or a timer."""
        self._record(slot, fault, during)
        now = self.game_clock()
        fresh = not slot.good and now - slot.loaded_at <= self.settings.revert_window_s
        digest = slot.bundle.digest if slot.bundle else ""
        if fresh and self._revert_to_good(
            slot, slot.version, digest, fault, f"faulted {now - slot.loaded_at:.1f}s after load"
        ):
            return
        if not self._maybe_quarantine(slot):
            slot.state = ModState.FAULTED

    def _maybe_quarantine(self, slot: ModSlot) -> bool:
        now = self.game_clock()
        while slot.faults and now - slot.faults[0] > self.settings.fault_window_s:
            slot.faults.popleft()
        limit = self.settings.quarantine_faults
        if slot.overruns >= limit:
            reason = f"overran its CPU budget or memory cap {slot.overruns} times; last: {slot.last_error}"
        elif len(slot.faults) >= limit:
            window = self.settings.fault_window_s
            reason = f"{len(slot.faults)} faults in {window:g}s; last: {slot.last_error}"
        else:
            return False
        self.quarantine(slot, reason)
        return True

    def quarantine(self, slot: ModSlot, reason: str) -> None:
        if slot.running:
            slot.stop(self.settings, call_unload=False)
        slot.state = ModState.QUARANTINED
        slot.last_error = reason
        self.prefs.quarantine(slot.name, reason)
        slot.log.system("error", f"quarantined: {reason}")
        self.notice("error", slot.name, f"mod {slot.name} quarantined: {reason}", "quarantine")

    # ------------------------------------------------------------------ promotion
    def promote(self, slots: list[ModSlot]) -> None:
        """Mark versions good after a clean run; clear FAULTED once the fault window is empty.

        At most one version is marked per call: each mark is an fsync'd write on the main thread.
        """
        now = self.game_clock()
        window = self.settings.revert_window_s
        marked = False
        for slot in slots:
            if not slot.running:
                continue
            last_fault = slot.faults[-1] if slot.faults else slot.loaded_at
            clean = now - max(slot.loaded_at, last_fault) >= window
            if not marked and not slot.good and clean and slot.version is not None:
                marked = True
                self._mark(slot.name, slot.version, "good")
                slot.good = True
                slot.log.system("info", f"v{slot.version} ran {window:g}s cleanly: marked good")
            if slot.state == ModState.FAULTED:
                while slot.faults and now - slot.faults[0] > self.settings.fault_window_s:
                    slot.faults.popleft()
                if not slot.faults:
                    slot.state = ModState.LOADED
