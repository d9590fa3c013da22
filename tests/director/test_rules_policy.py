"""The rules policy (``game/director/rules.py``), rule by rule, with every threshold read from the tuning:
easing lowers danger (the hits) in a hold that keeps the crowd's size, and only once danger is at its lowest
is it ``ease_off`` (pressure too); an under-challenged player gets danger back to 1 in a hold before a
``raise`` adds pressure; a player who is not healthy gets a hold; a Build Up without a peak for
``peak_due_s`` gets a spike (not beside a live boss); at the ceiling a skilled player escalates one lever a
decision, danger to its top first."""

from __future__ import annotations

from typing import Any

import pytest
from director_support import ScriptedSource, directed_world, plan, tick

from game.director.director import Director
from game.director.knobs import KNOB
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import (
    ANNOUNCER,
    DANGER_FIRST,
    EASE_FIRST,
    ESCALATE,
    MERCY_ENDS,
    SPIKE_EVENTS,
    decide,
    ease_floor,
    pressure_ceiling,
)
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot
from game.director.tuning import TUNING
from game.sim.player import PlayerInput

PL = TUNING.plan
DANGER_STEP = KNOB["danger"].max_step or 0.0
HEALTHY = {"hp_fraction": 1.0, "damage_15s": 0.0}
LEVERS = ("danger", "elite_chance", "toughness", "tier")  # what makes enemies hurt or last
LOWEST_DANGER = ease_floor(TUNING)  # the rules ease danger no lower
STRUGGLING = [
    {"seconds_since_death": PL.recent_death_s - 1.0, "deaths": 1},
    {"hp_fraction": PL.low_hp - 0.01},
    {"damage_15s": PL.heavy_damage_15s + 0.01, "hp_fraction": 0.9},
]


def _sit(
    knobs: DirectorKnobs | None = None,
    pacing: PacingState = PacingState.BUILD_UP,
    pacing_s: float = 5.0,
    since_spike_s: float = 999.0,
    events: tuple[str, ...] = ("supply", "swarm", "surround"),
    **snap: Any,
) -> DirectorSituation:
    base: dict[str, Any] = {"time": 120.0, "wave": 3, "level": 4, "skill": 0.5, **HEALTHY}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**base, **snap}),
        intensity=0.3,
        pacing=pacing,
        pacing_s=pacing_s,
        since_spike_s=since_spike_s,
        knobs=knobs or DirectorKnobs(),
        prefabs=["grunt", "runner", "spitter", "tank"],
        events=list(events),
    )


def _at_ceiling(skill: float, **knobs: Any) -> DirectorKnobs:
    return DirectorKnobs(pressure=pressure_ceiling(skill, 4, TUNING), **knobs)


# ---------------------------------------------------------------------------------------------- ease
def _eases(p: dict[str, Any]) -> bool:
    """Whether ``p`` is an easing plan: ``ease_off``, or the hold that softens the hits first."""
    return p["pressure"] == "ease_off" or (p["pressure"] == "hold" and p["reason"].endswith(EASE_FIRST))


@pytest.mark.parametrize("snap", STRUGGLING)
def test_a_struggling_player_gets_softer_hits_first_and_the_crowd_stays(snap: dict[str, Any]) -> None:
    knobs = DirectorKnobs(danger=1.0, elite_chance=0.16, toughness=2.0, tier=1.0)
    p = decide(_sit(knobs, **snap))
    assert p["pressure"] == "hold" and p["reason"].endswith(EASE_FIRST), "the crowd's size stays"
    assert p["danger"] == pytest.approx(1.0 - DANGER_STEP), "the hits come down a full step"
    assert p["elite_chance"] < 0.16 and p["toughness"] < 2.0 and p["tier"] < 1.0
    assert p["pickup_rate"] > knobs.pickup_rate
    assert p["mix"]["spitter"] < knobs.mix["spitter"], "fewer ranged enemies"
    assert p["announcer"] == ANNOUNCER["ease_off"]


