"""The reflexes between decisions (``game/director/reflexes.py``) and what they read (``read.py``):

- **Grace**: until the player first moves or fires, for at most ``[danger] grace_max_s``, hits land at
  ``grace_factor`` and only the presence floor spawns;
- **Rescue** (a second wind): under ``[rescue] hp`` of the bar, for a player who has acted, shove the crowd
  within ``radius`` out to ``shove_to`` and drop supply, at most every ``cooldown_s``, paid from a few
  charges a run that waves give back; never under static difficulty.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from director_support import a_read, directed_world, quiet_world, tick

from game.analysis.ledger import STILL_PX, Feet
from game.director.act import WHY_SHOWN_S, hp_limit
from game.director.director import Director
from game.director.read import MOVED_PX, Reader
from game.director.reflexes import Adjustment, Grace, Rescue, crowd_near
from game.director.tuning import TUNING
from game.render.ai_panels.director_view import panel_view
from game.sim import events as ev
from game.sim.combat import HEALTH
from game.sim.config import TICK_HZ
from game.sim.player import PlayerInput
from game.sim.world import World

G = TUNING.danger
R = TUNING.rescue


# ---------------------------------------------------------------------------------------------- the read
def test_feet_count_the_time_spent_within_reach_of_one_spot() -> None:
    feet = Feet()
    assert feet.update(100.0, 100.0, 1.0) == 0.0
    assert feet.update(100.0 + STILL_PX - 1, 100.0, 3.0) == pytest.approx(2.0)  # a shuffle
    assert feet.update(100.0 + STILL_PX + 2, 100.0, 3.5) == 0.0  # a step away starts again
    assert feet.update(100.0 + STILL_PX + 2, 100.0, 4.0) == pytest.approx(0.5)


def _read_after(world: World, inputs: list[PlayerInput]) -> bool:
    reader = Reader(0, TUNING)
    for inp in inputs:
        world.step(inp)
        reader.update(world, world.events, 1.0)
    assert reader.last is not None
    return reader.last.acted


def test_the_player_has_acted_once_it_moved_or_fired() -> None:
    assert not _read_after(quiet_world(), [PlayerInput()] * 30), "standing and not firing"
    assert _read_after(quiet_world(), [PlayerInput(move_x=1.0)] * 10), f"moved past {MOVED_PX} px"
    w = quiet_world()
    w.spawn_enemy("grunt", w.player.x + 200, w.player.y)  # something to shoot at
    fire = PlayerInput(shoot=True, aim_x=w.player.x + 200, aim_y=w.player.y)
    assert _read_after(w, [fire] * 30), "fired a shot without moving"


def test_the_read_says_the_bar_is_falling_after_fall_bars_within_fall_s() -> None:
    w = quiet_world()
    reader = Reader(0, TUNING)
    w.step()
    assert not reader.update(w, w.events, 1.0).falling
    w.hurt_player(TUNING.read.fall_bars * 0.8 * w.player.stats.max_hp, "test")
    w.step()
    assert not reader.update(w, w.events, 1.0).falling, "under fall_bars: not falling"
    w.player.iframes = 0.0
    w.hurt_player(TUNING.read.fall_bars * 0.4 * w.player.stats.max_hp, "test")
    w.step()
    read = reader.update(w, w.events, 1.0)
    assert read.falling and read.fell >= TUNING.read.fall_bars
    for _ in range(round((TUNING.read.fall_s + 0.5) * TICK_HZ)):
        w.step()
        read = reader.update(w, w.events, 1.0)
    assert not read.falling, "nothing landed within fall_s"


# ---------------------------------------------------------------------------------------------- grace
def test_grace_scales_hits_and_holds_until_the_player_acts() -> None:
    world = quiet_world()
    grace = Grace(TUNING)
    adj = grace.tick(a_read(time=1.0, acted=False), world)
    assert adj.danger == G.grace_factor < 1.0 and adj.hold and adj.why
    assert grace.tick(a_read(time=2.0, acted=True), world) == Adjustment()
    assert grace.tick(a_read(time=3.0, acted=False), world) == Adjustment(), "once over, over for the run"


def test_grace_ends_at_grace_max_s_for_a_player_who_never_acts() -> None:
    world = quiet_world()
    grace = Grace(TUNING)
    assert grace.tick(a_read(time=G.grace_max_s - 0.1, acted=False), world).hold
    assert grace.tick(a_read(time=G.grace_max_s, acted=False), world) == Adjustment()
    assert not grace.on


def test_the_director_softens_hits_until_the_player_moves() -> None:
    d = Director("rules", seed=3)
    w = directed_world(d, seed=3)
    tick(d, w, 5)
    soft = d.knobs.danger * hp_limit(1.0, TUNING) * G.grace_factor
    assert w.params.get("enemy_damage_mult") == pytest.approx(w.params.clamp("enemy_damage_mult", soft))
    assert d.credit_spawner.limits.hold and "grace" in panel_view(d, w).acting
    for _ in range(10):
        w.step(PlayerInput(move_x=1.0))
        d.on_tick(w)
    assert not d.grace.on and not d.credit_spawner.limits.hold
    assert w.params.get("enemy_damage_mult") == pytest.approx(d.knobs.danger * hp_limit(1.0, TUNING))


def _grace_spawns(seconds: float) -> list[tuple[int, str]]:
    """(tick, cause) of every spawn while the player stands and never fires."""
    d = Director("rules", seed=1)
    w = directed_world(d, seed=1)
    out: list[tuple[int, str]] = []
    for _ in range(round(seconds * TICK_HZ)):
        w.step()
        d.on_tick(w)
        out += [(w.tick, e.source) for e in w.events if isinstance(e, ev.EnemySpawned)]
    assert d.grace.on and d.credit_spawner.credits > 0, "the bank saved up meanwhile"
    return out


def test_only_the_presence_floor_spawns_during_the_grace() -> None:
    spawns = _grace_spawns(8.0)
    assert {cause for t, cause in spawns if t > 1} == {"presence"}, spawns


def test_not_even_the_first_tick_spends_the_bank_during_the_grace() -> None:
    assert {cause for _, cause in _grace_spawns(1.0)} <= {"presence"}


def test_every_run_opens_with_the_bank_held() -> None:
    """The spawner's first update runs before the first act: every run's spawner starts held, as in the
    grace."""
    d = Director("rules", seed=1)
    assert d.credit_spawner.limits.hold
    w = directed_world(d, seed=1)
    tick(d, w, 3)
    d.reset(seed=2)
    assert d.credit_spawner.limits.hold, "a new run too"


def test_static_mode_never_softens_enemies() -> None:
    d = Director("static", seed=3)
    w = directed_world(d, seed=3)
    tick(d, w, 30)
    assert w.params.get("enemy_damage_mult") == 1.0 and w.params.get("enemy_speed_mult") == 1.0


# ---------------------------------------------------------------------------------------------- rescue
def _crowd(world: World, n: int, dist: float) -> None:
    p = world.player
    for i in range(n):
        a = 2 * math.pi * i / max(1, n)
        world.spawn_enemy("grunt", p.x + math.cos(a) * dist, p.y + math.sin(a) * dist)


def test_crowd_near_measures_to_the_enemy_edge() -> None:
    w = quiet_world()
    p = w.player
    w.spawn_enemy("grunt", p.x + R.radius - 1.0, p.y)  # its centre just inside
    w.spawn_enemy("grunt", p.x + R.radius + 2.0, p.y)  # its centre outside, its edge inside
    w.spawn_enemy("grunt", p.x + R.radius + 200.0, p.y)
    assert list(crowd_near(w, R.radius)) == [0, 1]
    assert len(crowd_near(quiet_world(), R.radius)) == 0


LOW = R.hp / 2  # low enough for a second wind
CROWD = 4


@pytest.mark.parametrize(
    "acted, hp, rescued",
    [
        (True, LOW, True),
        (True, R.hp + 0.05, False),  # hurt, not yet low: the player is on their own
        (False, LOW, False),  # a player who never acted (walked away) is not carried
        (True, 0.0, False),  # dead
    ],
)
def test_when_a_second_wind_comes(acted: bool, hp: float, rescued: bool) -> None:
    w = quiet_world()
    _crowd(w, CROWD, R.radius / 3)
    adj = Rescue(TUNING).tick(a_read(acted=acted, hp=hp), w)
    assert bool(adj.shove) is rescued and adj.supply is rescued
    if rescued:
        assert sorted(adj.shove) == list(range(CROWD)) and "SECOND WIND" in adj.why


def test_second_winds_are_paid_from_charges_that_waves_give_back() -> None:
    rescue = Rescue(TUNING)
    t = 100.0
    for _ in range(R.charges):
        assert rescue.tick(a_read(time=t, hp=LOW), quiet_world()).supply
        t += R.cooldown_s
    assert rescue.charges == 0
    assert rescue.tick(a_read(time=t, hp=LOW), quiet_world()) == Adjustment(), "no charge left: no rescue"
    later = R.recharge_waves  # a boss wave's start
    assert rescue.tick(a_read(time=t + 1, hp=LOW, wave=later), quiet_world()).supply, "a boss wave gave one"
    assert rescue.count == R.charges + 1
    rescue.tick(a_read(time=t + 2, hp=1.0, wave=later + R.recharge_waves * 10), quiet_world())
    assert rescue.charges <= R.charges_max


def test_the_second_half_of_a_run_is_played_on_the_second_winds_saved() -> None:
    """Boss waves give a charge back only up to ``recharge_last_wave``."""
    last = R.recharge_last_wave - R.recharge_last_wave % R.recharge_waves  # the last boss wave that recharges
    rescue, t = Rescue(TUNING), 100.0
    for wave in range(1, 21):
        rescue.tick(a_read(time=t, hp=1.0, wave=wave), quiet_world())  # the wave starts
        while rescue.charges:  # spend every charge before the next wave starts
            assert rescue.tick(a_read(time=t, hp=LOW, wave=wave), quiet_world()).supply
            t += R.cooldown_s
        t += R.cooldown_s
    assert rescue.count == R.charges + last // R.recharge_waves, "one back at each boss wave up to the last"
    assert last < 20 and rescue.tick(a_read(time=t, hp=LOW, wave=20), quiet_world()) == Adjustment()


def test_a_second_wind_leaves_a_boss_where_it_is_and_respects_its_cooldown() -> None:
    w = quiet_world()
    _crowd(w, CROWD, R.radius / 3)
    w.spawn_enemy("boss", w.player.x + 30, w.player.y)
    rescue = Rescue(TUNING)
    first = rescue.tick(a_read(time=100.0, hp=LOW), w)
    assert sorted(first.shove) == list(range(CROWD)), "the boss (the last row) stays put"
    assert rescue.tick(a_read(time=100.0 + R.cooldown_s - 0.1, hp=LOW), w) == Adjustment()
    if R.charges > 1:
        again = rescue.tick(a_read(time=100.0 + R.cooldown_s, hp=LOW), w)
        assert again.shove and rescue.count == 2 and rescue.shoved == 2 * CROWD


def _surrounded(director: Director, n: int) -> World:
    """A quiet world a few seconds in, the player acted, left at ``LOW`` HP by a hit past fall_bars, ``n``
    grunts on it and one far away."""
    w = quiet_world()
    for _ in range(10):  # the player acts: the grace ends
        w.step(PlayerInput(move_x=1.0))
        director.on_tick(w)
    tick(director, w, 2 * TICK_HZ)
    p = w.player
    _crowd(w, n, 40.0)
    w.spawn_enemy("grunt", p.x + 900, p.y)  # far away: not shoved
    p.iframes = 0.0
    p.hp = (LOW + TUNING.read.fall_bars + 0.05) * p.stats.max_hp
    w.hurt_player((TUNING.read.fall_bars + 0.05) * p.stats.max_hp, "contact")  # with the next tick's events
    return w


def test_a_fast_fall_under_a_crowd_is_rescued_once_and_shown() -> None:
    d = Director("rules")
    n = CROWD + 3
    w = _surrounded(d, n)
    tick(d, w)
    assert d.rescue.count == 1 and d.rescue.shoved == n
    p = w.player
    dist = np.hypot(w.enemies.view("x") - p.x, w.enemies.view("y") - p.y)
    assert (np.sort(dist)[:n] > R.radius).all(), "the crowd was pushed back"
    assert dist.max() > 800, "an enemy far away stays where it was"
    assert (w.pickups.view("kind") == HEALTH).sum() >= 1, "supply dropped at once"
    assert "SECOND WIND" in panel_view(d, w).acting
    tick(d, w)
    assert any(isinstance(e, ev.Rescued) for e in w.events), "the views get the shockwave event"
    assert d.rescue.count == 1, "a reflex of one tick"
    assert "SECOND WIND" in panel_view(d, w).acting and "ago" in panel_view(d, w).acting, (
        "F10 keeps it readable"
    )
    tick(d, w, round(WHY_SHOWN_S * TICK_HZ))
    assert "SECOND WIND" not in panel_view(d, w).acting, f"gone from F10 after {WHY_SHOWN_S:g} s"


def test_a_second_fall_within_the_cooldown_is_not_rescued() -> None:
    d = Director("rules")
    w = _surrounded(d, CROWD + 3)
    tick(d, w)
    assert d.rescue.count == 1
    tick(d, w, TICK_HZ)
    p = w.player
    _crowd(w, CROWD + 3, 30.0)
    p.iframes = 0.0
    p.hp = (LOW + TUNING.read.fall_bars + 0.05) * p.stats.max_hp  # the same fall again
    w.hurt_player((TUNING.read.fall_bars + 0.05) * p.stats.max_hp, "contact")
    tick(d, w, 2)
    assert d.read is not None and d.read.falling
    assert d.rescue.count == 1, "at most one rescue every cooldown_s: no god mode"


def test_static_difficulty_never_rescues() -> None:
    d = Director("static")
    w = _surrounded(d, CROWD + 3)
    tick(d, w, 3)
    assert d.rescue.count == 0
    assert w.params.get("enemy_damage_mult") == 1.0
