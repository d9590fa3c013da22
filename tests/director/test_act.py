"""The act stage (``game/director/act.py``): the one writer of the spawner's limits and the world's
player-facing multipliers. Enemy damage follows the plan's danger knob limited by HP (never the presence
floor), composes with what a mod or the console set, and ``off()`` gives static difficulty back."""

from __future__ import annotations

import math

import numpy as np
import pytest
from director_support import a_read, directed_world, quiet_world, tick

from game.director.act import Actuator, crowd_max_for, hit_cap, hp_limit, presence_floor
from game.director.director import Director
from game.director.events import EventRegistry
from game.director.pacing import PacingState, income
from game.director.plan import DirectorKnobs
from game.director.read import PlayerRead
from game.director.reflexes import Adjustment
from game.director.tuning import TUNING
from game.sim import events as ev
from game.sim.combat import HEALTH
from game.sim.config import enemy_hp_scale
from game.sim.player import PlayerInput
from game.sim.spawner import CreditSpawner, Limits
from game.sim.weapons import sheet_dps
from game.sim.world import World

D = TUNING.danger
P = TUNING.presence
FULL, LOW, MID = D.hp_full, D.hp_low, (D.hp_full + D.hp_low) / 2


class Stage:
    """An actuator wired to a quiet world, a credit spawner and the built-in events."""

    def __init__(self, world: World | None = None) -> None:
        self.world = world or quiet_world()
        self.spawner = CreditSpawner(tuning=TUNING)
        self.events = EventRegistry()
        self.act = Actuator(TUNING)

    def __call__(
        self, read: PlayerRead | None = None, knobs: DirectorKnobs | None = None, *adj: Adjustment
    ) -> None:
        self.act.act(
            self.world, read or a_read(), knobs or DirectorKnobs(), list(adj), self.spawner, self.events
        )

    def param(self, name: str) -> float:
        return self.world.params.get(name)


def test_hp_limit_is_full_above_hp_full_and_low_factor_at_hp_low() -> None:
    assert hp_limit(1.0, TUNING) == hp_limit(FULL, TUNING) == 1.0
    assert hp_limit(LOW, TUNING) == pytest.approx(D.low_factor)
    assert hp_limit(0.0, TUNING) == pytest.approx(D.low_factor), "no lower than low_factor"
    assert hp_limit(MID, TUNING) == pytest.approx((1.0 + D.low_factor) / 2), "linear between"
    assert hp_limit(LOW, TUNING) < hp_limit(MID, TUNING) < hp_limit(FULL, TUNING)


@pytest.mark.parametrize("danger", [0.5, 1.0, 1.4])
@pytest.mark.parametrize("hp", [1.0, FULL, MID, LOW, LOW / 2])
def test_enemy_damage_is_the_danger_knob_times_the_hp_limit(danger: float, hp: float) -> None:
    stage = Stage()
    stage(a_read(hp=hp), DirectorKnobs(danger=danger))
    expected = danger * hp_limit(hp, TUNING)
    assert stage.param("enemy_damage_mult") == pytest.approx(
        stage.world.params.clamp("enemy_damage_mult", expected)
    )
    assert stage.act.state.danger == pytest.approx(expected, abs=1e-4)


def test_escalated_danger_never_makes_one_hit_of_the_hardest_hitter_a_falling_bar() -> None:
    stage = Stage()
    w = stage.world
    w.spawn_enemy("grunt", w.player.x + 900, w.player.y)
    grunt = float(w.enemies.view("damage").max())
    stage(a_read(hp=1.0), DirectorKnobs(danger=1.5))
    assert stage.act.state.danger == pytest.approx(min(1.5, hit_cap(w, TUNING)), abs=1e-4)
    w.spawn_enemy("boss", w.player.x - 900, w.player.y)
    boss = float(w.enemies.view("damage").max())
    assert boss > grunt
    cap = hit_cap(w, TUNING)
    assert cap == max(1.0, TUNING.read.fall_bars * w.player.stats.max_hp / boss)
    stage(a_read(hp=1.0), DirectorKnobs(danger=1.5))
    assert stage.act.state.danger == pytest.approx(min(1.5, cap), abs=1e-4) and cap < 1.5
    assert boss * stage.act.state.danger <= max(boss, TUNING.read.fall_bars * w.player.stats.max_hp) + 1e-6
    stage(a_read(hp=1.0), DirectorKnobs(danger=0.6))  # below 1 the cap never raises or lowers danger
    assert stage.act.state.danger == pytest.approx(0.6, abs=1e-4)