@pytest.mark.parametrize("snap", STRUGGLING)
def test_once_danger_is_at_its_lowest_the_crowd_eases_too(snap: dict[str, Any]) -> None:
    knobs = DirectorKnobs(danger=LOWEST_DANGER, elite_chance=0.16, toughness=2.0, tier=1.0)
    p = decide(_sit(knobs, **snap))
    assert p["pressure"] == "ease_off", "danger at its lowest: the crowd's size comes down"
    assert _eases(p) and p["danger"] == pytest.approx(LOWEST_DANGER)
    assert p["elite_chance"] < 0.16 and p["toughness"] < 2.0 and p["tier"] < 1.0
    assert p["pickup_rate"] > knobs.pickup_rate and p["announcer"] == ANNOUNCER["ease_off"]
    above = DirectorKnobs(danger=LOWEST_DANGER + DANGER_STEP / 2)
    assert decide(_sit(above, **snap))["pressure"] == "hold", "a little danger left to take: a hold"


@pytest.mark.parametrize("snap", STRUGGLING)
def test_once_the_crowd_is_at_its_smallest_too_the_hits_soften_to_the_bottom(snap: dict[str, Any]) -> None:
    """A player the gentlest crowd still beats: past ``ease_floor``, danger falls to the knob's bottom."""
    bottom, smallest = KNOB["danger"].lo, KNOB["pressure"].lo
    assert bottom < LOWEST_DANGER
    p = decide(_sit(DirectorKnobs(danger=LOWEST_DANGER, pressure=smallest), **snap))
    assert p["pressure"] == "hold" and p["reason"].endswith(EASE_FIRST), "no smaller crowd to give"
    assert p["danger"] == pytest.approx(max(bottom, LOWEST_DANGER - DANGER_STEP)), "softer hits instead"
    p = decide(_sit(DirectorKnobs(danger=bottom, pressure=smallest), **snap))
    assert p["pressure"] == "ease_off" and p["danger"] == pytest.approx(bottom), "nothing softer left"
    bigger = DirectorKnobs(danger=LOWEST_DANGER, pressure=smallest + 0.05)
    p = decide(_sit(bigger, **snap))
    assert p["pressure"] == "ease_off" and p["danger"] == pytest.approx(LOWEST_DANGER), "the crowd first"


def test_ease_off_lowers_the_hits_at_once_and_keeps_the_presence_floor() -> None:
    """Applied by the director: enemy damage falls by the danger step; the crowd's income only by the
    ease_off factor; the presence floor (kill pace, not the plan) stays where it was."""
    src = ScriptedSource("scripted", [plan("hold"), plan("ease_off", danger=1.0 - DANGER_STEP)])
    d = Director("scripted", sources=(src,), decision_interval_s=1e9)
    w = directed_world(d, seed=2)
    w.wave_time_left = 1e9
    w.player.iframes = 1e9
    tick(d, w)  # the first decision: a hold
    d.credit_spawner.knobs = DirectorKnobs(danger=1.0)  # a run whose danger is back at 1
    for _ in range(10):  # the player acts: no grace factor
        w.step(PlayerInput(move_x=1.0))
        d.on_tick(w)
    hits, floor, pressure = w.params.get("enemy_damage_mult"), d.credit_spawner.limits.floor, d.knobs.pressure
    assert hits == pytest.approx(1.0) and floor > 0
    w.player.iframes = 0.0
    w.hurt_player(0.3 * w.player.stats.max_hp, "test")  # the player is taking hits: easing is allowed
    w.player.hp = w.player.stats.max_hp
    w.player.iframes = 1e9
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.pressure == "ease_off"
    assert w.params.get("enemy_damage_mult") == pytest.approx(1.0 - DANGER_STEP)
    assert d.knobs.pressure == pytest.approx(pressure * TUNING.decide.pressure_factor["ease_off"])
    assert d.credit_spawner.limits.floor == floor


@pytest.mark.parametrize("danger", [1.0, LOWEST_DANGER])
def test_easing_drops_supply_only_under_prey_hp_and_when_ready(danger: float) -> None:
    knobs = DirectorKnobs(danger=danger)
    low = min(PL.low_hp, TUNING.danger.prey_hp) - 0.01
    p = decide(_sit(knobs, hp_fraction=low))
    assert _eases(p) and p["event"] == "supply"
    assert "event" not in decide(_sit(knobs, hp_fraction=low, events=("swarm",))), "supply on cooldown"
    if TUNING.danger.prey_hp <= PL.low_hp:
        return
    above = _sit(knobs, hp_fraction=(TUNING.danger.prey_hp + 1.0) / 2, seconds_since_death=1.0, deaths=1)
    p = decide(above)
    assert _eases(p) and "event" not in p, "above prey_hp: no supply"


