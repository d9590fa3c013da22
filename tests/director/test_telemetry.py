"""Telemetry from a real World: damage windows, kill rate, accuracy, nearness, boss, fixed-size buffers."""

from __future__ import annotations

import pytest
from director_support import quiet_world

from game.director.telemetry import NEVER, Telemetry
from game.sim.config import TICK_HZ
from game.sim.player import PlayerInput
from game.sim.world import World


def run(w: World, t: Telemetry, seconds: float, inp: PlayerInput | None = None) -> None:
    for _ in range(int(seconds * TICK_HZ)):
        w.step(inp or PlayerInput())
        t.update(w)


def test_damage_windows_expire_in_order() -> None:
    w, t = quiet_world(), Telemetry()
    run(w, t, 1.0)
    w.hurt_player(20.0, "contact")
    run(w, t, 1.0)
    s = t.snapshot(w)
    assert (s.damage_5s, s.damage_15s, s.damage_60s) == (
        pytest.approx(0.2),
        pytest.approx(0.2),
        pytest.approx(0.2),
    )
    assert s.seconds_since_hit == pytest.approx(1.0, abs=0.05)
    run(w, t, 6.0)
    s = t.snapshot(w)
    assert s.damage_5s == 0.0 and s.damage_15s == pytest.approx(0.2)
    run(w, t, 10.0)
    s = t.snapshot(w)
    assert s.damage_15s == 0.0 and s.damage_60s == pytest.approx(0.2)
    run(w, t, 50.0)
    assert t.snapshot(w).damage_60s == 0.0


def test_buffers_do_not_grow_with_run_length() -> None:
    w, t = quiet_world(), Telemetry()
    size = t._buckets.nbytes
    run(w, t, 90.0)
    assert t._buckets.nbytes == size


def test_kills_accuracy_nearness_and_boss() -> None:
    w, t = quiet_world(), Telemetry()
    w.player.iframes = 1e9  # invulnerable: this test is about the player's own numbers
    px, py = w.player.x, w.player.y
    for i in range(6):
        w.spawn_enemy("grunt", px + 120 + 30 * i, py)  # in the line of fire
    w.spawn_enemy("grunt", px - 1000, py - 800)
    # aim at the row and shoot for a while; grunts walk in and die
    run(w, t, 8.0, PlayerInput(aim_x=px + 500, aim_y=py, shoot=True))
    s = t.snapshot(w)
    assert w.stats.kills >= 3
    assert s.kills_per_min == pytest.approx(w.stats.kills * 60 / 8.0, rel=0.05)
    assert 0 < s.accuracy <= 1 and s.accuracy == pytest.approx(
        min(1.0, w.stats.hits / w.stats.shots), abs=0.01
    )
    assert s.player_dps > 0
    assert s.enemies_alive == w.enemies.n
    assert not s.boss_alive and s.seconds_since_death == NEVER
    w.spawn_enemy("boss", px + 2000 if px < 1000 else px - 1400, py)
    w.spawn_enemy("runner", px + 100, py + 100, elite=True)
    s = t.snapshot(w)
    assert s.boss_alive and s.elites_alive == 1 and s.enemies_near >= 1
    assert not s.boss_in_view, "a boss left behind off screen is not a boss fight"
    w.spawn_enemy("boss", px + 300, py)
    assert t.snapshot(w).boss_in_view


def test_death_and_engagement_are_tracked() -> None:
    w, t = quiet_world(), Telemetry()
    w.respawn = True
    w.spawn_enemy("tank", w.player.x + 60, w.player.y)
    w.step()
    t.update(w)
    assert t.engaged
    w.player.hp = 1.0
    w.player.iframes = 0.0
    w.hurt_player(50.0, "contact")
    w._player_died()
    t.update(w)
    assert t.died and t.snapshot(w).seconds_since_death == 0.0
    run(w, t, 1.0)
    assert not t.died
