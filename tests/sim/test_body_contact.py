"""Enemies touch the player but do not walk onto its centre (``enemy_ai.keep_off_player``): a grunt on the
player's centre could not be shot (the bullet leaves the muzzle at the player's edge and is a step further
out at its first collision test), so a player who stood still in a crowd never killed what sat on it."""

from __future__ import annotations

import math

import pytest

from game.sim import enemy_ai
from game.sim.config import TICK_HZ
from game.sim.enemy_ai import BODY_DEPTH, keep_off_player
from game.sim.player import PlayerInput
from game.sim.spawner import NullSpawner
from game.sim.world import World


def _quiet() -> World:
    w = World(seed=0, spawner=NullSpawner())
    w.wave_time_left = 1e9
    return w


def _shoot_the_grunt_on_centre(w: World, seconds: float) -> None:
    p = w.player
    w.spawn_enemy("grunt", p.x + 1.0, p.y)
    for _ in range(round(seconds * TICK_HZ)):
        p.iframes = 1.0  # the test is about the shots, not the contact hits
        ex, ey = (w.enemies.view("x")[0], w.enemies.view("y")[0]) if w.enemies.n else (p.x + 1.0, p.y)
        w.step(PlayerInput(aim_x=p.x + (ex - p.x) * 100.0, aim_y=p.y + (ey - p.y) * 100.0, shoot=True))


def test_a_grunt_on_the_players_centre_is_held_at_its_edge_and_dies(monkeypatch: pytest.MonkeyPatch) -> None:
    w = _quiet()
    _shoot_the_grunt_on_centre(w, 1.0)
    assert w.stats.kills == 1, "held at the player's edge, the grunt dies to aimed fire"
    monkeypatch.setattr(enemy_ai, "keep_off_player", lambda world: 0)
    w2 = _quiet()
    _shoot_the_grunt_on_centre(w2, 1.0)
    assert w2.enemies.n == 1 and w2.stats.kills == 0, "on the centre, every shot flew out of it"


def _places(w: World) -> dict[int, tuple[float, float]]:
    en = w.enemies
    return {
        int(i): (float(x), float(y))
        for i, x, y in zip(en.view("id"), en.view("x"), en.view("y"), strict=True)
    }


def test_only_what_is_deep_inside_the_player_moves_and_never_a_boss() -> None:
    w = _quiet()
    p = w.player
    deep = w.spawn_enemy("grunt", p.x + 5.0, p.y)
    edge = w.spawn_enemy("grunt", p.x, p.y + 30.0)  # touching, but not deep inside
    far = w.spawn_enemy("grunt", p.x - 400.0, p.y)
    boss = w.spawn_enemy("boss", p.x, p.y - 2.0)
    before = _places(w)
    assert keep_off_player(w) == 1
    after = _places(w)
    reach = float(w.enemies.view("radius")[0]) + p.stats.radius - BODY_DEPTH
    assert math.hypot(after[deep][0] - p.x, after[deep][1] - p.y) == pytest.approx(reach)
    assert after[deep][0] > p.x, "pushed out the way it came in"
    for i in (edge, far, boss):
        assert after[i] == before[i]
    touching = math.hypot(after[deep][0] - p.x, after[deep][1] - p.y) < reach + BODY_DEPTH
    assert touching, "it still touches: contact hits land"