def test_enemy_speed_follows_the_knob_a_share_of_the_way_and_not_hp() -> None:
    for danger in (0.5, 1.0, 1.5):
        for hp in (1.0, LOW):
            stage = Stage()
            stage(a_read(hp=hp), DirectorKnobs(danger=danger))
            assert stage.param("enemy_speed_mult") == pytest.approx(1.0 + D.speed_share * (danger - 1.0))


def test_reflex_factors_multiply_the_danger() -> None:
    stage = Stage()
    stage(a_read(), DirectorKnobs(danger=0.8), Adjustment(danger=0.5), Adjustment(danger=0.5))
    assert stage.param("enemy_damage_mult") == pytest.approx(0.8 * 0.25)


def test_a_mod_or_console_multiplier_is_the_base_not_overwritten() -> None:
    stage = Stage()
    stage.world.set_param("enemy_damage_mult", 2.0)  # set before the director first acts
    stage(a_read(hp=LOW), DirectorKnobs(danger=0.5))
    assert stage.param("enemy_damage_mult") == pytest.approx(2.0 * 0.5 * D.low_factor)
    stage(a_read(hp=1.0), DirectorKnobs(danger=0.5))  # the director's own last value is not the base
    assert stage.param("enemy_damage_mult") == pytest.approx(2.0 * 0.5)
    stage.world.set_param("enemy_damage_mult", 3.0)  # the console changes it mid-run: the new base
    stage(a_read(hp=1.0), DirectorKnobs(danger=0.5))
    assert stage.param("enemy_damage_mult") == pytest.approx(1.5)
    stage.world.set_param("pickup_rate_mult", 2.0)
    stage(a_read(hp=1.0), DirectorKnobs(pickup_rate=1.5))
    assert stage.param("pickup_rate_mult") == pytest.approx(3.0), "2.0 x 1.5, inside the param's range"
    stage(a_read(hp=1.0), DirectorKnobs(pickup_rate=3.0))
    assert stage.param("pickup_rate_mult") == stage.world.params.bounds()["pickup_rate_mult"][1], "clamped"


def test_off_restores_the_base_and_lifts_the_limits() -> None:
    stage = Stage()
    stage.world.set_param("enemy_damage_mult", 2.0)
    stage(a_read(hp=LOW), DirectorKnobs(danger=0.5, pickup_rate=2.0), Adjustment(hold=True))
    assert stage.spawner.limits.hold and stage.spawner.limits.floor > 0
    stage.act.off(stage.world, stage.spawner)
    assert stage.param("enemy_damage_mult") == 2.0, "the mod's value, not 1.0 and not the director's"
    assert stage.param("enemy_speed_mult") == 1.0 and stage.param("pickup_rate_mult") == 1.0
    assert stage.spawner.limits == Limits()
    assert stage.act.state.danger == 1.0 and stage.act.state.why == ""


def test_health_drops_rise_under_prey_hp() -> None:
    for hp, factor in ((1.0, 1.0), (D.prey_hp + 0.01, 1.0), (D.prey_hp - 0.01, D.prey_pickup)):
        stage = Stage()
        stage(a_read(hp=hp), DirectorKnobs(pickup_rate=1.5))
        assert stage.param("pickup_rate_mult") == pytest.approx(min(3.0, 1.5 * factor))
        assert stage.spawner.limits.prey is (hp < D.prey_hp)


