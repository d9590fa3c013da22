"""The experience meter reads the world the player is in, never the director: units on hand-placed worlds."""

from __future__ import annotations

from game.eval.experience import DANGER_HP, EMPTY_AFTER_S, ExperienceMeter
from game.sim import events as ev
from game.sim.config import SCREEN_W, TICK_HZ
from game.sim.spawner import NullSpawner
from game.sim.view import in_view, view_center
from game.sim.world import World


def _world() -> World:
    w = World(seed=1, spawner=NullSpawner())
    w.time = EMPTY_AFTER_S + 1.0
    return w


def _feed(meter: ExperienceMeter, w: World, ticks: int) -> None:
    for _ in range(ticks):
        w.tick += 1
        w.time += 1.0 / TICK_HZ
        meter.add(w)


def test_an_enemy_in_view_fills_the_screen_and_one_just_outside_does_not() -> None:
    w = _world()
    p = w.player
    far = w.spawn_enemy("grunt", p.x + SCREEN_W / 2 + 60, p.y)  # right of the view's edge
    assert in_view(w) == 0
    meter = ExperienceMeter()
    _feed(meter, w, 60)
    w.destroy_enemy(far)
    w.spawn_enemy("grunt", p.x + SCREEN_W / 2 - 40, p.y)
    assert in_view(w) == 1
    _feed(meter, w, 60)
    r = meter.result(w)
    assert r.empty_share == 0.5 and r.longest_empty_s == 1.0


def test_the_view_stops_at_the_arena_edge_like_the_camera() -> None:
    w = _world()
    p = w.player
    p.x, p.y = 20.0, 1200.0  # against the left wall: the camera shows more of the arena to the right
    cx, _ = view_center(p.x, p.y)
    assert cx > p.x
    w.spawn_enemy("grunt", p.x + SCREEN_W / 2 + 300, p.y)  # off a centred view, inside the real one
    assert in_view(w) == 1


def test_the_opening_is_not_judged_for_an_empty_screen() -> None:
    w = World(seed=1, spawner=NullSpawner())
    meter = ExperienceMeter()
    _feed(meter, w, int(EMPTY_AFTER_S * TICK_HZ) - 5)
    assert meter.result(w).empty_share == 0.0 and meter.judged == 0
    _feed(meter, w, 10)
    assert meter.result(w).empty_share == 1.0


def test_danger_is_low_hp_and_is_never_engaged() -> None:
    w = _world()
    w.spawn_enemy("grunt", w.player.x + 100, w.player.y)
    meter = ExperienceMeter()
    _feed(meter, w, 30)
    w.player.hp = w.player.stats.max_hp * (DANGER_HP - 0.05)
    _feed(meter, w, 30)
    r = meter.result(w)
    assert (r.engaged_share, r.danger_share) == (0.5, 0.5)


def test_a_recent_hit_counts_as_engaged_with_no_enemy_near() -> None:
    w = _world()
    meter = ExperienceMeter()
    w.events = [ev.PlayerDamaged(5.0, 95.0, "grunt")]
    _feed(meter, w, 1)
    w.events = []
    _feed(meter, w, 5 * TICK_HZ - 1)  # 5 s in all: the hit is remembered for 3 of them
    r = meter.result(w)
    assert abs(r.engaged_share - 3.0 / 5.0) < 0.01


def test_per_minute_figures_count_from_where_the_meter_started() -> None:
    w = _world()
    w.stats.kills, w.stats.damage_taken, w.stats.deaths = 40, 300.0, 2  # before the meter
    meter = ExperienceMeter()
    _feed(meter, w, 1)
    w.stats.kills += 30
    w.stats.damage_taken += 60.0
    w.stats.deaths += 1
    _feed(meter, w, 30 * TICK_HZ - 1)
    r = meter.result(w)
    assert (r.kills_per_min, r.damage_per_min, r.deaths) == (60.0, 120.0, 1)
