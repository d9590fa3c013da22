"""A startup mod's param combined with the director's factor (issue 26 item 1): ``python -m game --headless``
with a real mod in the saves folder's mods/ that lowers ``enemy_damage_mult``. The director's act stage
multiplies the mod's value by its danger factor (the opening danger times the grace reflex's factor while the
player has not acted); the product is clamped where it is combined, and a hook that still fails is logged
while the run goes on, as in the window."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from loguru import logger

from game.director.director import Director
from game.director.tuning import TUNING
from game.hook_guard import HookGuard
from tests.director.director_support import directed_world, tick

REPO = Path(__file__).resolve().parents[2]
MOD_TOML = """name = "soft_hits"
version = "1.0.0"
author = "test"
api_version = 1
entry = "main.lua"
"""
MAIN_LUA = """function on_load()
  game.set("enemy_damage_mult", {value})
end
"""


def _install_mod(saves: Path, value: float) -> None:
    folder = saves / "mods" / "soft_hits"
    folder.mkdir(parents=True)
    (folder / "mod.toml").write_text(MOD_TOML, encoding="utf-8")
    (folder / "main.lua").write_text(MAIN_LUA.format(value=value), encoding="utf-8")


def test_a_startup_mod_lowering_enemy_damage_does_not_crash_a_headless_run(saves_dir: Path) -> None:
    # the still bot never acts, so the grace reflex holds: hits x opening_danger x low_factor (0.5 x 0.25),
    # and 0.5 x 0.125 is under the param's floor 0.1; before the fix a product under the floor ended the run
    # in CommandRejected (exit 1)
    _install_mod(saves_dir, 0.5)
    out = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--director", "stub", "--bot", "still",
         "--seconds", "8", "--seed", "1", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Traceback" not in out.stderr and "CommandRejected" not in out.stderr, out.stderr[-3000:]
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["ticks"] == 480 and summary["bot"] == "still"


@pytest.mark.parametrize("mod_value", [0.9, 0.25])
def test_the_act_stage_clamps_the_composed_damage_to_the_params_range(mod_value: float) -> None:
    director = Director("rules", seed=3)
    world = directed_world(director, seed=3)
    world.set_param("enemy_damage_mult", mod_value)  # what the mod set at startup
    tick(director, world, 5)  # the player has not acted: the grace reflex holds
    lo, _ = world.params.bounds()["enemy_damage_mult"]
    assert director.grace.on
    factor = director.actuator.state.danger  # the plan's danger x the grace factor (HP is full)
    assert factor == pytest.approx(director.knobs.danger * TUNING.danger.grace_factor)
    assert world.params.get("enemy_damage_mult") == pytest.approx(max(lo, mod_value * factor))
    assert world.params.clamp("enemy_damage_mult", 99.0) == world.params.bounds()["enemy_damage_mult"][1]


def test_the_hook_guard_logs_a_fault_and_the_loop_goes_on() -> None:
    lines: list[str] = []
    sink = logger.add(lambda m: lines.append(str(m)), level="ERROR")
    told: list[str] = []
    clock = [0.0]
    guard = HookGuard(told.append, every_s=5.0, clock=lambda: clock[0])
    calls = []

    def bad(n: int) -> None:
        calls.append(n)
        raise ValueError("boom")

    try:
        for n in range(10):
            assert guard.call(bad, n) is False
        clock[0] = 6.0
        guard.call(bad, 10)
        assert guard.call(calls.append, 11) is True
    finally:
        logger.remove(sink)
    assert calls == list(range(12)), "every tick ran"
    assert guard.faults == 11
    assert len(told) == 2 and "boom" in told[0], "reported once per 5 s"
    assert sum("boom" in line for line in lines) == 2