def test_the_limits_follow_the_read_and_the_reflexes() -> None:
    stage = Stage()
    read = a_read(kill_pace=90.0, present=4)
    stage(read, DirectorKnobs())
    lim = stage.spawner.limits
    assert lim == Limits(crowd_max_for(90.0, TUNING), presence_floor(read, TUNING), 4, False, False)
    assert lim.crowd_max > crowd_max_for(0.0, TUNING) == TUNING.bank.crowd_min, (
        "the crowd grows with the pace"
    )
    stage(read, DirectorKnobs(), Adjustment(), Adjustment(hold=True, why="grace"))
    assert stage.spawner.limits.hold and stage.act.state.why == "grace"
    stage(a_read(pacing=PacingState.RELAX), DirectorKnobs())
    assert stage.spawner.income_share == income(PacingState.RELAX), "the income follows the read's pacing"


def test_the_presence_floor_follows_the_kill_pace_and_keeps_a_share_of_it_after_a_peak() -> None:
    """Peak Fade and Relax keep ``[pacing] relax_income`` of the kill-pace floor (never under ``floor_min``):
    a calmer stretch, not the empty one a bare ``floor_min`` left a fast killer."""
    per_floor = 60.0 / P.view_kill_s  # kills a minute for one enemy of floor
    assert presence_floor(a_read(kill_pace=0.0), TUNING) == P.floor_min
    pace = per_floor * (P.floor_min + 2)
    assert presence_floor(a_read(kill_pace=pace), TUNING) == P.floor_min + 2
    assert presence_floor(a_read(kill_pace=1e6), TUNING) == P.floor_max
    assert presence_floor(a_read(kill_pace=pace, pacing=PacingState.SUSTAIN_PEAK), TUNING) == P.floor_min + 2
    fast = per_floor * P.floor_max  # a kill pace whose floor is floor_max in Build Up
    kept = max(P.floor_min, round(P.floor_max * TUNING.pacing.relax_income))
    for state in (PacingState.PEAK_FADE, PacingState.RELAX):
        assert presence_floor(a_read(kill_pace=0.0, pacing=state), TUNING) == P.floor_min, "never under it"
        assert presence_floor(a_read(kill_pace=fast, pacing=state), TUNING) == kept, state
    assert kept > P.floor_min, "the shipped tuning keeps more than floor_min for a fast killer"


def test_hp_limits_danger_but_never_the_presence_floor() -> None:
    pace = 60.0 / P.view_kill_s * (P.floor_min + 3)
    floors = {hp: presence_floor(a_read(hp=hp, kill_pace=pace), TUNING) for hp in (1.0, MID, LOW, 0.05)}
    assert len(set(floors.values())) == 1 and floors[1.0] > 0
    healthy, hurt = Stage(), Stage()
    healthy(a_read(hp=1.0, kill_pace=pace))
    hurt(a_read(hp=LOW, kill_pace=pace))
    assert hurt.spawner.limits.floor == healthy.spawner.limits.floor
    assert hurt.param("enemy_damage_mult") < healthy.param("enemy_damage_mult")


def test_a_shove_pushes_the_rows_out_clears_shots_and_drops_supply() -> None:
    stage = Stage()
    w = stage.world
    p = w.player
    for i in range(4):
        a = 2 * math.pi * i / 4
        w.spawn_enemy("grunt", p.x + math.cos(a) * 40, p.y + math.sin(a) * 40)
    w.spawn_enemy("grunt", p.x, p.y)  # right on the player: pushed some way, not left there
    far = w.spawn_enemy("grunt", p.x + 900, p.y)
    assert far >= 0
    near_shot = np.array([p.x + 20.0]), np.array([p.y])
    far_shot = np.array([p.x + 2 * TUNING.rescue.radius]), np.array([p.y])
    for x, y in (near_shot, far_shot):
        w.fire_enemy_bullets(x, y, np.zeros(1), np.zeros(1), np.ones(1))
    stage(a_read(hp=MID), DirectorKnobs(), Adjustment(shove=(0, 1, 2, 3, 4), supply=True))
    d = np.hypot(w.enemies.view("x") - p.x, w.enemies.view("y") - p.y)
    assert d[:5] == pytest.approx(np.full(5, TUNING.rescue.shove_to), abs=1.0), "out to shove_to"
    assert d[5] == pytest.approx(900.0), "a row the rescue did not name stays"
    assert w.enemy_bullets.n == 1, "shots within the radius are cleared, the far one stays"
    assert int((w.pickups.view("kind") == HEALTH).sum()) >= 1, "supply dropped"
    w.step()
    (rescued,) = [e for e in w.events if isinstance(e, ev.Rescued)]
    assert rescued.pushed == 5 and rescued.radius == TUNING.rescue.radius


