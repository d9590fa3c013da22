"""A contact hit bounces an enemy with a ``recoil`` (the boss) off the player (``combat.recoil``): a boss that
sat on a player pinned to a wall struck at every i-frame, a wall nobody could answer, not a peak."""

from __future__ import annotations

import math

import pytest

from game.sim.config import ARENA_H, TICK_HZ
from game.sim.player import PlayerInput
from game.sim.prefabs import Prefab
from game.sim.spawner import NullSpawner
from game.sim.world import World


def _parked_against_the_top_wall(boss_recoil: float | None = None) -> World:
    w = World(seed=0, spawner=NullSpawner())
    w.wave_time_left = 1e9
    p = w.player
    p.x, p.y = 1500.0, ARENA_H - p.stats.radius
    if boss_recoil is not None:
        w.kind_recoil[w.prefabs.index("boss")] = boss_recoil
    w.spawn_enemy("boss", p.x, p.y - 30.0)
    return w


def _hits_in(w: World, seconds: float) -> int:
    hits = 0
    for _ in range(round(seconds * TICK_HZ)):
        w.player.hp = w.player.stats.max_hp  # count the hits, not the death
        w.step(PlayerInput())
        hits += w.player.hp < w.player.stats.max_hp
    return hits


def test_the_boss_backs_off_after_a_hit_and_comes_again() -> None:
    w = _parked_against_the_top_wall()
    p = w.player
    w.step(PlayerInput())
    en = w.enemies
    gap = math.hypot(float(en.view("x")[0]) - p.x, float(en.view("y")[0]) - p.y)
    reach = float(en.view("radius")[0]) + p.stats.radius
    assert p.hp < p.stats.max_hp, "the touch landed a hit"
    assert gap >= reach + 100.0, (
        f"the boss bounced off: {gap:.0f} px from the player, touching at {reach:.0f}"
    )
    assert 1 <= _hits_in(w, 6.0) <= 5, "it walks back and strikes again, a few times in 6 s"


def test_without_a_recoil_a_boss_on_a_pinned_player_hits_at_every_iframe() -> None:
    bouncing, sitting = (
        _hits_in(_parked_against_the_top_wall(), 6.0),
        _hits_in(_parked_against_the_top_wall(0.0), 6.0),
    )
    assert sitting >= 12 and bouncing * 2 <= sitting, (bouncing, sitting)


def test_recoil_is_a_prefab_field_a_modder_may_set_and_it_is_bounded() -> None:
    base = {
        "display_name": "Bumper",
        "behaviour": "chase",
        "hp": 10,
        "speed": 50,
        "damage": 5,
        "radius": 10,
        "score": 1,
        "cost": 1,
        "xp": 1,
        "sprite": ":resources:x.png",
    }
    assert Prefab(**base).recoil == 0.0
    assert Prefab(**base, recoil=80).recoil == 80.0
    with pytest.raises(ValueError, match="recoil"):
        Prefab(**base, recoil=-1)
