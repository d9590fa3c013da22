"""Mod manager operations: manifests, list/status/source, load/unload/enable/disable (persisted), export and
import, logs with mod name and line, diagnostics, and the never-raise contract of the game-loop calls."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lua_fakehost import FakeHost
from lua_testkit import ManualClock, write_mod

from coreai.errors import ModError, ModManifestError, ModQuarantined
from coreai.lua.manager import ModManager
from coreai.lua.manifest import parse_manifest
from coreai.lua.results import ModState
from coreai.lua.settings import LuaSettings

GOOD = """name = "ok_mod"
version = "1.2.3"
author = "a"
description = "d"
api_version = 1
entry = "main.lua"
"""


def test_unknown_manifest_keys_are_kept_aside_not_refused() -> None:
    manifest = parse_manifest(GOOD + 'extra = "x"\n[newer_feature]\nlevel = 3\n', "folder_x")
    assert manifest.unknown_keys == ["extra", "newer_feature"]
    assert "extra, newer_feature" in manifest.unknown_keys_warning()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("name = ", "not valid TOML"),
        (GOOD.replace("api_version = 1", "api_version = 2"), "api_version"),
        (GOOD.replace('name = "ok_mod"', 'name = "Bad Name"'), "name"),
        (GOOD.replace('version = "1.2.3"', 'version = "latest"'), "version"),
        (GOOD.replace('entry = "main.lua"', 'entry = "../../etc/passwd.lua"'), "entry"),
        (GOOD.replace('author = "a"\n', ""), "author is missing"),
        (GOOD + 'dependencies = { other = "not a range" }\n', "dependencies"),
    ],
)
def test_invalid_manifest_is_a_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(ModManifestError) as info:
        parse_manifest(text, "folder_x")
    assert info.value.mod == "folder_x"
    assert fragment in str(info.value)


def test_valid_manifest() -> None:
    m = parse_manifest(GOOD, "ok_mod")
    assert (m.name, m.version, m.api_version, m.entry) == ("ok_mod", "1.2.3", 1, "main.lua")


def test_invalid_mod_folder_shows_in_status(manager: ModManager, mods_root: Path) -> None:
    write_mod(mods_root, "fine", "x = 1")
    broken = mods_root / "broken"
    broken.mkdir()
    (broken / "mod.toml").write_text('name = "broken"\nversion = "1.0.0"\n')
    (mods_root / "no_manifest").mkdir()
    rows = {s.name: s for s in manager.load_all()}
    assert rows["fine"].state == ModState.LOADED
    assert rows["broken"].state == ModState.INVALID and "author is missing" in (
        rows["broken"].last_error or ""
    )
    assert rows["no_manifest"].state == ModState.INVALID and "no mod.toml" in (
        rows["no_manifest"].last_error or ""
    )
    other = write_mod(mods_root, "named_wrong", "x = 1")
    (other / "mod.toml").write_text(GOOD)
    manager.load_all()
    assert "folder is 'named_wrong'" in (manager.get_status("named_wrong").last_error or "")


def test_list_source_unload_load(manager: ModManager, mods_root: Path, host: FakeHost) -> None:
    write_mod(
        mods_root,
        "alpha",
        "function on_unload() coreai_world_spawn('boss', 0, 0) end",
        files={"lib.lua": "return 1", "notes.md": "# hi"},
    )
    manager.load_all()
    assert manager.list_mods() == ["alpha"]
    assert set(manager.get_source("alpha")) == {"mod.toml", "main.lua", "lib.lua", "notes.md"}
    assert manager.get_source("alpha", "lib.lua") == {"lib.lua": "return 1"}
    with pytest.raises(ModError, match=r"no file 'nope\.lua'"):
        manager.get_source("alpha", "nope.lua")
    st = manager.unload("alpha")
    assert st.state == ModState.UNLOADED and not st.running and host.count("boss") == 1  # on_unload ran
    assert manager.load("alpha").running
    with pytest.raises(ModError, match="no such mod"):
        manager.load("ghost")


def test_enable_disable_is_persisted(host: FakeHost, mods_root: Path, clock: ManualClock) -> None:
    write_mod(mods_root, "toggle", "x = 1")
    m1 = ModManager(host, roots=[mods_root], clock=clock)
    m1.load_all()
    st = m1.disable("toggle")
    assert st.state == ModState.DISABLED and not st.enabled and not st.running
    with pytest.raises(ModError, match="disabled"):
        m1.load("toggle")
    m1.close()
    m2 = ModManager(host, roots=[mods_root], clock=clock)
    assert m2.load_all()[0].state == ModState.DISABLED
    assert m2.enable("toggle").running
    m2.close()
    m3 = ModManager(host, roots=[mods_root], clock=clock)
    assert m3.load_all()[0].running
    m3.close()


def test_user_mod_overrides_shipped_mod(
    host: FakeHost, saves_dir: Path, tmp_path: Path, clock: ManualClock
) -> None:
    shipped_root, user_root = tmp_path / "shipped", saves_dir / "mods"
    write_mod(shipped_root, "same", "who = 'shipped'")
    write_mod(user_root, "same", "who = 'user'")
    write_mod(shipped_root, "only_shipped", "who = 'shipped'")
    m = ModManager(host, roots=[shipped_root, user_root], clock=clock)
    rows = {s.name: s for s in m.load_all()}
    assert m.execute("return who", mod="same").values == ["user"]
    assert not rows["same"].shipped and rows["only_shipped"].shipped
    with pytest.raises(ModError, match="shipped mod"):
        m.revert("only_shipped", 1, restore_files=True)
    m.close()


def test_export_import_roundtrip(
    manager: ModManager, mods_root: Path, saves_dir: Path, tmp_path: Path
) -> None:
    write_mod(
        mods_root,
        "travel",
        "function on_wave_start(w) report('travel ' .. w) end",
        files={"x.lua": "return 2"},
    )
    manager.load_all()
    archive = manager.export("travel")
    assert archive == saves_dir / "mod_exports" / "travel-1.0.0.zip"
    with zipfile.ZipFile(archive) as zf:
        assert sorted(zf.namelist()) == ["travel/main.lua", "travel/mod.toml", "travel/x.lua"]
    # import under a new name from an edited copy of the archive
    edited = tmp_path / "copy.zip"
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(edited, "w") as dst:
        for name in src.namelist():
            text = src.read(name).decode().replace('name = "travel"', 'name = "traveller"')
            dst.writestr(name.replace("travel/", "traveller/"), text)
    st = manager.import_mod(edited)
    assert st.name == "traveller" and st.running and (mods_root / "traveller" / "x.lua").is_file()
    manager.dispatch("on_wave_start", 3)
    assert [n.text for n in manager.drain_notices()].count("travel 3") == 2
    from_mapping = manager.import_mod({"mod.toml": GOOD, "main.lua": "y = 2"})
    assert from_mapping.name == "ok_mod" and from_mapping.running


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ({"m/mod.toml": GOOD, "m/main.lua": "x=1", "m/../../evil.lua": "x"}, "not allowed"),
        ({"mod.toml": GOOD, "main.lua": "x=1", "/abs.lua": "x"}, "not allowed"),
        ({"mod.toml": GOOD, "main.lua": "x=1", "run.sh": "rm -rf /"}, "not allowed"),
        ({"mod.toml": GOOD, "main.lua": "x" * 300_000}, "over"),
        ({"main.lua": "x=1"}, "mod.toml is missing"),
    ],
)
def test_import_rejects_unsafe_archives(
    manager: ModManager, tmp_path: Path, entries: dict[str, str], fragment: str
) -> None:
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name, text in entries.items():
            zf.writestr(name, text)
    with pytest.raises(ModError, match=fragment):
        manager.import_mod(archive)
    assert not any(p.name == "evil.lua" for p in tmp_path.parent.rglob("evil.lua"))


def test_import_over_existing_mod_keeps_old_source_as_version(manager: ModManager, mods_root: Path) -> None:
    manager.import_mod({"mod.toml": GOOD, "main.lua": "v = 1"})
    manager.import_mod({"mod.toml": GOOD.replace("1.2.3", "1.3.0"), "main.lua": "v = 2"})
    assert manager.execute("return v", mod="ok_mod").values == [2]
    versions = manager.versions_of("ok_mod")
    old = [v for v in versions if v.mod_version == "1.2.3"]
    assert old and "v = 1" in manager.versions.files("ok_mod", old[0].number)["main.lua"]


def test_runtime_errors_are_logged_with_mod_name_and_line(manager: ModManager, mods_root: Path) -> None:
    write_mod(
        mods_root, "oops", "function on_wave_end(w)\n  local t = nil\n  print('wave', w)\n  return t.x\nend"
    )
    manager.load_all()
    manager.dispatch("on_wave_end", 2)
    entries = manager.logs("oops")
    assert any(e.level == "print" and e.message == "wave\t2" for e in entries)
    fault = next(e for e in entries if e.level == "fault")
    assert fault.mod == "oops" and fault.line == 4
    assert (
        "on_wave_end: runtime error: oops/main.lua:4: attempt to index a nil value (local 't')"
        in fault.message
    )
    assert str(fault).startswith("[oops] fault:")
    later = manager.logs("oops", since=fault.seq)
    assert all(e.seq > fault.seq for e in later)


def test_diagnostics(manager: ModManager, mods_root: Path, clock: ManualClock) -> None:
    write_mod(
        mods_root, "diag", "every(1, function() end) function on_tick(dt) end function on_wave_start(w) end"
    )
    manager.load_all()
    for _ in range(10):
        clock.advance(1 / 60)
        manager.tick(1 / 60)
    d = manager.diagnostics("diag")
    assert d["state"] == "loaded" and d["running"] and d["timers"] == 1 and d["calls"] >= 10
    assert set(d["hooks"]) == {"on_tick", "on_wave_start"} and 0 < d["memory_kib"] < 1024
    overall = manager.diagnostics()
    assert [m["name"] for m in overall["mods"]] == ["diag"] and overall["frame_lua_ms_avg"] > 0


def test_game_loop_calls_never_raise(manager: ModManager, mods_root: Path) -> None:
    write_mod(mods_root, "calm", "function on_enemy_spawned(e) seen = e.prefab end")
    manager.load_all()
    assert (
        manager.dispatch("on_enemy_spawned", {"id": 1, "prefab": "grunt", "pos": (1, 2), "obj": object()})
        == 1
    )
    assert manager.execute("return seen", mod="calm").values == ["grunt"]
    assert manager.dispatch("on_not_a_hook", 1) == 0
    write_mod(mods_root, "clocked", "t = 0 every(0.1, function() t = t + 1 end)")
    manager.load_all()
    for bad_dt in (float("nan"), float("inf"), -1.0):
        manager.tick(bad_dt)
    for _ in range(15):  # 0.25 s of good frames
        manager.tick(1 / 60)
    assert manager.execute("return t", mod="clocked").values == [2]  # timers survived the bad frames
    bad_name = manager.execute("return 1", mod="Not Valid!")
    assert not bad_name.ok and bad_name.error_kind == "invalid"
    too_big = manager.execute("x = 1 " * 100_000)
    assert not too_big.ok and "bytes" in (too_big.error or "")


def test_exec_result_raise_for_error_maps_to_error_tree(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    from coreai.errors import LuaBudgetExceeded, LuaRuntimeError, LuaSyntaxError

    with pytest.raises(LuaSyntaxError):
        manager.execute("local = 1").raise_for_error()
    with pytest.raises(LuaRuntimeError) as info:
        manager.execute("\nerror('x')").raise_for_error()
    assert info.value.line == 2 and info.value.trace_id
    with pytest.raises(LuaBudgetExceeded):
        manager.execute("while true do end").raise_for_error()
    write_mod(mods_root, "qq", "function on_wave_start() error('q') end")
    manager.load_all()
    for _ in range(3):
        manager.dispatch("on_wave_start", 1)
    with pytest.raises(ModQuarantined):
        manager.execute("return 1", mod="qq").raise_for_error()
    manager.execute("return 1").raise_for_error()


def test_execute_runs_inside_a_running_mod(manager: ModManager, mods_root: Path) -> None:
    write_mod(mods_root, "inner", "secret = 41")
    manager.load_all()
    r = manager.execute("secret = secret + 1 return secret", mod="inner")
    assert r.ok and r.values == [42]
    assert r.text() == "=> 42"


def test_budget_settings_apply(host: FakeHost, mods_root: Path, clock: ManualClock) -> None:
    from coreai.lua.settings import CallBudget

    m = ModManager(
        host,
        roots=[mods_root],
        clock=clock,
        settings=LuaSettings(exec_budget=CallBudget(instructions=10_000, deadline_ms=100)),
    )
    r = m.execute("local n = 0 for i = 1, 20000 do n = n + i end return n")
    assert not r.ok and r.error_kind == "budget" and "10000" in (r.error or "")
    m.close()


def test_write_source_creates_and_updates_user_mods(
    manager: ModManager, mods_root: Path, host: FakeHost
) -> None:
    st = manager.write_source("wave_caller", "function on_wave_start(w) report('wave ' .. w) end")
    assert st.running and st.version == "0.1.0" and st.author == "agent" and not st.shipped
    assert (mods_root / "wave_caller" / "mod.toml").is_file()
    manager.dispatch("on_wave_start", 2)
    assert [n.text for n in manager.drain_notices() if n.kind == "report"] == ["wave 2"]
    st = manager.write_source("wave_caller", "function on_wave_start(w) report('WAVE ' .. w) end")
    assert st.active_version == 2
    manager.dispatch("on_wave_start", 3)
    assert [n.text for n in manager.drain_notices() if n.kind == "report"] == ["WAVE 3"]
    broken = manager.write_source("wave_caller", "function on_wave_start(w) report('x' ..) end")
    assert broken.state == ModState.FAULTED and "syntax" in (broken.last_error or "")
    assert [v.number for v in manager.versions_of("wave_caller")] == [1, 2, 3]


def test_write_source_over_a_shipped_mod_never_touches_assets(
    host: FakeHost, saves_dir: Path, tmp_path: Path, clock: ManualClock
) -> None:
    shipped = write_mod(tmp_path / "assets_mods", "stock", "who = 'shipped'", files={"lib.lua": "return 1"})
    m = ModManager(host, roots=[tmp_path / "assets_mods", saves_dir / "mods"], clock=clock)
    m.load_all()
    st = m.write_source("stock", "who = 'edited'")
    assert not st.shipped and m.execute("return who", mod="stock").values == ["edited"]
    assert (shipped / "main.lua").read_text() == "who = 'shipped'"
    assert (saves_dir / "mods" / "stock" / "lib.lua").read_text() == "return 1"
    m.close()


def test_logs_of_all_mods_and_consoles(manager: ModManager, mods_root: Path) -> None:
    write_mod(mods_root, "talker", "print('from mod')")
    manager.load_all()
    manager.execute("print('from console')")
    messages = [(e.mod, e.message) for e in manager.logs()]
    assert ("talker", "from mod") in messages and ("console", "from console") in messages
    with pytest.raises(ModError, match="no such mod"):
        manager.logs("nobody")


def test_corrupt_saves_never_stop_the_mods(
    host: FakeHost, mods_root: Path, saves_dir: Path, clock: ManualClock, tmp_path: Path
) -> None:
    write_mod(mods_root, "sturdy", "x = 1")
    (saves_dir / "mod_settings.json").write_text("{not json")
    m = ModManager(host, roots=[mods_root], clock=clock)
    assert m.load_all()[0].running
    assert list(saves_dir.glob("mod_settings.json.corrupt-*"))
    m.disable("sturdy")  # a fresh, valid settings file is written
    assert "sturdy" in (saves_dir / "mod_settings.json").read_text()
    (saves_dir / "mod_versions" / "sturdy" / "v0001.json").unlink()
    with pytest.raises(ModError, match="version 1 cannot be read"):
        m.revert("sturdy", 1)
    with pytest.raises(ModError, match="no version 7"):
        m.revert("sturdy", 7)
    not_zip = tmp_path / "junk.zip"
    not_zip.write_bytes(b"PK\x03\x04 garbage")
    with pytest.raises(ModError, match="not a readable zip"):
        m.import_mod(not_zip)
    m.close()


class EchoHost(FakeHost):
    """A host that reports every spawn back to the mods synchronously, from inside the mod's call."""

    manager: ModManager | None = None

    def spawn(self, prefab: str, x: float, y: float, count: int, *, source: str) -> list[int]:
        ids = super().spawn(prefab, x, y, count, source=source)
        assert self.manager is not None
        for i in ids:
            self.manager.dispatch("on_enemy_spawned", {"id": i, "prefab": prefab, "x": x, "y": y})
            self.manager.tick(1 / 60)
        return ids


@pytest.mark.timeout(5)
def test_host_callbacks_from_inside_mod_code_are_deferred(mods_root: Path, clock: ManualClock) -> None:
    host = EchoHost()
    manager = ModManager(host, roots=[mods_root], clock=clock)
    host.manager = manager
    write_mod(
        mods_root,
        "echo",
        """
        seen = {}
        function on_enemy_spawned(e)
          seen[#seen + 1] = e.prefab
          if e.prefab == "grunt" then coreai_world_spawn("runner", 0, 0) end
        end
        function on_wave_start(w)
          seen = {}
          coreai_world_spawn("grunt", 0, 0, 2)
          assert(#seen == 0, "delivered while on_wave_start was still running")
          if w == 2 then while true do end end   -- the budget must still hold after the callbacks
        end
    """,
    )
    manager.load_all()
    manager.dispatch("on_wave_start", 1)
    seen = manager.execute("return table.concat(seen, ',')", mod="echo").values[0]
    assert seen == "grunt,grunt,runner,runner"  # each event after the call that caused it
    assert manager.get_status("echo").faults == 0
    manager.dispatch("on_wave_start", 2)
    status = manager.get_status("echo")
    assert status.faults == 1 and "instruction budget" in (status.last_error or "")
    manager.close()
