"""The director's per-tick reflexes (``game/director/watch.py``): the gentle opening for a player who has
not touched the controls, the crowd cap for a low-rated player, the calm nudge, and the first-wave CLI."""

from __future__ import annotations

import math

import pytest
from game.director.watch import GRACE_DAMAGE, NUDGE_GROUP, low_skill_cap

from game.directed.run import build
from game.director.director import Director
from game.director.pacing import RELAX_MIN_S, PacingState
from game.director.spawner import CreditSpawner, offscreen_distance
from game.eval.__main__ import main as eval_main
from game.headless import run_headless
from game.sim.config import TICK_HZ
from game.sim.player import PlayerInput
from tests.director.director_support import directed_world, tick


def _idle_death_time(seed: int, mode: str) -> float:
    director, world = build(seed, mode, respawn=False)
    summary = run_headless(seed, 40.0, None, world=world, on_tick=director.on_tick)
    return summary.seconds if summary.died else math.inf


def test_a_player_who_touches_nothing_lives_through_wave_1_only_with_the_director() -> None:
    for seed in (0, 1):
        assert _idle_death_time(seed, "static") < 15.0  # static difficulty: dead at ~9-12 s
        assert _idle_death_time(seed, "rules") > 30.0  # the gentle window (GRACE_MAX_S)


def test_the_grace_ends_when_the_player_moves_and_leaves_a_foreign_param_alone() -> None:
    director = Director("rules", seed=3)
    world = directed_world(director, seed=3)
    tick(director, world, 5)
    assert world.params.get("enemy_damage_mult") == pytest.approx(GRACE_DAMAGE)
    assert director.watch.state.grace
    for _ in range(10):
        world.step(PlayerInput(move_x=1.0))
        director.on_tick(world)
    assert not director.watch.state.grace
    assert world.params.get("enemy_damage_mult") == pytest.approx(1.0)
    # a mod (or the console) that sets the param keeps its value: the watch never overwrites it
    other = Director("rules", seed=4)
    w2 = directed_world(other, seed=4)
    tick(other, w2, 2)
    w2.set_param("enemy_damage_mult", 2.0)
    for _ in range(10):
        w2.step(PlayerInput(move_x=1.0))
        other.on_tick(w2)
    assert w2.params.get("enemy_damage_mult") == pytest.approx(2.0)


def test_static_mode_never_softens_enemies() -> None:
    director = Director("static", seed=3)
    world = directed_world(director, seed=3)
    tick(director, world, 30)
    assert world.params.get("enemy_damage_mult") == 1.0
    assert director.credit_spawner.crowd_cap is None


def test_the_crowd_cap_binds_the_credit_spawner_and_shrinks_with_hp() -> None:
    assert low_skill_cap(0.2, 0.4) < low_skill_cap(0.2, 1.0) < low_skill_cap(0.4, 1.0)
    director = Director("static", seed=0)  # a world with the director's wiring; drive the spawner by hand
    world = directed_world(director, seed=0)
    spawner = CreditSpawner()
    spawner.crowd_cap = 4
    spawner.credits = 500.0
    for _ in range(TICK_HZ * 5):
        spawner.update(world, 1.0 / TICK_HZ)
    assert 0 < world.enemies.n <= 4


def test_a_calm_player_gets_a_small_group_at_the_nearest_edge_and_a_relax_ends() -> None:
    director = Director("rules", seed=2)
    world = directed_world(director, seed=2)
    n = 0
    while director.watch.state.nudges == 0 and world.tick < TICK_HZ:  # the player acts: no grace, calm
        n = world.enemies.n
        world.step(PlayerInput(move_x=1.0))
        director.on_tick(world)
    before = director.watch.state.nudges
    assert before == 1 and world.tick < TICK_HZ // 4 and world.enemies.n >= n + NUDGE_GROUP
    d = [
        math.hypot(x - world.player.x, y - world.player.y)
        for x, y in zip(
            world.enemies.view("x")[-NUDGE_GROUP:], world.enemies.view("y")[-NUDGE_GROUP:], strict=True
        )
    ]
    assert max(d) <= offscreen_distance(math.pi / 2) + 60.0  # just past the top or bottom edge
    # a Relax that has run its minimum, with a calm player and no one around, ends in a nudge
    world.enemies.clear()
    director.intensity.value = 0.1
    director.pacing._enter(PacingState.RELAX)
    director.pacing.time_in_state = RELAX_MIN_S + 0.1
    director.watch.state.last_nudge = -1e9
    director.watch.state.calm_s = 5.0
    asked = director.accepted
    world.step(PlayerInput(move_x=1.0))
    director.on_tick(world)
    assert director.watch.state.nudges == before + 1
    assert director.pacing.state is PacingState.BUILD_UP
    assert director.accepted == asked + 1  # a nudge asks the rules for a decision at once


def test_first_wave_cli_reports_both_modes(capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_main(["first-wave", "--seeds", "1", "--first-seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "novice   static" in out and "novice   rules      1/1  met" in out
