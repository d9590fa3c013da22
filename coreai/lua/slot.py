"""One known mod and its running sandbox: start (entry chunk + on_load), stop (on_unload), guarded calls.

A ``ModSlot`` is the manager's mutable record of a mod: where it lives, which source runs (a bundle from
disk or from the version store), its sandbox and bridge, its faults, log, storage and timing stats.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coreai.errors import CoreAIError
from coreai.lua.bridge import ModBridge, StateCache
from coreai.lua.host import ModHost
from coreai.lua.manifest import ModBundle, ModManifest
from coreai.lua.modlog import ModLog
from coreai.lua.results import Fault, ModState, ModStatus
from coreai.lua.sandbox import LuaSandbox
from coreai.lua.settings import CallBudget, LuaSettings
from coreai.lua.storage import ModStorage
from coreai.lua.timerpool import TimerPool


@dataclass
class CallStats:
    calls: int = 0
    total_s: float = 0.0
    max_s: float = 0.0
    last_instructions: int = 0

    def add(self, seconds: float) -> None:
        self.calls += 1
        self.total_s += seconds
        if seconds > self.max_s:
            self.max_s = seconds


# the game events mods may handle (dispatched by the manager), and the lifecycle hooks every mod may define
HOOKS = (
    "on_wave_start",
    "on_wave_end",
    "on_enemy_spawned",
    "on_enemy_killed",
    "on_player_damaged",
    "on_director_event",
)
LIFECYCLE_HOOKS = ("on_load", "on_unload", "on_tick")


@dataclass(eq=False)
class ModSlot:
    name: str
    folder: Path | None
    shipped: bool
    log: ModLog
    storage: ModStorage
    manifest: ModManifest | None = None
    bundle: ModBundle | None = None  # the source that runs (or last ran)
    disk_digest: str | None = None  # digest of the files last read from disk
    signature: tuple[tuple[str, int, int], ...] = ()
    invalid_reason: str | None = None
    state: ModState = ModState.UNLOADED
    sandbox: LuaSandbox | None = None
    bridge: ModBridge | None = None
    version: int | None = None
    loaded_at: float = 0.0
    good: bool = False
    faults: deque[float] = field(default_factory=deque)
    fault_total: int = 0
    overruns: int = 0  # budget/memory kills of this version, however far apart (never decay)
    last_error: str | None = None
    tick_acc: float = 0.0
    stats: CallStats = field(default_factory=CallStats)

    @classmethod
    def new(cls, name: str, folder: Path | None, shipped: bool, settings: LuaSettings) -> ModSlot:
        """A slot with its own log and storage (the one way mods and console sandboxes get one)."""
        log = ModLog(name, settings.log_capacity, settings.log_lines_per_call)
        return cls(name, folder, shipped, log, ModStorage(name, settings.storage_cap_bytes))

    @property
    def running(self) -> bool:
        return self.sandbox is not None

    def status(self, enabled: bool) -> ModStatus:
        m = self.manifest
        return ModStatus(
            name=self.name,
            version=m.version if m else "",
            title=m.display_name if m else self.name,
            author=m.author if m else "",
            description=m.description if m else "",
            enabled=enabled,
            state=self.state,
            running=self.running,
            last_error=self.last_error,
            active_version=self.version,
            faults=self.fault_total,
            shipped=self.shipped,
            path=str(self.folder) if self.folder else "",
        )

    def diagnostics(self) -> dict[str, Any]:
        sb, st = self.sandbox, self.stats
        hooks = (*LIFECYCLE_HOOKS, *HOOKS)
        return {
            "name": self.name,
            "state": str(self.state),
            "running": self.running,
            "version": self.version,
            "good": self.good,
            "faults_total": self.fault_total,
            "faults_recent": len(self.faults),
            "last_error": self.last_error,
            "memory_kib": round(sb.memory_used / 1024, 1) if sb else 0,
            "timers": sb.timer_count if sb else 0,
            "calls": st.calls,
            "avg_call_us": round(st.total_s / st.calls * 1e6, 1) if st.calls else 0.0,
            "max_call_us": round(st.max_s * 1e6, 1),
            "storage_bytes": self.storage.size_bytes,
            "hooks": [h for h in hooks if sb and sb.has(h)],
            "log_seq": self.log.seq,
        }

    # ------------------------------------------------------------------ lifecycle
    def start(
        self,
        bundle: ModBundle,
        host: ModHost,
        settings: LuaSettings,
        state: StateCache,
        on_report: Callable[[str, str], None],
        *,
        timers: TimerPool | None = None,
    ) -> Fault | None:
        """Boot a sandbox for ``bundle``, run its entry file and ``on_load``; on a fault nothing runs."""
        bridge = ModBridge(
            self.name, host, settings, log=self.log, storage=self.storage, state=state, on_report=on_report
        )
        m = bundle.manifest
        try:
            sandbox = LuaSandbox(
                self.name,
                bridge.functions(),
                settings,
                files=bundle.files,
                info={"version": m.version, "author": m.author},
                timers=timers,
            )
        except CoreAIError as exc:
            return Fault("memory" if "memory" in str(exc) else "internal", str(exc))
        bridge.to_lua = sandbox.to_lua
        bridge.begin_call()
        out = sandbox.exec(bundle.entry_source, f"{self.name}/{m.entry}", settings.load_budget)
        fault = out.fault or self._call(sandbox, bridge, "on_load", (), settings.load_budget)
        if fault is not None:
            sandbox.close()
            return fault
        self.sandbox, self.bridge, self.bundle, self.manifest = sandbox, bridge, bundle, m
        self.tick_acc = 0.0
        return None

    def stop(self, settings: LuaSettings, *, call_unload: bool = True) -> Fault | None:
        """Run ``on_unload`` (optionally), flush storage, drop the sandbox (its timers die with it)."""
        fault = None
        if self.sandbox is not None and self.bridge is not None and call_unload:
            fault = self._call(self.sandbox, self.bridge, "on_unload", (), settings.hook_budget)
        if self.sandbox is not None:
            self.sandbox.close()
        self.sandbox, self.bridge = None, None
        self.storage.save_now()
        return fault

    # ------------------------------------------------------------------ guarded calls
    def call(self, hook: str, args: tuple[Any, ...], budget: CallBudget) -> Fault | None:
        if self.sandbox is None or self.bridge is None:
            return None
        return self._call(self.sandbox, self.bridge, hook, args, budget)

    def tick(self, dt: float, budget: CallBudget) -> Fault | None:
        if self.sandbox is None or self.bridge is None:
            return None
        self.bridge.begin_call()
        start = time.perf_counter()
        fault = self.sandbox.tick(dt, budget)
        self.stats.add(time.perf_counter() - start)
        return fault

    def _call(
        self, sandbox: LuaSandbox, bridge: ModBridge, hook: str, args: tuple[Any, ...], budget: CallBudget
    ) -> Fault | None:
        bridge.begin_call()
        lua_args = tuple(sandbox.to_lua(a) if isinstance(a, dict | list | tuple) else a for a in args)
        start = time.perf_counter()
        fault = sandbox.call(hook, lua_args, budget)
        self.stats.add(time.perf_counter() - start)
        return fault
