"""The guard: every model plan that breaks a hard safety rule is overridden by the rules plan, recorded with
its reason (status ``guarded``) and counted; safe plans pass untouched; the rules source is never guarded."""

from __future__ import annotations

import json
from typing import Any

import pytest
from director_support import ScriptedSource, plan, quiet_world, tick

from game.director import guard
from game.director.director import Director
from game.director.events import EASING_EVENTS
from game.director.knobs import KNOB
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.source import DirectorSituation, PlanReply, PlanRequest
from game.director.telemetry import GameSessionSnapshot
from game.director.tuning import TUNING, Tuning, tuning
from game.director.validate import vet_reply
from game.headless_runs.trajectory_file import MemoryTrajectory
from game.render.ai_panels.director_view import panel_view

HURT = TUNING.plan.low_hp / 2  # under the ease-off line
RECENT = TUNING.plan.recent_death_s / 4  # a death this many seconds ago is recent
BOSS_OK = (TUNING.plan.low_hp + 1.0) / 2  # above it, in a boss fight
STRAINED = (TUNING.plan.low_hp + TUNING.danger.hp_full) / 2  # not recovering, but under the raise line
SKILLED = (TUNING.plan.escalate_skill + 1.0) / 2  # rated past the escalation line
THREAT_DUE = TUNING.plan.threat_every_s + 1.0  # this long without real danger: a peak that threatens is due
AT_TOP = DirectorKnobs(pressure=KNOB["pressure"].hi)


def situation(
    pacing: PacingState = PacingState.BUILD_UP, knobs: DirectorKnobs | None = None, **snap: Any
) -> DirectorSituation:
    base: dict[str, Any] = {"time": 60.0, "hp_fraction": 0.9}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**base, **snap}),
        knobs=knobs or DirectorKnobs(),
        intensity=0.1,
        pacing=pacing,
        prefabs=["grunt", "runner", "spitter", "tank"],
        events=["swarm", "boss"],
    )


def p(pressure: str, **fields: Any) -> DirectorPlan:
    return DirectorPlan.model_validate(plan(pressure, **fields))


@pytest.mark.parametrize(
    "sit, asked, rule",
    [
        (situation(seconds_since_death=RECENT, deaths=1), p("raise"), "recovering"),
        (situation(seconds_since_death=RECENT, deaths=1), p("spike"), "recovering"),
        (situation(hp_fraction=HURT), p("spike"), "recovering"),
        (situation(hp_fraction=HURT), p("hold", event="swarm"), "recovering"),
        (situation(hp_fraction=HURT, boss_in_view=True), p("raise"), "recovering"),
        (situation(hp_fraction=HURT, boss_in_view=True), p("hold", event="swarm"), "recovering"),
        (situation(PacingState.RELAX), p("spike"), "relax"),
        # a hold that hardens a knob is a raise by other means (it once passed while the player recovered)
        (situation(seconds_since_death=RECENT, deaths=1), p("hold", toughness=1.5), "recovering"),
        (situation(hp_fraction=HURT), p("hold", elite_chance=0.08), "recovering"),
        (situation(hp_fraction=HURT), p("ease_off", tier=1.0), "recovering"),
        (situation(hp_fraction=HURT), p("hold", pickup_rate=0.5), "recovering"),
        (situation(hp_fraction=HURT, boss_in_view=True), p("hold", toughness=2.0), "recovering"),
        (situation(hp_fraction=HURT), p("hold", danger=1.2), "recovering"),  # harder hits: the danger knob
        # hurt or under fire but not recovering: no raise (a model once raised a novice to the top this way)
        (situation(hp_fraction=STRAINED), p("raise"), "strained"),
        (situation(damage_15s=TUNING.plan.raise_damage_15s), p("spike"), "strained"),
        (situation(damage_60s=TUNING.plan.raise_damage_60s), p("hold", tier=1.0), "strained"),
        # healthy, but pushed past what the player is rated for with no threat due
        (situation(knobs=AT_TOP), p("raise"), "ceiling"),
        (situation(skill=0.3), p("hold", danger=1.2), "ceiling"),
        (situation(skill=0.3), p("hold", toughness=1.5), "ceiling"),
    ],
)
def test_a_plan_against_a_hard_rule_is_caught(sit: DirectorSituation, asked: DirectorPlan, rule: str) -> None:
    verdict = guard.check(sit, asked)
    assert verdict is not None and verdict.rule == rule
    replacement = DirectorPlan.model_validate(guard.override(sit, verdict))
    assert guard.check(sit, replacement) is None, "the override itself is safe"
    assert replacement.reason.startswith(f"guard ({rule})") and asked.pressure in replacement.reason
    assert guard.harder_knobs(sit, replacement) == [], "the override hardens no knob"


@pytest.mark.parametrize(
    "asked",
    [p("ease_off"), p("hold", danger=0.6), p("hold", pickup_rate=2.0), p("raise", danger=0.5)],
)
def test_a_model_may_not_take_the_stakes_out_of_the_game(asked: DirectorPlan) -> None:
    """A healthy, untouched player: easing (fewer enemies, softer hits, more health) is refused, so a run
    a model directs can still be lost; the rules plan for the same situation applies instead."""
    healthy = situation(hp_fraction=1.0, damage_15s=0.0)
    verdict = guard.check(healthy, asked)
    assert verdict is not None and verdict.rule == "stakes", asked
    replacement = DirectorPlan.model_validate(guard.override(healthy, verdict))
    assert guard.check(healthy, replacement) is None, "the override itself is allowed"
    assert replacement.pressure != "ease_off"
    assert guard.check(situation(hp_fraction=HURT), p("ease_off")) is None, "easing a hurt player is fine"


