"""The guard: every model plan that breaks a hard safety rule is overridden by the rules plan, recorded with
its reason (status ``guarded``) and counted; safe plans pass untouched; the rules source is never guarded."""

from __future__ import annotations

from typing import Any

import pytest
from director_support import ScriptedSource, plan, quiet_world, tick

from game.director import guard
from game.director.director import Director
from game.director.pacing import PacingState
from game.director.plan import DirectorPlan
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot
from game.director.trajectory import MemoryTrajectory


def situation(pacing: PacingState = PacingState.BUILD_UP, **snap: Any) -> DirectorSituation:
    base: dict[str, Any] = {"time": 60.0, "hp_fraction": 0.9}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**base, **snap}),
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
        (situation(seconds_since_death=4.0, deaths=1), p("raise"), "recovering"),
        (situation(seconds_since_death=4.0, deaths=1), p("spike"), "recovering"),
        (situation(hp_fraction=0.2), p("spike"), "recovering"),
        (situation(hp_fraction=0.2), p("hold", event="swarm"), "recovering"),
        (situation(hp_fraction=0.4, boss_alive=True), p("raise"), "boss_low_hp"),
        (situation(hp_fraction=0.4, boss_alive=True), p("hold", event="swarm"), "boss_low_hp"),
        (situation(PacingState.RELAX), p("spike"), "relax"),
        # a hold that hardens a knob is a raise by other means (it once passed while the player recovered)
        (situation(seconds_since_death=4.0, deaths=1), p("hold", toughness=1.5), "recovering"),
        (situation(hp_fraction=0.2), p("hold", elite_chance=0.08), "recovering"),
        (situation(hp_fraction=0.2), p("ease_off", tier=1.0), "recovering"),
        (situation(hp_fraction=0.2), p("hold", pickup_rate=0.5), "recovering"),
        (situation(hp_fraction=0.4, boss_alive=True), p("hold", toughness=2.0), "boss_low_hp"),
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
    "sit, asked",
    [
        (situation(seconds_since_death=4.0, deaths=1), p("ease_off")),
        (situation(seconds_since_death=4.0, deaths=1), p("hold")),
        (situation(PacingState.RELAX), p("raise")),
        (situation(hp_fraction=0.9, boss_alive=True), p("raise")),
        (situation(), p("spike", event="swarm")),
        (situation(hp_fraction=0.2), p("ease_off", event="supply")),  # health packs never add enemies
        (situation(hp_fraction=0.2), p("ease_off", pickup_rate=2.0, toughness=1.0)),  # easier or unchanged
        (situation(), p("hold", toughness=2.0, elite_chance=0.1)),  # a healthy player may get harder knobs
    ],
)
def test_safe_plans_pass(sit: DirectorSituation, asked: DirectorPlan) -> None:
    assert guard.check(sit, asked) is None


def test_the_director_overrides_records_and_counts() -> None:
    world = quiet_world()
    world.player.hp = world.player.stats.max_hp * 0.2  # low HP: never raise or spike
    source = ScriptedSource("local", [plan("spike", event="swarm", mix={"runner": 5.0})])
    director = Director("local", sources=(source,), trajectory=(sink := MemoryTrajectory()))
    tick(director, world)
    assert director.overridden == 1 and director.accepted == 1
    assert director.last_plan is not None and director.last_plan.pressure == "ease_off"
    assert director.knobs.pressure < 1.0, "the rules plan ran, not the spike"
    (rec,) = [d for d in sink.decisions if d.seq == 1]
    assert rec.status == "guarded" and rec.guard is not None
    assert rec.guard["rule"] == "recovering" and "spike" in rec.guard["asked"]
    assert rec.reply_plan is not None and rec.reply_plan["pressure"] == "spike", "what it asked is kept"
    assert not any(c["op"] == "burst" for c in rec.commands)
    events = [c["name"] for c in rec.commands if c["op"] == "event"]
    assert events == ["supply"], "no enemies added; the rules plan drops health packs at 20% HP"
    assert director.panel(world).overridden == 1


def test_the_rules_source_is_never_guarded() -> None:
    world = quiet_world()
    world.player.hp = world.player.stats.max_hp * 0.2
    director = Director("rules", trajectory=(sink := MemoryTrajectory()))
    tick(director, world)
    assert director.overridden == 0 and [d.status for d in sink.decisions] == ["accepted"]
