"""Every persisted mod file that fails to parse OR validate is quarantined with a notice, never overwritten
(issue 12 items 2 and 5): mod_settings.json, mod_storage/<mod>.json, the mod_versions index and snapshots;
version numbering never restarts over existing files; prune saves the index before it deletes (item 4)."""

from __future__ import annotations

import json
from pathlib import Path

from lua_fakehost import FakeHost
from lua_testkit import ManualClock, write_mod

from coreai.lua.manager import ModManager
from coreai.lua.storage import ModStorage
from coreai.lua.versions import VersionStore

MOD = 'function on_wave_start(w) report("wave " .. w) end\n'


def _texts(manager: ModManager) -> list[str]:
    return [n.text for n in manager.drain_notices()]


def test_schema_invalid_mod_settings_are_quarantined_and_a_disabled_mod_stays_off(
    host: FakeHost, mods_root: Path, clock: ManualClock, saves_dir: Path
) -> None:
    write_mod(mods_root, "offmod", MOD)
    write_mod(mods_root, "onmod", MOD)
    bad = {"disabled": ["offmod"], "quarantined": {}, "theme": "dark"}  # valid JSON, unknown key
    (saves_dir / "mod_settings.json").write_text(json.dumps(bad))
    manager = ModManager(host, roots=[mods_root], clock=clock)
    manager.load_all()
    try:
        assert not manager.get_status("offmod").running, "the player's choice survives a bad file"
        assert manager.get_status("onmod").running
        moved = list(saves_dir.glob("mod_settings.json.corrupt-*"))
        assert len(moved) == 1 and json.loads(moved[0].read_text()) == bad  # kept byte for byte
        assert any("mod settings were unreadable or invalid" in t for t in _texts(manager))
    finally:
        manager.close()


def test_deep_mod_settings_are_quarantined_not_a_recursion_error(
    host: FakeHost, mods_root: Path, clock: ManualClock, saves_dir: Path
) -> None:
    write_mod(mods_root, "m1", MOD)
    (saves_dir / "mod_settings.json").write_text("[" * 100_000)
    manager = ModManager(host, roots=[mods_root], clock=clock)
    manager.load_all()
    try:
        assert manager.get_status("m1").running
        assert list(saves_dir.glob("mod_settings.json.corrupt-*"))
    finally:
        manager.close()


def test_storage_that_is_not_an_object_is_quarantined_not_read_as_empty(saves_dir: Path) -> None:
    folder = saves_dir / "mod_storage"
    folder.mkdir(parents=True)
    (folder / "m.json").write_text("[1, 2, 3]")
    store = ModStorage("m", 4096)
    assert store.get("k") is None and store.warning and "moved aside" in store.warning
    moved = list(folder.glob("m.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_text() == "[1, 2, 3]"
    store.set("k", 1)
    store.flush()
    assert json.loads((folder / "m.json").read_text()) == {"k": 1}
    (folder / "d.json").write_text('{"a": ' + "[" * 50_000 + "]" * 50_000 + "}")
    deep = ModStorage("d", 4096)
    assert deep.keys() == [] and list(folder.glob("d.json.corrupt-*"))


def test_a_mod_is_told_once_that_its_storage_was_quarantined(
    manager: ModManager, mods_root: Path, saves_dir: Path
) -> None:
    (saves_dir / "mod_storage").mkdir(parents=True)
    (saves_dir / "mod_storage" / "keeper.json").write_text('"just a string"')
    write_mod(mods_root, "keeper", 'function on_load() storage.get("x") end\n')
    manager.load_all()
    texts = _texts(manager)
    assert sum("storage file was unreadable or invalid" in t for t in texts) == 1, texts
    assert any("storage" in e.message and e.level == "warn" for e in manager.logs("keeper"))


def test_a_bad_index_is_quarantined_and_numbering_continues_after_the_files(saves_dir: Path) -> None:
    store = VersionStore()
    for i in range(3):
        store.record("m", {"main.lua": f"-- v{i}"})
    folder = saves_dir / "mod_versions" / "m"
    v1 = (folder / "v0001.json").read_text()
    (folder / "index.json").write_text(json.dumps({"name": "m", "versions": "nope"}))  # parses, invalid
    again = VersionStore()
    assert [v.number for v in again.history("m")] == [1, 2, 3]  # rebuilt from the snapshot files
    assert again.files("m", 2) == {"main.lua": "-- v1"}
    info = again.record("m", {"main.lua": "-- new"})
    assert info.number == 4 and (folder / "v0001.json").read_text() == v1  # nothing written over
    assert list(folder.glob("index.json.corrupt-*"))
    (folder / "index.json").write_text("{broken")
    third = VersionStore()
    assert third.record("m", {"main.lua": "-- newer"}).number == 5


def test_prune_never_leaves_the_index_naming_a_missing_file(saves_dir: Path) -> None:
    store = VersionStore(max_versions=3)
    for i in range(6):
        store.record("p", {"main.lua": f"-- {i}"})
    folder = saves_dir / "mod_versions" / "p"
    listed = [v.number for v in VersionStore(max_versions=3).history("p")]
    assert listed == [4, 5, 6] and all((folder / f"v{n:04d}.json").is_file() for n in listed)
    # a kill after the index was saved but before the pruned file was deleted leaves an orphan: adopted
    (folder / "v0002.json").write_text(json.dumps({"files": {"main.lua": "-- 1"}}))
    # a kill before the index listed a deleted file is impossible now; a missing file is dropped at load
    (folder / "v0005.json").unlink()
    fresh = VersionStore(max_versions=3)
    numbers = [v.number for v in fresh.history("p")]
    assert 5 not in numbers and 2 in numbers
    for v in fresh.history("p"):
        assert fresh.files("p", v.number)  # revert to any listed version works
