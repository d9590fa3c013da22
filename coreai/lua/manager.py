"""The mod manager the game drives from its main thread: discovery, lifecycle, hooks, ticks, hot reload.

    manager = ModManager(host)                   # roots: assets/mods then saves/mods (user mods win)
    manager.load_all()
    manager.dispatch("on_enemy_killed", {"id": 7, "prefab": "grunt", "x": 10.0, "y": 20.0})
    manager.tick(dt)                             # on_tick + timers (frame-budgeted), hot-reload poll
    manager.execute("return game.state().wave")  # console / agents -> ExecResult
    manager.status(); manager.drain_notices(); manager.logs("kill_streak")

``dispatch``, ``tick`` and ``execute`` never raise into the game loop: faults become log entries,
notices, reverts and quarantines (see ``supervisor.py``). Management operations (load, reload, unload,
enable, disable, revert, export, import_mod) raise ``ModError``/``ModManifestError`` with a clear message.
"""

from __future__ import annotations

import math
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from loguru import logger

from coreai.errors import CoreAIError, ModError
from coreai.lua.bridge import StateCache
from coreai.lua.console import Console
from coreai.lua.convert import to_plain
from coreai.lua.host import ModHost
from coreai.lua.manifest import (
    bundle_from_files,
    folder_signature,
    new_manifest,
    parse_manifest,
    read_bundle,
    read_files,
)
from coreai.lua.packaging import read_zip, write_folder, write_zip
from coreai.lua.prefs import PrefsFile
from coreai.lua.registry import ModRegistry
from coreai.lua.results import ExecResult, LogEntry, ModState, ModStatus, Notice
from coreai.lua.settings import LuaSettings
from coreai.lua.slot import HOOKS, ModSlot
from coreai.lua.storage import clean_storage_folder
from coreai.lua.supervisor import Supervisor
from coreai.lua.versions import VersionInfo, VersionStore
from coreai.paths import saves_root, shipped_dir, user_mods_dir
from coreai.persist import clean_stale_tmp
from coreai.version import __version__ as GAME_VERSION

log = logger.bind(feature="lua", trace_id=None)


