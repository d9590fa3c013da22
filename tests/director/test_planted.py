"""The planted reflex (``game/director/planted.py``): a low-rated player who stands still in the crowd in its
first waves gets softer hits and the enemies on it held at arm's length, where its shots land; the ``still``
bot (a player who never moves) lives through wave 1 with the director and dies under static difficulty."""

from __future__ import annotations

import json
import math
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


def _grunt_on_centre(w: World) -> int:
    p = w.player
    return w.spawn_enemy("grunt", p.x + 1.0, p.y)


def _shoot(w: World, seconds: float, *, hold: bool) -> None:
    """Aim at the grunt (while there is one) and fire for ``seconds``."""
    p = w.player
    for _ in range(round(seconds * TICK_HZ)):
        p.iframes = 1.0  # the test is about the shots, not the contact hits
        ex, ey = (w.enemies.view("x")[0], w.enemies.view("y")[0]) if w.enemies.n else (p.x + 1.0, p.y)
        w.step(PlayerInput(aim_x=p.x + (ex - p.x) * 100.0, aim_y=p.y + (ey - p.y) * 100.0, shoot=True))
        if hold:
            planted.hold_off(w)


def test_a_grunt_on_the_players_centre_cannot_be_shot_until_it_is_held_off() -> None:
    w = quiet_world()
    _grunt_on_centre(w)
    _shoot(w, 1.0, hold=False)
    assert w.enemies.n == 1 and w.enemies.view("hp")[0] == pytest.approx(30.0), "every shot flew out of it"
    w2 = quiet_world()
    _grunt_on_centre(w2)
    _shoot(w2, 1.0, hold=True)
    assert w2.stats.kills == 1, "held at arm's length, it dies to the same shots"


def _places(w: World) -> dict[int, tuple[float, float]]:
    en = w.enemies
    return {
        int(i): (float(x), float(y))
        for i, x, y in zip(en.view("id"), en.view("x"), en.view("y"), strict=True)
    }


def test_hold_off_moves_only_what_is_deep_inside_the_player_and_never_a_boss() -> None:
    w = quiet_world()
    p = w.player
    deep = w.spawn_enemy("grunt", p.x + 5.0, p.y)
    edge = w.spawn_enemy("grunt", p.x, p.y + 30.0)  # touching, but not deep inside
    far = w.spawn_enemy("grunt", p.x - 400.0, p.y)
    boss = w.spawn_enemy("boss", p.x, p.y - 2.0)
    before = _places(w)
    assert planted.hold_off(w) == 1
    after = _places(w)
    reach = 16.0 + p.stats.radius - planted.HOLD_DEPTH
    assert math.hypot(after[deep][0] - p.x, after[deep][1] - p.y) == pytest.approx(reach)
    assert after[deep][0] > p.x, "pushed out the way it came in"
    for i in (edge, far, boss):
        assert after[i] == before[i]


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
    assert gap.min() > 16.0 + p.stats.radius - planted.HOLD_DEPTH - 3.0, "no deeper than its reach"
    assert "standing still" in d.panel(w).watch


def test_a_player_who_keeps_walking_or_plays_static_gets_no_such_mercy() -> None:
    walker, w = _planted_run("rules", move=True)
    assert walker.watch.state.planted_ticks == 0
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
