"""The mod toolchain: `arena mods new` writes a mod that loads and runs with no fault; mod.toml's
dependencies (version ranges), conflicts, load_order and min_game_version are resolved across all mods at
start, each problem reported on its own mod; unknown keys warn and the mod still loads; `arena mods check`
reports the same without starting the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lua_fakehost import FakeHost

from coreai.lua.manager import ModManager
from coreai.lua.results import ModState
from coreai.lua.scaffold import meta_path
from coreai.paths import REPO_ROOT


def arena(*args: str, saves: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARENA_SAVES_DIR": str(saves)}
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write_mod(root: Path, name: str, extra: str = "", body: str = "") -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "mod.toml").write_text(
        f'name = "{name}"\nversion = "1.0.0"\nauthor = "t"\napi_version = 1\n{extra}', encoding="utf-8"
    )
    (folder / "main.lua").write_text(
        body or f'function on_load() report("{name} up") end\n', encoding="utf-8"
    )


def test_scaffolded_mod_loads_and_runs_without_fault(saves_dir: Path, mods_root: Path) -> None:
    made = arena("mods", "new", "wave_buddy", "--title", "Wave Buddy", saves=saves_dir)
    assert made.returncode == 0, made.stderr
    folder = mods_root / "wave_buddy"
    assert {p.name for p in folder.iterdir()} == {"mod.toml", "main.lua", "README.md", ".luarc.json"}
    luarc = json.loads((folder / ".luarc.json").read_text(encoding="utf-8"))
    assert luarc["workspace.library"] == [str(meta_path())] and meta_path().is_file()
    assert luarc["runtime.version"] == "Lua 5.4"
    again = arena("mods", "new", "wave_buddy", saves=saves_dir)
    assert again.returncode == 1 and "already exists" in again.stderr

    manager = ModManager(FakeHost(), roots=[mods_root])
    try:
        (status,) = manager.load_all()
        assert status.state == ModState.LOADED and status.running and status.faults == 0
        assert status.title == "Wave Buddy" and not status.shipped
        manager.dispatch("on_wave_start", 3)
        manager.tick(0.1)
        texts = [n.text for n in manager.drain_notices()]
        assert "Wave Buddy loaded" in texts and "Wave Buddy: wave 3 begins" in texts
        assert manager.get_status("wave_buddy").faults == 0
    finally:
        manager.close()
    check = arena("mods", "check", saves=saves_dir)
    assert "wave_buddy" in check.stdout and "user" in check.stdout


def test_dependencies_conflicts_and_game_version_are_reported_per_mod(
    mods_root: Path, saves_dir: Path
) -> None:
    write_mod(mods_root, "base")
    write_mod(mods_root, "needs_new", '[dependencies]\nbase = ">=2.0"\n')
    write_mod(mods_root, "needs_ghost", '[dependencies]\nghost = ""\n')
    write_mod(mods_root, "needs_broken", '[dependencies]\nneeds_new = ""\n')
    write_mod(mods_root, "addon", 'load_order = -5\n[dependencies]\nbase = ">=1.0, <2"\n')
    write_mod(mods_root, "early", "load_order = -10\n")
    write_mod(mods_root, "rival", 'conflicts = ["base"]\n')
    write_mod(mods_root, "future", 'min_game_version = "99.0"\n')
    write_mod(mods_root, "newer_format", "shiny_new_key = true\n[sound]\nvolume = 3\n")
    manager = ModManager(FakeHost(), roots=[mods_root])
    try:
        status = {s.name: s for s in manager.load_all()}
        errors = {n: s.last_error for n, s in status.items() if s.state == ModState.INVALID}
        assert errors == {
            "needs_new": "needs mod 'base' >=2.0, but 1.0.0 is installed",
            "needs_ghost": "needs mod 'ghost', which is not installed",
            "needs_broken": "needs mod 'needs_new', which cannot load (needs mod 'base' >=2.0, but 1.0.0 "
            "is installed)",
            "rival": "conflicts with enabled mod 'base'; disable one of them",
            "future": "needs game version 99.0 or newer (this is 0.1.0)",
        }
        loaded = {n for n, s in status.items() if s.state == ModState.LOADED}
        assert loaded == {"base", "addon", "early", "newer_format"}
        notices = manager.drain_notices()
        order = [n.mod for n in notices if n.kind == "report"]
        assert order == ["early", "base", "addon", "newer_format"], "load_order, dependencies first"
        warned = [n.text for n in notices if n.mod == "newer_format" and n.level == "warning"]
        assert warned and "shiny_new_key, sound" in warned[0]
    finally:
        manager.close()
    check = arena("mods", "check", saves=saves_dir)
    assert check.returncode == 1
    line = next(ln for ln in check.stdout.splitlines() if ln.startswith("needs_new "))
    assert "NOT LOADED: needs mod 'base' >=2.0, but 1.0.0 is installed" in line
    assert "warning:" in check.stdout and "shiny_new_key" in check.stdout