def test_a_boss_fight_at_low_hp_is_named_in_the_verdict() -> None:
    verdict = guard.check(situation(hp_fraction=HURT, boss_in_view=True), p("raise"))
    assert verdict is not None and verdict.rule == "recovering" and "boss fight" in verdict.why


@pytest.mark.parametrize(
    "sit, asked",
    [
        (situation(seconds_since_death=RECENT, deaths=1), p("ease_off")),
        (situation(seconds_since_death=RECENT, deaths=1), p("hold")),
        (situation(PacingState.RELAX), p("raise")),
        (situation(hp_fraction=0.9, boss_in_view=True), p("raise")),
        (situation(hp_fraction=BOSS_OK, boss_in_view=True), p("raise")),  # no boss rule of its own any more
        (situation(hp_fraction=HURT), p("ease_off", danger=0.6)),  # softer hits are always allowed
        (situation(), p("spike", event="swarm")),
        (situation(hp_fraction=HURT), p("ease_off", event="supply")),  # health packs never add enemies
        (situation(hp_fraction=HURT), p("ease_off", pickup_rate=2.0, toughness=1.0)),  # easier or unchanged
        (situation(skill=SKILLED), p("hold", toughness=2.0, elite_chance=0.1)),  # a skilled one: harder knobs
        (situation(seconds_since_low=THREAT_DUE), p("hold", toughness=2.0)),  # a threat due: anyone
        (situation(seconds_since_low=THREAT_DUE, knobs=AT_TOP), p("raise")),  # ... past the ceiling too
        (situation(hp_fraction=STRAINED), p("ease_off")),  # hurt: easing is the model's call
        (situation(hp_fraction=STRAINED), p("hold", danger=0.8)),
    ],
)
def test_safe_plans_pass(sit: DirectorSituation, asked: DirectorPlan) -> None:
    assert guard.check(sit, asked) is None


def test_the_director_overrides_records_and_counts() -> None:
    world = quiet_world()
    world.player.hp = world.player.stats.max_hp * HURT  # low HP: never raise or spike
    source = ScriptedSource("local", [plan("spike", event="swarm", mix={"runner": 5.0})])
    director = Director("local", sources=(source,), trajectory=(sink := MemoryTrajectory()))
    tick(director, world)
    assert director.overridden == 1 and director.accepted == 1
    # wave 1 (a first-timer learns): the rules plan softens the hits below the opening danger, never a spike
    assert director.last_plan is not None and director.last_plan.pressure == "hold"
    assert director.knobs.danger < TUNING.plan.opening_danger, "the rules plan ran: softer hits"
    assert director.knobs.pressure <= KNOB["pressure"].default, "not the spike: no bigger crowd"
    (rec,) = [d for d in sink.decisions if d.seq == 1]
    assert rec.status == "guarded" and rec.guard is not None
    assert rec.guard["rule"] == "recovering" and "spike" in rec.guard["asked"]
    assert rec.reply_plan is not None and rec.reply_plan["pressure"] == "spike", "what it asked is kept"
    assert not any(c["op"] == "burst" for c in rec.commands)
    events = [c["name"] for c in rec.commands if c["op"] == "event"]
    assert events == ["supply"], "no enemies added; the rules plan drops health packs at low HP"
    assert panel_view(director, world).overridden == 1


def test_the_rules_source_is_never_guarded() -> None:
    world = quiet_world()
    world.player.hp = world.player.stats.max_hp * HURT
    director = Director("rules", trajectory=(sink := MemoryTrajectory()))
    tick(director, world)
    assert director.overridden == 0 and [d.status for d in sink.decisions] == ["accepted"]


@pytest.mark.parametrize("asked", [plan("raise"), plan("hold", event="swarm")])
def test_the_guard_reads_the_players_preset(asked: dict[str, Any]) -> None:
    """Between normal's ``hp_full`` and easy's, a model's raise stands on normal and is overridden on easy
    (through the director's own step, ``validate.vet_reply``): the guard holds where the preset does."""
    normal, easy = tuning("normal"), tuning("easy")
    assert easy.danger.hp_full > normal.danger.hp_full, "the shipped easy preset holds at a higher HP"
    sit = situation(hp_fraction=(normal.danger.hp_full + easy.danger.hp_full) / 2)
    req = PlanRequest(seq=1, trace_id="t-1", tick=1, situation=sit)
    reply = PlanReply(json.dumps(asked), asked, "local", 0.0, req.trace_id)

    def vet(t: Tuning) -> tuple[Any, guard.GuardVerdict | None]:
        return vet_reply(
            req,
            reply,
            sit.knobs,
            prefabs=sit.prefabs,
            events=sit.events,
            event_not_ready=lambda _e: None,
            tuning=t,
        )

    vp, verdict = vet(normal)
    assert verdict is None and vp.plan.pressure == asked["pressure"] and vp.plan.event == asked.get("event")
    vp, verdict = vet(easy)
    assert verdict is not None and verdict.rule == "strained", "easy's hp_full: the player is under the line"
    assert vp.plan.pressure in ("hold", "ease_off") and vp.plan.event in (None, *EASING_EVENTS)
    assert guard.harder_knobs(sit, vp.plan) == [], "easy's rules plan: nothing harder"
    assert guard.check(sit, vp.plan, easy) is None, "the override is safe under the same preset"
    default = guard.check(sit, DirectorPlan.model_validate(asked))
    assert default is None, "without the preset the guard reads normal's tuning"
