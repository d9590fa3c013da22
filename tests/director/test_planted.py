"""The planted reflex (``game/director/planted.py``): a low-rated player who stands still in the crowd in its
first waves gets softer hits (the simulation holds the enemies on it at arm's length: tests/sim/
test_body_contact.py); the ``still``
bot (a player who never moves) lives through wave 1 with the director and dies under static difficulty."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from director_support import quiet_world

from game.director import planted
from game.director.director import Director
from game.director.watch import LOW_SKILL
from game.sim.config import TICK_HZ
from game.sim.enemy_ai import BODY_DEPTH
from game.sim.player import PlayerInput
from game.sim.world import World

REPO = Path(__file__).resolve().parents[2]


def test_feet_count_the_time_spent_within_reach_of_one_spot() -> None:
    feet = planted.Feet()
    assert feet.update(100.0, 100.0, 1.0) == 0.0
    assert feet.update(100.0 + planted.PLANTED_PX - 1, 100.0, 3.0) == pytest.approx(2.0)  # a shuffle
    assert feet.update(100.0 + planted.PLANTED_PX + 2, 100.0, 3.5) == 0.0  # a step away starts again
    assert feet.update(100.0 + planted.PLANTED_PX + 2, 100.0, 4.0) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "still_s, since_hit_s, skill, wave, expected",
    [
        (planted.PLANTED_S, 0.5, 0.3, 1, True),  # standing, just hit, rated low, wave 1
        (planted.PLANTED_S - 0.1, 0.5, 0.3, 1, False),  # only just stopped
        (5.0, planted.HURT_S + 0.1, 0.3, 1, False),  # standing but nothing hits it
        (5.0, 0.5, LOW_SKILL, 1, False),  # a player rated well needs no mercy
        (5.0, 0.5, 0.3, planted.PLANTED_WAVES + 1, False),  # past the first waves
    ],
)
def test_when_a_player_counts_as_planted(
    still_s: float, since_hit_s: float, skill: float, wave: int, expected: bool
) -> None:
    assert planted.is_planted(still_s, since_hit_s, skill, wave, LOW_SKILL) is expected


def _planted_run(mode: str, move: bool) -> tuple[Director, World]:
    """A quiet world: the player acts (the gentle opening ends), then stands (or walks) while a grunt sits
    on it for 3 s."""
    d = Director(mode)
    w = quiet_world()
    d.watch.state.last_nudge = float("inf")  # no calm nudge: the test places every enemy
    for _ in range(10):
        w.step(PlayerInput(move_x=1.0))
        d.on_tick(w)
    w.wave = 2  # past wave 1's opening (its own softer hits for a low-rated player)
    p = w.player
    w.spawn_enemy("grunt", p.x + 2.0, p.y)
    for i in range(3 * TICK_HZ):
        p.hp = p.stats.max_hp  # full HP: no rescue, no opening factor
        step = PlayerInput(move_x=1.0 if move and (i // 30) % 2 else -1.0 if move else 0.0)
        w.step(step)
        d.on_tick(w)
    return d, w


def test_a_player_standing_in_the_crowd_gets_softer_hits_and_the_enemy_held_off() -> None:
    d, w = _planted_run("rules", move=False)
    assert d.watch.state.planted and d.watch.state.planted_ticks > 0
    assert w.params.get("enemy_damage_mult") == pytest.approx(planted.DAMAGE)
    p = w.player
    gap = np.hypot(w.enemies.view("x") - p.x, w.enemies.view("y") - p.y)
    assert gap.min() > 16.0 + p.stats.radius - BODY_DEPTH - 3.0, "no deeper than its reach"
    assert "standing still" in d.panel(w).watch
    assert d.pop_announcements() == [planted.HINT], "the player is told to move, once"


def test_a_player_who_keeps_walking_or_plays_static_gets_no_such_mercy() -> None:
    walker, w = _planted_run("rules", move=True)
    assert walker.watch.state.planted_ticks == 0
    assert planted.HINT not in walker.pop_announcements()
    assert w.params.get("enemy_damage_mult") == pytest.approx(1.0)
    static, w2 = _planted_run("static", move=False)
    assert static.watch.state.planted_ticks == 0
    assert w2.params.get("enemy_damage_mult") == 1.0


def _still_run(saves: Path, director: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--bot", "still", "--director", director,
         "--seed", "0", "--seconds", "30", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_player_who_never_moves_lives_through_wave_1_only_with_the_director(saves_dir: Path) -> None:
    # seed 0: before the planted reflex the still bot died at ~16 s under the director (and ~12 s static)
    static = _still_run(saves_dir / "static", "static")
    directed = _still_run(saves_dir / "rules", "rules")
    assert static["died"] and static["waves_reached"] == 1
    assert not directed["died"] and directed["deaths"] == 0
    assert directed["seconds"] > static["seconds"]