def test_a_death_eases_for_recent_death_s_then_no_longer() -> None:
    died: dict[str, Any] = {"deaths": 1, "deaths_60s": 1}
    for knobs in (DirectorKnobs(), DirectorKnobs(danger=LOWEST_DANGER)):
        assert _eases(decide(_sit(knobs, seconds_since_death=PL.recent_death_s - 1.0, **died)))
        assert not _eases(decide(_sit(knobs, seconds_since_death=PL.recent_death_s + 1.0, **died)))
        assert "note" in decide(_sit(knobs, seconds_since_death=1.0, **died)), (
            "a death is noted for the memory"
        )


# ---------------------------------------------------------------------------------------------- hold
@pytest.mark.parametrize(
    "snap",
    [
        {"hp_fraction": (PL.low_hp + TUNING.danger.hp_full) / 2},  # not low enough to ease, not healthy
        {"damage_15s": (PL.raise_damage_15s + PL.heavy_damage_15s) / 2},  # hurt, not beaten
    ],
)
def test_a_player_who_is_not_healthy_gets_a_hold(snap: dict[str, Any]) -> None:
    p = decide(_sit(DirectorKnobs(danger=1.0), pacing_s=PL.peak_due_s + 5.0, **snap))
    assert p["pressure"] == "hold", "neither a raise, nor the spike that is due"
    assert not set(LEVERS) & set(p), "no lever moves either way"


@pytest.mark.parametrize(
    "snap",
    [
        {"damage_15s": (PL.raise_damage_15s + PL.heavy_damage_15s) / 2},  # healed, still hit
        {"damage_60s": PL.raise_damage_60s + 0.05},  # healed, hit over the last minute
    ],
)
def test_a_healed_player_who_is_still_hit_loses_the_mercy(snap: dict[str, Any]) -> None:
    """Back above ``hp_full`` but still taking hits: not under-challenged, so no raise, but the easing a
    low moment brought (softer hits, extra health drops) wears off; the crowd's size stays."""
    p = decide(_sit(DirectorKnobs(danger=0.5, pickup_rate=2.0), pacing_s=PL.peak_due_s + 5.0, **snap))
    assert p["pressure"] == "hold" and p["reason"].endswith(MERCY_ENDS), p["reason"]
    assert p["danger"] > 0.5 and p["pickup_rate"] < 2.0 and "event" not in p
    hurt = _sit(DirectorKnobs(danger=0.5), hp_fraction=(PL.low_hp + TUNING.danger.hp_full) / 2, **snap)
    assert "danger" not in decide(hurt), "not back at full HP: the easing stays"
    learning = decide(_sit(DirectorKnobs(danger=0.5), wave=PL.learn_waves, **snap))
    assert "danger" not in learning and learning["reason"].endswith("hold"), "the learning waves' low danger"


# ---------------------------------------------------------------------------------------------- raise
def test_danger_comes_back_to_1_in_a_hold_before_pressure_rises() -> None:
    low = TUNING.plan.opening_danger
    p = decide(_sit(DirectorKnobs(danger=low)))
    assert p["pressure"] == "hold" and p["reason"].endswith(DANGER_FIRST), "the crowd's size stays"
    assert p["danger"] == pytest.approx(min(1.0, low + DANGER_STEP)) and p["announcer"] == ANNOUNCER["raise"]
    assert p["pickup_rate"] <= DirectorKnobs().pickup_rate and "event" not in p
    assert decide(_sit(DirectorKnobs(danger=1.0 - DANGER_STEP / 2)))["danger"] == 1.0, "never past 1"
    p = decide(_sit(DirectorKnobs(danger=1.0, pressure=1.0)))
    assert p["pressure"] == "raise" and "danger" not in p, "danger at 1: pressure rises"


def _raises_from_the_opening(n: int) -> list[tuple[float, float, float]]:
    """(danger, pressure, ceiling) after each of ``n`` decisions for a player who is never hurt."""
    d = Director("rules")
    w = directed_world(d, seed=4)
    w.wave_time_left = 1e9
    w.player.iframes = 1e9  # never hurt: danger-first holds, then raises (or a hold at the top)
    out = []
    for _ in range(n):
        d.request_now()
        w.step(PlayerInput(move_x=1.0))
        d.on_tick(w)
        snap = d.situation(w).snapshot
        out.append((d.knobs.danger, d.knobs.pressure, pressure_ceiling(snap.skill, snap.level, TUNING)))
    return out


