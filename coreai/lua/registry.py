"""Where mods live and what changed: discovery over the mod roots, reading a mod from disk, and the
cheap hot-reload poll (one folder's mtimes per call, each folder every ``poll_interval_s``).

Later roots win: a user mod in saves/mods/ with the name of a shipped mod replaces it.
"""

from __future__ import annotations

from pathlib import Path

from loguru import logger

from coreai.errors import CoreAIError, ModError
from coreai.lua.manifest import ModBundle, folder_signature, read_bundle, read_files, read_manifest
from coreai.lua.packaging import inside, write_folder
from coreai.lua.prefs import PrefsFile
from coreai.lua.resolve import resolve
from coreai.lua.results import ModState
from coreai.lua.settings import LuaSettings
from coreai.lua.slot import ModSlot
from coreai.lua.supervisor import Supervisor
from coreai.lua.versions import VersionStore

log = logger.bind(feature="lua", trace_id=None)


class ModRegistry:
    def __init__(
        self,
        roots: list[Path],
        user_root: Path,
        settings: LuaSettings,
        supervisor: Supervisor,
        prefs: PrefsFile,
    ) -> None:
        self.roots = roots
        self.user_root = user_root
        self.settings = settings
        self._sup = supervisor
        self.prefs = prefs
        self.slots: dict[str, ModSlot] = {}
        self._poll_i = 0
        self._next_poll = 0.0

    def discover(self) -> dict[str, tuple[Path, bool]]:
        found: dict[str, tuple[Path, bool]] = {}
        for root in self.roots:
            if not root.is_dir():
                continue
            shipped = root.resolve() != self.user_root.resolve()
            for folder in sorted(root.iterdir()):
                if folder.is_dir() and not folder.name.startswith((".", "_")):
                    if folder.is_symlink() or not inside(root, folder):
                        log.warning("skipping mod folder {}: it is a link out of {}", folder, root)
                        continue
                    found[folder.name] = (folder, shipped)
        return found

    def start_all(self, game_version: str) -> None:
        """Resolve dependencies, conflicts and load order over every discovered mod (``resolve``), then
        start the enabled, non-quarantined ones in that order; a mod that cannot load gets the reason as its
        error and a notice."""
        found = self.discover()
        manifests = {n: m for n, (folder, _) in found.items() if (m := read_manifest(folder)) is not None}
        for name in found:
            self.prefs.defaults[name] = manifests[name].enabled_by_default if name in manifests else True
        plan = resolve(manifests, {n for n in found if self.prefs.is_enabled(n)}, game_version)
        for name in plan.order + sorted(n for n in found if n not in plan.order):
            folder, shipped = found[name]
            slot = self.slot(name, folder, shipped)
            if slot.running:
                continue
            manifest = manifests.get(name)
            if manifest is not None:
                slot.manifest = slot.manifest or manifest
                if manifest.unknown_keys:
                    self._sup.notice("warning", name, manifest.unknown_keys_warning(), "manifest")
            if not self.prefs.is_enabled(name):
                slot.state = ModState.DISABLED
            elif (reason := self.prefs.quarantined(name)) is not None:
                slot.state, slot.last_error = ModState.QUARANTINED, reason
            elif (problem := plan.problems.get(name)) is not None:
                slot.state, slot.invalid_reason, slot.last_error = ModState.INVALID, problem, problem
                slot.log.system("error", problem)
                self._sup.notice("error", name, f"mod {name} not loaded: {problem}", "load_failed")
            else:
                self.load_from_disk(slot, "startup")

    def slot(self, name: str, folder: Path | None, shipped: bool) -> ModSlot:
        slot = self.slots.get(name)
        if slot is None:
            slot = ModSlot.new(name, folder, shipped, self.settings)
            self.slots[name] = slot
        slot.folder, slot.shipped = folder, shipped
        return slot

    def read_disk(self, slot: ModSlot) -> ModBundle | None:
        assert slot.folder is not None
        slot.signature = folder_signature(slot.folder)
        try:
            bundle = read_bundle(slot.folder, self.settings)
        except CoreAIError as exc:
            slot.invalid_reason = slot.last_error = str(exc)
            slot.log.system("error", str(exc))
            return None
        slot.invalid_reason = None
        slot.disk_digest = bundle.digest
        slot.manifest = slot.manifest or bundle.manifest
        return bundle

    def load_from_disk(self, slot: ModSlot, reason: str) -> bool:
        bundle = self.read_disk(slot)
        if bundle is None:
            if slot.running:
                slot.stop(self.settings)
            slot.state = ModState.INVALID
            self._sup.notice(
                "error", slot.name, f"mod {slot.name} not loaded: {slot.invalid_reason}", "load_failed"
            )
            return False
        return self._sup.activate(slot, bundle, reason)

    def install(self, bundle: ModBundle, versions: VersionStore) -> ModSlot:
        """Write ``bundle`` into the user mods folder (what was there is kept as a version first)."""
        folder = self.user_root / bundle.name
        if folder.is_symlink() or (folder.exists() and not inside(self.user_root, folder)):
            raise ModError(bundle.name, f"refusing to install into {folder}: a link out of the mods folder")
        if folder.is_dir():
            try:
                versions.record(bundle.name, read_files(folder, self.settings), note="before install")
            except CoreAIError as exc:
                log.warning("could not keep {} before install: {}", bundle.name, exc)
        write_folder(folder, bundle.files, root=self.user_root)
        slot = self.slot(bundle.name, folder, False)
        slot.signature = folder_signature(folder)
        return slot

    def require(self, name: str) -> ModSlot:
        slot = self.slots.get(name)
        if slot is None:
            found = self.discover().get(name)
            if found is None:
                raise ModError(name, f"no such mod (known: {', '.join(sorted(self.slots)) or 'none'})")
            slot = self.slot(name, *found)
        return slot

    def poll(self, now: float) -> None:
        if now < self._next_poll:
            return
        watched = [s for s in self.slots.values() if s.folder is not None]
        items: list[ModSlot | None] = [*watched, None]  # None: look for new mod folders
        self._next_poll = now + self.settings.poll_interval_s / len(items)
        item = items[self._poll_i % len(items)]
        self._poll_i += 1
        if item is None:
            for name, (folder, shipped) in self.discover().items():
                if name not in self.slots:
                    slot = self.slot(name, folder, shipped)
                    self._sup.notice("info", name, f"new mod {name} found", "reload")
                    if self.prefs.is_enabled(name) and self.prefs.quarantined(name) is None:
                        self.load_from_disk(slot, "new folder")
            return
        assert item.folder is not None
        signature = folder_signature(item.folder)
        if signature != item.signature:
            self._hot_reload(item, signature)

    def _hot_reload(self, slot: ModSlot, signature: tuple[tuple[str, int, int], ...]) -> None:
        if not signature:
            slot.signature = ()
            if slot.running:
                slot.stop(self.settings)
            slot.state = ModState.UNLOADED
            self._sup.notice("warning", slot.name, f"mod {slot.name} folder is gone; unloaded", "reload")
            return
        previous_digest = slot.disk_digest
        bundle = self.read_disk(slot)
        if bundle is None:
            keep = f"; still running v{slot.version}" if slot.running else ""
            self._sup.notice(
                "warning", slot.name, f"mod {slot.name}: {slot.invalid_reason}{keep}", "load_failed"
            )
            return
        if bundle.digest == previous_digest or not self.prefs.is_enabled(slot.name):
            return
        if self.prefs.quarantined(slot.name) is not None:
            self.prefs.release(slot.name)
            self._sup.notice(
                "info", slot.name, f"mod {slot.name} changed on disk: leaving quarantine", "reload"
            )
        if self._sup.activate(slot, bundle, "hot reload"):
            self._sup.notice("info", slot.name, f"mod {slot.name} reloaded (v{slot.version})", "reload")