def test_a_reflexs_supply_drops_even_while_the_supply_event_is_on_cooldown() -> None:
    """The reflex keeps its own cooldown (``[rescue] cooldown_s``): the act stage does not make it wait on
    the event's, which a plan's supply may have just started."""
    stage = Stage()
    w = stage.world
    stage.events.fire("supply", w, stage.spawner.placer)  # a plan's supply a moment ago
    assert "supply" not in stage.events.ready(w), "the event is on its cooldown"
    health = int((w.pickups.view("kind") == HEALTH).sum())
    stage(a_read(hp=LOW / 2), DirectorKnobs(), Adjustment(supply=True))
    assert int((w.pickups.view("kind") == HEALTH).sum()) > health, "the reflex's supply dropped all the same"


def test_the_director_composes_with_a_mod_value_and_static_mode_gives_it_back() -> None:
    d = Director("rules", seed=3)
    w = directed_world(d, seed=3)
    w.set_param("enemy_damage_mult", 2.0)
    for _ in range(10):  # the player acts: no grace
        w.step(PlayerInput(move_x=1.0))
        d.on_tick(w)
    expected = 2.0 * d.knobs.danger * hp_limit(w.player.hp_fraction, TUNING)
    assert w.params.get("enemy_damage_mult") == pytest.approx(expected)
    d.set_mode("static", w)
    tick(d, w)
    assert w.params.get("enemy_damage_mult") == 2.0
    assert w.params.get("enemy_speed_mult") == 1.0 and d.credit_spawner.limits == Limits()


def test_new_enemies_follow_a_build_that_outgrew_its_wave_and_static_keeps_them_as_designed() -> None:
    stage = Stage()
    w = stage.world
    stage()
    assert stage.spawner.hp_match == 1.0, "a wave-1 blaster is the curve's own build: enemies as designed"
    w.arsenal.evolve("blaster", "gatling")  # about 22x a wave-1 blaster's damage a second on paper
    stage()
    power = sheet_dps(w) / 48.0  # the blaster: 12 damage every 0.25 s
    expected = (power / TUNING.power.par) ** TUNING.power.follow
    assert stage.spawner.hp_match == pytest.approx(expected) and stage.act.state.hp_match > 1
    first = w.enemies.n
    w.spawn_enemy("grunt", w.player.x + 900, w.player.y)
    designed = float(w.enemies.view("max_hp")[first])
    stage.spawner.toughen_from(w, first)
    assert float(w.enemies.view("max_hp")[first]) == pytest.approx(designed * expected)
    stage.act.off(w, stage.spawner)
    assert stage.spawner.hp_match == 1.0, "static: no follow"


def test_a_weak_build_meets_a_boss_sized_to_it_and_static_the_authored_boss() -> None:
    stage = Stage()
    w = stage.world
    w.wave = 5  # a wave-1 blaster at wave 5: power 1 / enemy_hp_scale(5), well under boss_par
    stage()
    power = sheet_dps(w) / 48.0 / enemy_hp_scale(5)
    share = (power / TUNING.power.boss_par) ** TUNING.power.follow
    assert stage.spawner.boss_match == pytest.approx(share) and share < 1
    first = w.enemies.n
    w.spawn_enemy("boss", w.player.x + 900, w.player.y)  # the boss as authored at this wave
    stage.spawner.on_wave_start(w, 5)  # a boss wave
    authored, met = (float(v) for v in w.enemies.view("max_hp")[first : first + 2])
    assert met == pytest.approx(authored * share)
    w.arsenal.evolve("blaster", "gatling")
    stage()
    assert stage.spawner.boss_match == 1.0, "a build at boss_par or over meets the authored boss"
    stage.act.off(w, stage.spawner)
    assert stage.spawner.boss_match == 1.0, "static: the authored boss"