def test_the_director_walks_danger_up_to_1_first() -> None:
    steps = _raises_from_the_opening(6)
    dangers = [x for x, _, _ in steps]
    assert dangers[0] > TUNING.plan.opening_danger, "the first raise lifts the danger"
    up = next(i for i, x in enumerate(dangers) if x >= 1.0)
    assert dangers[: up + 1] == sorted(dangers[: up + 1]) and dangers[up:] == [1.0] * (len(dangers) - up)


def test_pressure_waits_for_danger_and_stays_under_the_ceiling() -> None:
    steps = _raises_from_the_opening(6)
    start = DirectorKnobs().pressure
    for danger, pressure, ceiling in steps:
        if danger < 1.0:
            assert pressure == pytest.approx(start), steps
        assert pressure <= max(start, ceiling) + 1e-9, steps


def test_the_pressure_ceiling_rises_with_skill_and_is_capped_by_level() -> None:
    (s0, s1), (p0, p1) = PL.ceiling_skill, PL.ceiling_pressure
    high_level = 99
    assert pressure_ceiling(s0, high_level, TUNING) == pytest.approx(p0)
    assert pressure_ceiling(s1, high_level, TUNING) == pytest.approx(p1)
    assert pressure_ceiling((s0 + s1) / 2, high_level, TUNING) == pytest.approx((p0 + p1) / 2)
    assert pressure_ceiling(1.0, 1, TUNING) < pressure_ceiling(1.0, high_level, TUNING), "a level-1 cap"
    assert pressure_ceiling(0.0, 1, TUNING) >= p0, "the cap never goes under the lowest ceiling"


def test_at_the_ceiling_a_skilled_player_escalates_one_lever_an_average_one_holds() -> None:
    skilled = PL.escalate_skill + 0.1
    p = decide(_sit(_at_ceiling(skilled), skill=skilled))
    assert p["pressure"] == "hold" and p["reason"].endswith(ESCALATE)
    raised = [n for n in LEVERS if n in p]
    assert len(raised) == 1 and p[raised[0]] > getattr(DirectorKnobs(), raised[0])
    plain = PL.escalate_skill - 0.1
    p = decide(_sit(_at_ceiling(plain), skill=plain))
    assert p["pressure"] == "hold" and not set(LEVERS) & set(p)


def test_escalation_raises_danger_then_tier_before_toughness_and_elites() -> None:
    skilled = PL.escalate_skill + 0.1
    top = KNOB["danger"].hi
    for danger in (1.0, top - DANGER_STEP / 2):
        p = decide(_sit(_at_ceiling(skilled, danger=danger), skill=skilled))
        assert p["reason"].endswith(ESCALATE) and [n for n in LEVERS if n in p] == ["danger"]
        assert p["danger"] == pytest.approx(min(top, danger + DANGER_STEP)), "harder hits first, to the top"
    p = decide(_sit(_at_ceiling(skilled, danger=top), skill=skilled))
    assert p["pressure"] == "hold" and p["reason"].endswith(ESCALATE)
    assert [n for n in LEVERS if n in p] == ["tier"] and p["tier"] == KNOB["tier"].max_step, (
        "then later kinds and more credits: threat that adds kills"
    )
    k = _at_ceiling(skilled, danger=top)
    p = decide(_sit(k.model_copy(update={"tier": KNOB["tier"].hi}), skill=skilled))
    assert p["pressure"] == "hold" and p["reason"].endswith(ESCALATE)
    (lever,) = [n for n in LEVERS if n in p]
    assert lever in ("toughness", "elite_chance") and p[lever] > getattr(DirectorKnobs(), lever), (
        "enemies that last longer only once tier is at its top"
    )