class ModManager:
    """Every mod of the game and the console sandboxes; one instance, used from the main thread only.

    ``roots`` are searched in order (default: ``assets/mods`` then ``saves/mods``); a later root wins on a
    name clash. ``user_root`` (default ``saves/mods``) is where imports and agent-written mods go.
    ``clock`` is the monotonic clock of revert/fault windows and polling (tests pass a manual one).
    """

    def __init__(
        self,
        host: ModHost,
        roots: Sequence[Path] | None = None,
        settings: LuaSettings | None = None,
        *,
        user_root: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.host = host
        self.settings = settings or LuaSettings()
        self.user_root = Path(user_root) if user_root else user_mods_dir()
        shipped_mods = shipped_dir("assets", "mods")
        self.roots = [Path(r) for r in roots] if roots is not None else [shipped_mods, self.user_root]
        self._clock = clock
        clean_storage_folder()  # a write killed mid-way left a .tmp: gone at the next start
        clean_stale_tmp(self.user_root, recursive=True, exact=True)  # the same in the mods the game writes
        clean_stale_tmp(saves_root() / "mod_exports", exact=True)  # and in the exports it wrote
        self._state = StateCache(host)
        self.versions = VersionStore(max_versions=self.settings.max_versions)
        self.prefs = PrefsFile()
        self._sup = Supervisor(host, self.settings, self.versions, self.prefs, self._state, clock)
        self._console = Console(host, self.settings, self._state, self._sup.on_report, self._sup.timers)
        self._reg = ModRegistry(self.roots, self.user_root, self.settings, self._sup, self.prefs)
        self._slots = self._reg.slots
        self._rr = 0
        # False (an agent-driven game, ticked once per simulation tick): no wall-clock frame budget, so a
        # busy CPU never defers a mod's on_tick to another tick and the same inputs give the same run
        self.wall_budget = True
        self._pending: deque[tuple[str, tuple[Any, ...]]] = deque(maxlen=1024)
        self._frame_ms: deque[float] = deque(maxlen=600)

    def set_game_clock(self, clock: Callable[[], float]) -> None:
        """Count fault, revert and promotion windows in game seconds (polling stays on ``clock``)."""
        self._sup.game_clock = clock

    # ------------------------------------------------------------------ discovery and loading
    def load_all(self) -> list[ModStatus]:
        """Discover every mod folder, resolve dependencies, conflicts and load order across all of them
        (``coreai.lua.resolve``), and start the enabled, non-quarantined ones in that order; a mod that
        cannot load gets its reason as its error (F7, ``manage_mods``) and a notice."""
        if self.prefs.warning:
            self._sup.notice("warning", "mods", self.prefs.warning, "settings")
            self.prefs.warning = None
        self._reg.start_all(GAME_VERSION)
        return self.status()

    # ------------------------------------------------------------------ management operations
    def list_mods(self) -> list[str]:
        return sorted(set(self._slots) | set(self._reg.discover()))

    def status(self) -> list[ModStatus]:
        return [s.status(self.prefs.is_enabled(n)) for n, s in sorted(self._slots.items())]

    def get_status(self, name: str) -> ModStatus:
        return self._reg.require(name).status(self.prefs.is_enabled(name))

    def get_source(self, name: str, file: str | None = None) -> dict[str, str]:
        """The files of the source that runs (or, when nothing runs, the files on disk)."""
        slot = self._reg.require(name)
        files = (
            dict(slot.bundle.files)
            if slot.bundle
            else (read_files(slot.folder, self.settings) if slot.folder else {})
        )
        if file is None:
            return files
        if file not in files:
            raise ModError(name, f"no file '{file}' (files: {', '.join(files)})")
        return {file: files[file]}

    def load(self, name: str) -> ModStatus:
        slot = self._reg.require(name)
        if not self.prefs.is_enabled(name):
            raise ModError(name, "is disabled; enable it first")
        self.prefs.release(name)
        self._reg.load_from_disk(slot, "load")
        return self.get_status(name)

    def reload(self, name: str) -> ModStatus:
        return self.load(name)

    def unload(self, name: str) -> ModStatus:
        slot = self._reg.require(name)
        self._stop(slot)
        slot.state = ModState.UNLOADED
        return self.get_status(name)

    def enable(self, name: str) -> ModStatus:
        slot = self._reg.require(name)
        self.prefs.set_enabled(name, True)
        if not slot.running:
            self._reg.load_from_disk(slot, "enabled")
        return self.get_status(name)

    def disable(self, name: str) -> ModStatus:
        slot = self._reg.require(name)
        self.prefs.set_enabled(name, False)
        self._stop(slot)
        slot.state = ModState.DISABLED
        return self.get_status(name)

    def versions_of(self, name: str) -> list[VersionInfo]:
        return self.versions.history(name)

    def revert(self, name: str, version: int | None = None, *, restore_files: bool = False) -> ModStatus:
        """Run an older version (default: the last good one that differs from what runs now).

        ``restore_files`` also writes it back into the mod folder (user mods only); otherwise disk stays as
        it is and the next save of a file hot-reloads as usual.
        """
        slot = self._reg.require(name)
        if version is None:
            current = slot.bundle.digest if slot.bundle else None
            good = self.versions.last_good(name, exclude_digest=current)
            if good is None:
                raise ModError(name, "has no earlier good version to revert to")
            version = good.number
        bundle = bundle_from_files(
            self.versions.files(name, version), self.settings, where=name, expected_name=name
        )
        if restore_files:
            if slot.shipped or slot.folder is None:
                raise ModError(
                    name, "is a shipped mod; its files are not rewritten (the version runs anyway)"
                )
            write_folder(slot.folder, bundle.files)
            slot.signature, slot.disk_digest = folder_signature(slot.folder), bundle.digest
        self.prefs.release(name)
        self._sup.activate(slot, bundle, f"revert to v{version}", allow_revert=False)
        self._sup.notice("info", name, f"mod {name} now runs v{version}", "revert")
        return self.get_status(name)

    def export(self, name: str, dest: Path | None = None) -> Path:
        slot = self._reg.require(name)
        bundle = slot.bundle or (read_bundle(slot.folder, self.settings) if slot.folder else None)
        if bundle is None:
            raise ModError(name, "has no source to export")
        target = dest or saves_root() / "mod_exports" / f"{name}-{bundle.manifest.version}.zip"
        return write_zip(bundle, Path(target))

    def import_mod(self, source: Path | Mapping[str, str], *, load: bool = True) -> ModStatus:
        """Install a mod from a .zip, a folder or a {path: text} mapping into the user mods folder."""
        if isinstance(source, Mapping):
            files, where = dict(source), "import"
        else:
            path = Path(source)
            where = path.name
            files = read_files(path, self.settings) if path.is_dir() else read_zip(path, self.settings)
        bundle = bundle_from_files(files, self.settings, where=where)
        slot = self._reg.install(bundle, self.versions)
        self._sup.notice(
            "info", bundle.name, f"mod {bundle.name} {bundle.manifest.version} installed", "info"
        )
        if load and self.prefs.is_enabled(bundle.name):
            self.prefs.release(bundle.name)
            self._reg.load_from_disk(slot, "import")
        return self.get_status(bundle.name)

    def write_source(self, name: str, source: str, *, author: str = "agent") -> ModStatus:
        """Create or update the user mod ``name`` with ``source`` as its entry file, then load it.

        An existing mod keeps its manifest and other files (a shipped one is copied to the user folder,
        so assets/ is never written); a new one gets a generated mod.toml. The previous source stays
        in the version store.
        """
        slot = self._slots.get(name)
        files: dict[str, str] = {}
        if slot is not None and slot.folder is not None and slot.folder.is_dir():
            try:
                files = dict(read_bundle(slot.folder, self.settings).files)
            except CoreAIError:
                files = {}
        if "mod.toml" not in files:
            files = {"mod.toml": new_manifest(name, author)}
        entry = parse_manifest(files["mod.toml"], name).entry
        files[entry] = source
        return self.import_mod(files)

    def logs(self, name: str | None = None, since: int = 0, limit: int | None = 100) -> list[LogEntry]:
        """Log entries of one mod or console (``since`` a seq number), or of all of them (oldest first)."""
        if name is None:
            every = [
                e for s in (*self._slots.values(), *self._console.slots.values()) for e in s.log.entries()
            ]
            every.sort(key=lambda e: e.time)
            return every[-limit:] if limit else every
        slot = self._slots.get(name) or self._console.slots.get(name)
        if slot is None:
            raise ModError(name, "no such mod or console")
        return slot.log.entries(since, limit)

    def diagnostics(self, name: str | None = None) -> dict[str, Any]:
        """Per-mod health (state, faults, memory, timers, call times, hooks) and the Lua time per frame."""
        if name is not None:
            return self._reg.require(name).diagnostics()
        frames = list(self._frame_ms)
        return {
            "mods": [s.diagnostics() for _, s in sorted(self._slots.items())],
            "consoles": sorted(self._console.slots),
            "frame_lua_ms_avg": round(sum(frames) / len(frames), 4) if frames else 0.0,
            "frame_lua_ms_max": round(max(frames), 4) if frames else 0.0,
        }

    def drain_notices(self) -> list[Notice]:
        """HUD lines posted since the last call (reports, reverts, quarantines, load failures)."""
        out = list(self._sup.notices)
        self._sup.notices.clear()
        return out

    # ------------------------------------------------------------------ game loop entry points
    def dispatch(self, hook: str, *args: Any) -> int:
        """Call ``hook(*args)`` in every running mod; returns how many mods were called. Never raises."""
        if hook not in HOOKS:
            log.warning("dispatch of unknown hook {!r} ignored (known: {})", hook, ", ".join(HOOKS))
            return 0
        try:
            plain = tuple(to_plain(a) for a in args)
            if self._busy():  # the host called back from inside mod code: deliver after that entry
                self._pending.append((hook, plain))
                return 0
            called = self._deliver(hook, plain)
            self._drain()
            return called
        except Exception:
            log.exception("dispatch {} failed", hook)
            return 0

    def _deliver(self, hook: str, args: tuple[Any, ...]) -> int:
        self._state.bump()
        called = 0
        for slot in list(self._slots.values()):
            if slot.running:
                called += 1
                self._report_fault(slot, slot.call(hook, args, self.settings.hook_budget), hook)
        return called

    def _busy(self) -> bool:
        slots = (*self._slots.values(), *self._console.slots.values())
        return any(s.sandbox is not None and s.sandbox.busy for s in slots)

    def _drain(self) -> None:
        """Deliver events the host raised from inside mod code (bounded: a spawn loop cannot run away)."""
        for _ in range(256):
            if not self._pending:
                return
            hook, args = self._pending.popleft()
            self._deliver(hook, args)

    def state_changed(self) -> None:
        """The world changed outside a frame or a dispatch (a tick stepped by an agent): the next
        ``game.state()`` reads it afresh."""
        self._state.bump()

    def tick(self, dt: float) -> None:
        """Advance on_tick/timers (at most ``tick_hz`` per mod, ``frame_budget_ms`` per frame), promote
        clean versions, poll one mod folder for changes. Never raises."""
        try:
            if self._busy():  # called back from inside mod code: this frame's Lua already runs
                return
            self._drain()
            self._state.bump()
            step = float(dt)
            self._run_ticks(step if math.isfinite(step) and step > 0 else 0.0)
            now = self._clock()
            self._sup.promote([s for s in self._slots.values() if s.running])
            self._reg.poll(now)  # storage is written by its own thread (coreai.lua.storage.StorageWriter)
        except Exception:
            log.exception("mod tick failed")

    def _run_ticks(self, dt: float) -> None:
        running = [s for s in self._slots.values() if s.running]
        if not running or dt <= 0.0:
            return  # no game time passed (a frame between an agent's ticks): nothing is due, the order stays
        period = 1.0 / self.settings.tick_hz
        budget_s = self.settings.frame_budget_ms / 1000.0
        for slot in running:
            slot.tick_acc += dt
        start = time.perf_counter()
        n = len(running)
        first = self._rr % n
        self._rr = first + 1
        for k in range(n):
            slot = running[(first + k) % n]
            if slot.tick_acc + 1e-9 < period or not slot.running:
                continue
            if self.wall_budget and time.perf_counter() - start > budget_s:
                self._rr = (first + k) % n  # this mod goes first next frame
                break
            acc, slot.tick_acc = slot.tick_acc, 0.0
            self._report_fault(slot, slot.tick(acc, self.settings.tick_budget), "on_tick/timers")
        self._frame_ms.append((time.perf_counter() - start) * 1000.0)

    def _stop(self, slot: ModSlot) -> None:
        """Stop with on_unload; a fault there is only logged (the mod is going away anyway)."""
        fault = slot.stop(self.settings)
        if fault is not None:
            slot.last_error = f"on_unload: {fault.describe()}"
            slot.log.system("fault", slot.last_error, fault.line)

    def _report_fault(self, slot: ModSlot, fault: Any, during: str) -> None:
        if fault is not None:
            self._sup.on_fault(slot, fault, during)

    def execute(self, code: str, mod: str = "console", *, trace_id: str | None = None) -> ExecResult:
        """One-off Lua in the scratch sandbox ``mod`` (or in the running mod of that name); never raises."""
        return self._console.execute(code, mod, self._slots.get(mod), trace_id or uuid.uuid4().hex[:12])

    def save_script_version(self, name: str, code: str, note: str = "") -> int:
        """Keep a script that worked (Programmer, console) in the version store; returns its number."""
        return self.versions.record(name, {"main.lua": code}, note=note, status="good").number

    def close(self) -> None:
        """Unload every mod (on_unload runs) and flush storage; call when the game quits."""
        for slot in list(self._slots.values()):
            try:
                self._stop(slot)
            except Exception:
                log.exception("closing {} failed", slot.name)
        for slot in self._console.slots.values():
            slot.stop(self.settings, call_unload=False)
