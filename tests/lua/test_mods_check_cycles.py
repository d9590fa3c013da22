"""``arena mods check`` and the loader run the same validation (issue 26 item 4), and a dependency-cycle error
names only the mods in that cycle (item 7): a mod that depends on a cycle says so, unrelated cycles apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from lua_fakehost import FakeHost
from test_mod_toolchain import write_mod

from coreai.lua.manager import ModManager
from coreai.lua.manifest import ModManifest
from coreai.lua.resolve import resolve
from coreai.lua.results import ModState
from coreai.lua.scaffold import check_mods
from game.cli.mods import main as mods_main


def test_mods_check_refuses_the_mod_the_loader_refuses(
    mods_root: Path, saves_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_mod(mods_root, "huge", body="-- " + "x" * 300_000 + "\n")  # over max_file_bytes (256 KiB)
    manager = ModManager(FakeHost(), roots=[mods_root])
    try:
        status = {s.name: s for s in manager.load_all()}
    finally:
        manager.close()
    assert status["huge"].state == ModState.INVALID
    loader_says = status["huge"].last_error or ""
    assert "over 262144 bytes" in loader_says
    (checked,) = [m for m in check_mods() if m.name == "huge"]
    assert checked.problem == loader_says, "one validation: the same words as the loader"
    assert mods_main(["check"]) == 1
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("huge "))
    assert "NOT LOADED" in line and "over 262144 bytes" in line


def _manifest(name: str, *deps: str) -> ModManifest:
    return ModManifest(
        name=name, version="1.0.0", author="t", api_version=1, dependencies=dict.fromkeys(deps, "")
    )


def test_a_cycle_error_names_only_the_mods_in_that_cycle() -> None:
    mods = [
        _manifest("cyc_a", "cyc_b"),
        _manifest("cyc_b", "cyc_a"),
        _manifest("cyc_self", "cyc_self"),
        _manifest("cyc_x", "cyc_a"),  # only depends on a cycle
        _manifest("cyc_y", "cyc_x"),  # depends on a mod that depends on a cycle
        _manifest("loop_p", "loop_q"),
        _manifest("loop_q", "loop_p"),
        _manifest("fine"),
    ]
    manifests = {m.name: m for m in mods}
    plan = resolve(manifests, set(manifests), "0.1.0")
    assert plan.order == ["fine"]
    p = plan.problems
    assert p["cyc_a"] == "is part of a dependency cycle: cyc_a -> cyc_b -> cyc_a"
    assert p["cyc_b"] == "is part of a dependency cycle: cyc_b -> cyc_a -> cyc_b"
    assert p["cyc_self"] == "is part of a dependency cycle: cyc_self -> cyc_self"
    assert p["loop_p"] == "is part of a dependency cycle: loop_p -> loop_q -> loop_p"
    assert p["cyc_x"] == "depends on 'cyc_a', which is in a dependency cycle: cyc_a -> cyc_b -> cyc_a"
    assert p["cyc_y"].startswith("needs mod 'cyc_x', which cannot load (depends on 'cyc_a'")
    for name in ("cyc_a", "cyc_b", "cyc_self", "loop_p", "loop_q"):
        assert "cyc_x" not in p[name] and "cyc_y" not in p[name]
    assert "loop_" not in p["cyc_a"] and "cyc_" not in p["loop_p"]