def test_a_peak_past_every_ceiling_is_lean_and_an_easing_brings_the_drops_back() -> None:
    """With pressure at its top, a spike or an escalation thins health drops toward ``peak_pickup`` (a crowd
    that size would heal whoever thins it); under the top they stay; an easing raises them again."""
    top, step = KNOB["pressure"].hi, KNOB["pickup_rate"].max_step or 0.0
    due = {"seconds_since_low": PL.threat_every_s + 1, "skill": PL.escalate_skill + 0.1}
    k = DirectorKnobs(pressure=top)
    p = decide(_sit(k, **due))
    assert p["pressure"] == "spike" and p["pickup_rate"] == pytest.approx(max(PL.peak_pickup, 1.0 - step))
    p = decide(_sit(k, events=(), **due))
    assert p["reason"].endswith(ESCALATE) and p["pickup_rate"] < 1.0, "no event ready: an escalation, as lean"
    lean = k.model_copy(update={"pickup_rate": PL.peak_pickup})
    assert decide(_sit(lean, events=(), **due))["pickup_rate"] == pytest.approx(PL.peak_pickup), "no leaner"
    skilled = PL.escalate_skill + 0.1
    p = decide(_sit(_at_ceiling(skilled), skill=skilled))
    assert p["reason"].endswith(ESCALATE) and "pickup_rate" not in p, "under the top the drops stay"
    p = decide(_sit(lean, hp_fraction=PL.low_hp - 0.01))
    assert _eases(p) and p["pickup_rate"] > PL.peak_pickup, "a close call brings the drops back"


# ---------------------------------------------------------------------------------------------- spike
def test_a_build_up_without_a_peak_for_peak_due_s_gets_a_spike() -> None:
    due = PL.peak_due_s + 1.0
    p = decide(_sit(pacing_s=due))
    assert p["pressure"] == "spike" and p["event"] in SPIKE_EVENTS
    assert decide(_sit(pacing_s=PL.peak_due_s - 1.0))["pressure"] != "spike", "not due yet"
    assert decide(_sit(pacing_s=due, since_spike_s=PL.peak_due_s - 1.0))["pressure"] != "spike", (
        "a recent spike"
    )
    assert decide(_sit(pacing=PacingState.RELAX, pacing_s=due))["pressure"] != "spike", "only in Build Up"
    assert decide(_sit(pacing_s=due, boss_in_view=True))["pressure"] != "spike", "a live boss is the peak"
    assert decide(_sit(pacing_s=due, events=()))["event"] is None, "no spike event ready: the burst alone"


def test_a_live_boss_is_the_peak_nothing_is_raised_on_top_of_it_but_the_threat_clock_still_runs() -> None:
    due = PL.peak_due_s + 1.0
    boss = {"boss_in_view": True}
    p = decide(_sit(pacing_s=due, **boss))
    assert p["pressure"] == "hold" and p.get("event") is None, "no spike, no raise beside the boss"
    opening = DirectorKnobs(danger=TUNING.plan.opening_danger)
    assert decide(_sit(opening, **boss)).get("danger") is None, "danger is not raised in a boss fight"
    skilled = PL.escalate_skill + 0.1
    assert "tougher" not in decide(_sit(_at_ceiling(skilled), skill=skilled, **boss))["reason"]
    assert _eases(decide(_sit(hp_fraction=PL.low_hp - 0.01, **boss))), "a hurt player in a boss fight eases"
    calm = decide(_sit(opening, seconds_since_low=PL.threat_every_s + 1, **boss))
    assert calm["reason"].endswith(DANGER_FIRST), "a boss that never hurt: the clock runs"


def test_a_spike_for_a_hurt_player_waits() -> None:
    due = PL.peak_due_s + 1.0
    hurt = (PL.low_hp + TUNING.danger.hp_full) / 2
    assert decide(_sit(pacing_s=due, hp_fraction=hurt))["pressure"] == "hold"
    assert _eases(decide(_sit(pacing_s=due, hp_fraction=PL.low_hp - 0.01)))
    lowest = DirectorKnobs(danger=LOWEST_DANGER)
    assert _eases(decide(_sit(lowest, pacing_s=due, hp_fraction=PL.low_hp - 0.01)))


def test_the_director_spikes_a_coasting_player_after_peak_due_s() -> None:
    d = Director("rules")
    w = directed_world(d, seed=6)
    w.wave_time_left = 1e9
    w.player.iframes = 1e9
    for _ in range(10):
        w.step(PlayerInput(move_x=1.0))
        d.on_tick(w)
    d.pacing.time_in_state = PL.peak_due_s + 1.0  # a long Build Up without a peak
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.pressure == "spike"
    assert d.spike_at == pytest.approx(w.time) and d.situation(w).since_spike_s < 1.0
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.pressure != "spike", "the next waits peak_due_s again"
