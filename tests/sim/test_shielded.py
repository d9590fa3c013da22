"""The shielded enemy: its front shield stops player bullets from the front (whatever their pierce), turns
toward the player only slowly (so circling or dashing round it exposes its back), does not stop what is not a
bullet (orbit blades), and it is a whitelisted director card from wave 6 on."""

from __future__ import annotations

import math

import pytest

from game.sim import events as ev
from game.sim.enemy_kinds import SHIELD_TURN
from game.sim.player import PlayerInput
from game.sim.spawner import CreditSpawner, NullSpawner
from game.sim.weapons import HeldWeapon
from game.sim.world import World


def still_world() -> tuple[World, int]:
    w = World(seed=4, spawner=NullSpawner())
    w.wave_time_left = 1e9
    eid = w.spawn_enemy("shielder", w.player.x + 200, w.player.y)
    w.enemies.view("speed")[:] = 0.0
    w.step(PlayerInput())  # the shield takes up its facing: toward the player (to the left)
    return w, eid


def bullet(w: World, x: float, y: float, vx: float, vy: float, pierce: int = 0) -> None:
    w.bullets.add(1, x=x, y=y, vx=vx, vy=vy, damage=10.0, ttl=2.0, pierce=pierce, last_hit=-1, target=-1)


def test_bullets_from_the_front_are_stopped_whatever_their_pierce() -> None:
    w, _ = still_world()
    e = w.enemies
    assert e.view("dir_x")[0] == pytest.approx(-1.0)
    hp0 = float(e.view("hp")[0])
    ex, ey = float(e.view("x")[0]), float(e.view("y")[0])
    bullet(w, ex - 60, ey, 700.0, 0.0, pierce=5)
    blocked = []
    for _ in range(10):
        blocked += [x for x in w.step(PlayerInput()) if isinstance(x, ev.ShieldBlocked)]
    assert float(e.view("hp")[0]) == hp0
    assert w.bullets.n == 0 and len(blocked) == 1
    assert w.stats.hits == 0  # a blocked bullet is not a hit (the director's accuracy reads hits)


def test_bullets_from_behind_hurt_it() -> None:
    w, _ = still_world()
    e = w.enemies
    hp0 = float(e.view("hp")[0])
    ex, ey = float(e.view("x")[0]), float(e.view("y")[0])
    bullet(w, ex + 60, ey, -700.0, 0.0)  # from the far side, flying back toward the player
    for _ in range(10):
        w.step(PlayerInput())
    assert float(e.view("hp")[0]) == pytest.approx(hp0 - 10.0)


def test_the_shield_turns_slowly_so_circling_round_it_opens_its_back() -> None:
    w, _ = still_world()
    e = w.enemies
    p = w.player
    p.x, p.y = float(e.view("x")[0]) + 200, float(e.view("y")[0])  # the player jumps behind it
    w.step(PlayerInput())
    turned = math.atan2(e.view("dir_y")[0], e.view("dir_x")[0])
    assert abs(abs(turned) - math.pi) == pytest.approx(SHIELD_TURN / 60, abs=1e-6)  # one tick's turn
    hp0 = float(e.view("hp")[0])
    ex, ey = float(e.view("x")[0]), float(e.view("y")[0])
    bullet(w, ex + 60, ey, -700.0, 0.0)  # the player's side is now its back
    for _ in range(6):
        w.step(PlayerInput())
    assert float(e.view("hp")[0]) < hp0
    for _ in range(int(60 * math.pi / SHIELD_TURN) + 5):
        w.step(PlayerInput())
    assert e.view("dir_x")[0] == pytest.approx(1.0, abs=1e-3)  # in time it faces the player again


def test_orbit_blades_are_not_bullets_and_cut_through() -> None:
    w, _ = still_world()
    e = w.enemies
    hp0 = float(e.view("hp")[0])
    w.arsenal.held = [HeldWeapon("orbit", 1)]
    e.view("x")[0] = w.player.x + w.arsenal.cat.get("orbit").radius  # on the blades' circle
    for _ in range(120):
        w.step(PlayerInput())
    assert float(e.view("hp")[0]) < hp0


def test_the_shielder_is_a_whitelisted_director_card_from_wave_6() -> None:
    w = World(seed=2, spawner=NullSpawner())
    assert "shielder" in w.prefabs.regular
    w.wave = 5
    assert "shielder" not in {c.prefab for c in CreditSpawner().cards(w)}
    w.wave = 6
    assert "shielder" in {c.prefab for c in CreditSpawner().cards(w)}
