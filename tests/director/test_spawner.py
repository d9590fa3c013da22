"""The credit spawner's bank: income, spending, elite cost, the crowd limit, groups, variety, positions, the
boss wave, toughness. The presence floor: test_presence.py."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from game.director.knobs import KNOB
from game.director.pacing import PacingState, income
from game.director.plan import DirectorKnobs
from game.director.tuning import TUNING
from game.sim import events as ev
from game.sim import spawner as sp_mod
from game.sim.config import ARENA_H, ARENA_W, BOSS_EVERY, DT, SCREEN_H, SCREEN_W
from game.sim.placement import edge_point
from game.sim.player import PlayerInput
from game.sim.prefabs import PrefabRegistry
from game.sim.spawner import CreditSpawner, Limits, SpawnCard
from game.sim.view import view_center
from game.sim.world import World
from tests.director.director_support import offscreen_distance


def world_with(spawner: CreditSpawner, wave: int = 1, seed: int = 0) -> World:
    w = World(seed=seed, spawner=spawner)
    if wave != 1:
        w.wave = wave
    w.wave_time_left = 1e9
    w.player.iframes = 1e9  # the player must survive whatever spawns
    return w


def spawn_log(w: World, seconds: float, inp: PlayerInput | None = None) -> list[tuple[int, ev.EnemySpawned]]:
    out = []
    for _ in range(int(seconds / DT)):
        w.step(inp or PlayerInput())
        out += [(w.tick, e) for e in w.events if isinstance(e, ev.EnemySpawned)]
    return out


def test_income_follows_difficulty_pacing_pressure_and_params() -> None:
    s = CreditSpawner()
    w = world_with(s)
    base = s.credits_per_second(w)
    assert base == pytest.approx(TUNING.bank.income)
    s.knobs = DirectorKnobs(pressure=2.0)
    assert s.credits_per_second(w) == pytest.approx(2 * base)
    s.income_share = income(PacingState.RELAX)
    assert income(PacingState.RELAX) < 1.0
    assert s.credits_per_second(w) == pytest.approx(2 * base * income(PacingState.RELAX))
    w.set_param("spawn_rate_mult", 0.5)
    w.wave = 3
    assert s.credits_per_second(w) == pytest.approx(
        base * 2 * income(PacingState.RELAX) * 0.5 * (1 + 2 * TUNING.bank.income_growth)
    )


def test_credits_spent_match_the_cards_bought() -> None:
    s = CreditSpawner(DirectorKnobs(pressure=3.0, elite_chance=0.2))
    w = world_with(s, wave=3)
    opening = s.credits
    seconds = 10.0
    log = spawn_log(w, seconds)
    cost = {n: w.prefabs.get(n).cost for n in w.prefabs.names}
    spent = sum(cost[e.prefab] * (TUNING.bank.elite_cost if e.elite else 1.0) for _, e in log)
    income = s.credits_per_second(w) * int(seconds / DT) * DT
    assert len(log) > 5
    assert s.credits + spent == pytest.approx(opening + income)
    assert s.spawned == len(log)


def test_an_elite_group_costs_the_multiple() -> None:
    s = CreditSpawner()
    w = world_with(s, wave=3)
    tank = w.prefabs.get("tank")
    s.credits = 40.0  # under the bank cap, so this tick's income is added too
    s._next = (SpawnCard("tank", tank.cost, 1.0, tank.first_wave), True, 2)
    before_n = w.enemies.n
    s.update(w, DT)
    assert w.enemies.n - before_n == 2
    assert bool(w.enemies.view("elite")[-2:].all())
    assert s.credits == pytest.approx(
        40.0 + s.credits_per_second(w) * DT - 2 * tank.cost * TUNING.bank.elite_cost
    )


@pytest.mark.parametrize("pressure", [1.0, 3.0])
def test_groups_are_bounded_and_spaced_by_pressure(pressure: float) -> None:
    s = CreditSpawner(DirectorKnobs(pressure=pressure))
    w = world_with(s, wave=4)
    s.burst(w, 30.0)
    per_tick = Counter(t for t, _ in spawn_log(w, 15.0))
    assert per_tick and max(per_tick.values()) <= sp_mod.max_group(pressure) <= sp_mod.MAX_GROUP_CAP
    ticks = sorted(per_tick)
    assert (
        min(b - a for a, b in itertools.pairwise(ticks)) * DT >= sp_mod.group_interval(pressure) - DT - 1e-9
    )


def test_the_crowd_limit_holds_even_with_a_huge_bank() -> None:
    s = CreditSpawner(DirectorKnobs(pressure=3.0))
    s.limits = Limits(crowd_max=8)
    w = world_with(s, wave=3)
    s.burst(w, 100.0)
    spawn_log(w, 10.0)
    assert w.enemies.n == 8
    assert s.credits > 50  # money was there; the limit stopped it


def test_a_hold_spends_nothing_and_the_bank_stops_at_its_cap() -> None:
    s = CreditSpawner()
    s.limits = Limits(hold=True)
    w = world_with(s, wave=2)
    spawn_log(w, 1.0)
    assert w.enemies.n == 0 and s.credits > 0, "held: the bank saves up"
    spawn_log(w, TUNING.bank.bank_max_s + 5.0)
    assert w.enemies.n == 0 and s.credits == pytest.approx(s.bank_max(w))
    s.limits = Limits()
    spawn_log(w, 2.0)
    assert w.enemies.n > 0, "released: it spends"


def test_variety_rule_breaks_monotone_hordes() -> None:
    s = CreditSpawner(
        DirectorKnobs(
            pressure=3.0,
            mix={n: 5.0 if n == "grunt" else 0.2 for n in PrefabRegistry.load().regular},
        )
    )
    w = world_with(s, wave=4)
    groups: list[tuple[int, str]] = []
    for tick, e in spawn_log(w, 60.0):
        if not groups or groups[-1][0] != tick:
            groups.append((tick, e.prefab))
    names = [n for _, n in groups]
    longest = max(len(list(g)) for g in _runs(names))
    assert longest <= sp_mod.VARIETY_RUN
    assert Counter(names)["grunt"] / len(names) > 0.4  # the mix still shows


def _runs(names: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for n in names:
        if out and out[-1][0] == n:
            out[-1].append(n)
        else:
            out.append([n])
    return out


@pytest.mark.parametrize(
    "where",
    [(40.0, 40.0), (ARENA_W - 40.0, 1200.0), (1600.0, ARENA_H - 40.0), (300.0, 2000.0), (1600.0, 1200.0)],
)
def test_spawn_points_are_off_the_cameras_view_near_walls_and_corners(where: tuple[float, float]) -> None:
    # the camera stops at the arena's edge, so near a wall the view is not centred on the player: a point
    # just past the edge measured from the player would land on screen (enemies appearing out of nothing)
    w = World(seed=0, spawner=CreditSpawner())
    w.player.x, w.player.y = where
    cx, cy = view_center(*where)
    for i in range(720):
        for depth in (0.0, 160.0):
            x, y = edge_point(w, 2.0 * math.pi * i / 720, depth)
            assert max(abs(x - cx) - SCREEN_W / 2, abs(y - cy) - SCREEN_H / 2) >= 60.0 - 1e-6, (i, depth)
            assert 30.0 - 1e-6 <= x <= ARENA_W - 30.0 + 1e-6 and 30.0 - 1e-6 <= y <= ARENA_H - 30.0 + 1e-6


def test_positions_are_off_screen_and_favour_rear_and_flanks() -> None:
    s = CreditSpawner()
    w = world_with(s)
    for _ in range(10):  # walk right: the heading is +x
        w.step(PlayerInput(move_x=1.0, aim_x=w.player.x, aim_y=w.player.y - 100))
    assert s.placer.heading == pytest.approx(0.0, abs=1e-6)
    px, py = w.player.x, w.player.y
    rel = []
    for _ in range(2000):
        x, y = s.placer.position(w)
        a = math.atan2(y - py, x - px)
        assert math.hypot(x - px, y - py) >= offscreen_distance(a) - 1e-6
        rel.append(math.remainder(a - s.placer.heading, 2 * math.pi))
    rel_arr = np.abs(np.array(rel))
    front = float((rel_arr < math.pi / 4).mean())
    rear = float((rel_arr > 3 * math.pi / 4).mean())
    flanks = 1.0 - front - rear
    assert front < 0.2 and rear > 0.3 and flanks > 0.3


def test_heading_follows_aim_when_standing_still() -> None:
    s = CreditSpawner()
    w = world_with(s)
    w.step(PlayerInput(aim_x=w.player.x, aim_y=w.player.y + 100))
    w.step(PlayerInput(aim_x=w.player.x, aim_y=w.player.y + 100))
    assert s.placer.heading == pytest.approx(math.pi / 2)


def test_a_boss_wave_brings_the_boss_at_any_pressure() -> None:
    lo, hi = KNOB["pressure"].range
    for pressure, wave, expect in ((1.0, BOSS_EVERY, 1), (lo, BOSS_EVERY, 1), (hi, BOSS_EVERY + 1, 0)):
        s = CreditSpawner(DirectorKnobs(pressure=pressure))
        w = world_with(s)
        w.start_wave(wave)
        bosses = int((w.enemies.view("kind") == w.prefabs.index("boss")).sum())
        assert bosses == expect, (pressure, wave)


def test_toughness_multiplies_the_hp_of_new_spawns() -> None:
    """The toughness knob: the same seed spawns the same enemies, with toughness x their HP and max HP (their
    speed and the XP a kill gives are unchanged)."""
    plain, tough = CreditSpawner(), CreditSpawner(DirectorKnobs(toughness=2.0))
    rows = []
    for sp in (plain, tough):
        w = world_with(sp)
        spawn_log(w, 3.0)
        e = w.enemies
        assert e.n > 0
        rows.append(
            (e.view("kind").copy(), e.view("max_hp").copy(), e.view("hp").copy(), e.view("speed").copy())
        )
    (k1, m1, _h1, s1), (k2, m2, h2, s2) = rows
    n = min(len(k1), len(k2))
    assert n > 0 and (k1[:n] == k2[:n]).all()
    assert np.allclose(m2[:n], 2.0 * m1[:n]) and np.allclose(h2[:n], m2[:n])
    assert np.allclose(s2[:n], s1[:n])
