"""Hot reload, auto-revert of a fresh version that faults, quarantine, and persisted versions with revert."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from lua_fakehost import FakeHost
from lua_testkit import ManualClock, run_ticks, write_mod

from coreai.lua.manager import ModManager
from coreai.lua.results import ModState
from coreai.lua.settings import LuaSettings

V1 = 'function on_wave_start(w) report("v1 wave " .. w) end'
V2 = 'function on_wave_start(w) report("v2 wave " .. w) end'
V2_BROKEN_TICK = "local n = 0\nfunction on_tick(dt)\n  n = n + 1\n  error('v2 is broken at tick ' .. n)\nend"


def texts(manager: ModManager) -> list[str]:
    return [n.text for n in manager.drain_notices()]


def test_saving_a_file_hot_reloads_the_mod(manager: ModManager, mods_root: Path, clock: ManualClock) -> None:
    write_mod(mods_root, "live", V1)
    manager.load_all()
    manager.dispatch("on_wave_start", 1)
    assert "v1 wave 1" in texts(manager)
    write_mod(mods_root, "live", V2, version="1.1.0")
    run_ticks(manager, clock, 1.0)  # the poll reaches the folder within poll_interval_s
    assert any("reloaded (v2)" in t for t in texts(manager))
    manager.dispatch("on_wave_start", 2)
    assert "v2 wave 2" in texts(manager)
    status = manager.get_status("live")
    assert status.active_version == 2 and status.version == "1.1.0" and status.state == ModState.LOADED


def test_touching_a_file_without_changes_does_not_reload(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    folder = write_mod(mods_root, "steady", "loads = (loads or 0) + 1")
    manager.load_all()
    later = time.time() + 5
    for p in folder.iterdir():
        os.utime(p, (later, later))
    run_ticks(manager, clock, 1.0)
    assert manager.get_status("steady").active_version == 1
    assert not any("reloaded" in t for t in texts(manager))


def test_new_version_faulting_early_is_reverted_to_last_good(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    write_mod(mods_root, "flaky", V1)
    manager.load_all()
    run_ticks(manager, clock, 6.0)  # runs cleanly past revert_window_s: v1 becomes good
    assert [v.status for v in manager.versions_of("flaky")] == ["good"]
    write_mod(mods_root, "flaky", V2_BROKEN_TICK, version="2.0.0")
    run_ticks(manager, clock, 1.0)
    notes = texts(manager)
    assert any("reloaded (v2)" in t for t in notes)
    assert any("mod flaky v2 faulted" in t and "reverted to v1" in t for t in notes), notes
    status = manager.get_status("flaky")
    assert status.active_version == 1 and status.running and status.state == ModState.LOADED
    assert "v2 is broken at tick 1" in (status.last_error or "")
    assert [v.status for v in manager.versions_of("flaky")] == ["good", "faulted"]
    manager.dispatch("on_wave_start", 3)
    assert "v1 wave 3" in texts(manager)
    # nothing the modder typed is lost: the broken file is still on disk
    assert "v2 is broken" in (mods_root / "flaky" / "main.lua").read_text()
    fault_log = [e for e in manager.logs("flaky") if e.level == "fault"]
    assert fault_log and fault_log[0].line == 4 and "flaky/main.lua:4" in fault_log[0].message


def test_syntax_error_on_reload_keeps_the_good_version(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    write_mod(mods_root, "typo", V1)
    manager.load_all()
    run_ticks(manager, clock, 6.0)
    write_mod(mods_root, "typo", "function on_wave_start(w)\n  report('x' ..)\nend")
    run_ticks(manager, clock, 1.0)
    assert any("v2 failed to load" in t and "reverted to v1" in t for t in texts(manager))
    manager.dispatch("on_wave_start", 4)
    assert "v1 wave 4" in texts(manager)
    assert "typo/main.lua:2" in (manager.get_status("typo").last_error or "")


def test_invalid_manifest_on_reload_keeps_running(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    folder = write_mod(mods_root, "keeper", V1)
    manager.load_all()
    (folder / "mod.toml").write_text('name = "keeper"\nversion = "oops"\n')
    run_ticks(manager, clock, 1.0)
    notes = texts(manager)
    assert any("mod.toml is invalid" in t and "still running v1" in t for t in notes), notes
    manager.dispatch("on_wave_start", 5)
    assert "v1 wave 5" in texts(manager)


def test_repeated_faults_quarantine_and_frame_keeps_running(
    host: FakeHost, mods_root: Path, clock: ManualClock
) -> None:
    write_mod(mods_root, "hog", "function on_tick(dt) while true do end end")
    write_mod(mods_root, "good", "total = 0 function on_tick(dt) total = total + dt end")
    manager = ModManager(host, roots=[mods_root], clock=clock)
    manager.load_all()
    run_ticks(manager, clock, 0.5)
    status = manager.get_status("hog")
    assert status.state == ModState.QUARANTINED and not status.running
    assert status.faults == 3 and "instruction budget" in (status.last_error or "")
    assert any("mod hog quarantined" in t for t in texts(manager))
    assert any(e.level == "error" and "quarantined" in e.message for e in manager.logs("hog"))
    total = manager.execute("return total", mod="good").values[0]
    assert total == pytest.approx(0.5, abs=1 / 60 + 1e-9)  # the other mod got all of its time
    assert manager.execute("return 1", mod="hog").error_kind == "quarantined"
    # the Lua time per frame stays bounded by the tick budget even while the hog was running
    assert manager.diagnostics()["frame_lua_ms_max"] < 1000
    manager.close()
    # persisted: a new session keeps it off until the player enables it
    again = ModManager(host, roots=[mods_root], clock=clock)
    again.load_all()
    assert again.get_status("hog").state == ModState.QUARANTINED
    assert again.enable("hog").running
    again.close()


def test_memory_faults_count_toward_quarantine(host: FakeHost, mods_root: Path, clock: ManualClock) -> None:
    write_mod(mods_root, "leaky", "function on_wave_start(w) local s = 'x' while true do s = s .. s end end")
    manager = ModManager(host, roots=[mods_root], clock=clock, settings=LuaSettings(max_memory_mb=8))
    manager.load_all()
    for wave in range(3):
        manager.dispatch("on_wave_start", wave)
    status = manager.get_status("leaky")
    assert status.state == ModState.QUARANTINED and "memory cap of 8 MiB" in (status.last_error or "")
    manager.close()


def test_fixing_a_quarantined_mod_on_disk_brings_it_back(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    write_mod(mods_root, "fixme", "function on_tick(dt) error('nope') end")
    manager.load_all()
    run_ticks(manager, clock, 0.2)
    assert manager.get_status("fixme").state == ModState.QUARANTINED
    write_mod(mods_root, "fixme", "function on_tick(dt) end")
    run_ticks(manager, clock, 1.0)
    assert manager.get_status("fixme").state == ModState.LOADED
    assert any("leaving quarantine" in t for t in texts(manager))


def test_versions_persist_and_manual_revert(
    host: FakeHost, mods_root: Path, clock: ManualClock, saves_dir: Path
) -> None:
    write_mod(mods_root, "hist", V1)
    manager = ModManager(host, roots=[mods_root], clock=clock)
    manager.load_all()
    run_ticks(manager, clock, 6.0)
    write_mod(mods_root, "hist", V2, version="2.0.0")
    run_ticks(manager, clock, 7.0)
    assert [(v.number, v.status, v.mod_version) for v in manager.versions_of("hist")] == [
        (1, "good", "1.0.0"),
        (2, "good", "2.0.0"),
    ]
    manager.close()
    assert (saves_dir / "mod_versions" / "hist" / "v0001.json").is_file()

    again = ModManager(host, roots=[mods_root], clock=clock)  # a new session reads the history back
    again.load_all()
    assert [v.number for v in again.versions_of("hist")] == [1, 2]
    assert again.get_status("hist").active_version == 2
    status = again.revert("hist")  # default: the last good version that differs from what runs
    assert status.active_version == 1
    again.dispatch("on_wave_start", 7)
    assert "v1 wave 7" in texts(again)
    assert "v2 wave" in (mods_root / "hist" / "main.lua").read_text()  # disk untouched
    again.revert("hist", 2)
    again.revert("hist", 1, restore_files=True)
    assert "v1 wave" in (mods_root / "hist" / "main.lua").read_text()
    run_ticks(again, clock, 1.0)  # restored files are not treated as a new edit
    assert again.get_status("hist").active_version == 1
    again.close()


def test_corrupt_version_index_starts_fresh(manager: ModManager, mods_root: Path, saves_dir: Path) -> None:
    write_mod(mods_root, "cv", V1)
    index = saves_dir / "mod_versions" / "cv" / "index.json"
    index.parent.mkdir(parents=True)
    index.write_text("{broken")
    manager.load_all()
    assert manager.get_status("cv").running
    assert [v.number for v in manager.versions_of("cv")] == [1]
    assert list(index.parent.glob("index.json.corrupt-*"))


@pytest.mark.parametrize("seconds", [0.2, 4.0])
def test_fault_inside_revert_window_without_good_version_is_counted(
    manager: ModManager, mods_root: Path, clock: ManualClock, seconds: float
) -> None:
    write_mod(mods_root, "fresh", "function on_wave_start(w) error('boom') end")
    manager.load_all()
    run_ticks(manager, clock, seconds)
    manager.dispatch("on_wave_start", 1)
    status = manager.get_status("fresh")
    assert status.state == ModState.FAULTED and status.running and status.faults == 1
    assert "fresh/main.lua:1: boom" in (status.last_error or "")
