"""The deterministic ``rules`` plan source: situation in, plan out, no model. It is the offline default and
the yardstick the LLM sources are measured against; its plans go through the same validation as theirs.

Policy, first match wins (values: ``[plan]`` of ``assets/director/tuning.toml``, the player's difficulty
preset overlaid):

1. **Recover**: a death in the last ``recent_death_s``, HP under ``low_hp``, or ``heavy_damage_15s`` of a
   bar lost in 15 s. Danger comes down first (the ``danger`` knob, elites, toughness, tier, the ranged
   share of the mix) in a ``hold``: the crowd's size stays; once danger is at ``ease_floor``, ``ease_off``
   lowers pressure too; once pressure is at its bottom as well, danger may fall to the knob's bottom (a
   player the gentlest crowd still beats). Health drops rise, and under ``[danger] prey_hp`` the plan
   drops ``supply``.
2. **Threat**: no real danger (HP under ``threat_hp``) for ``threat_every_s`` and HP at least ``[danger]
   hp_full``: a peak that threatens, for every player, the strong included. Danger back to 1, then pressure
   past the skill ceiling to its top, then the levers past pressure. With pressure at its top, an
   escalation or a spike also thins health drops toward ``peak_pickup`` (a crowd that size would
   otherwise heal whoever thins it). After the close call the recovery above eases it again (health drops
   rise at once): the run rises and falls, and a player can lose.
3. **Under-challenged** (HP at least ``[danger] hp_full``, under ``raise_damage_15s`` of a bar lost in 15 s
   and under ``raise_damage_60s`` in 60 s: what the player suffers, not the intensity the director steers),
   and no boss in view (a boss fight is the peak: nothing is raised on top of it): after ``peak_due_s`` of
   Build Up without a peak (and as long since the last spike), ``spike`` with ``surround`` (a ring from
   every side) or ``swarm``. Otherwise danger back to 1 first (a ``hold``: the crowd's size stays), then
   ``raise``: pressure up to the ceiling the skill estimate and the player's
   level allow (``pressure_ceiling``), then, for a player rated ``escalate_skill``, the levers past
   pressure, one a decision: danger above 1 (harder, faster hits) to its top, then ``tier`` (more and
   later kinds, sooner: threat that adds kills), then toughness and elites in turn.
4. Otherwise ``hold``, unless the player is back at ``[danger] hp_full`` and still hit (either damage
   threshold above) with danger under 1 or health drops above 1x, past the first ``learn_waves`` waves
   (there the opening's low danger is the lesson, not a mercy): then ``danger_up`` (a ``hold`` that steps
   both back toward 1, the crowd's size staying). The mercy a low moment brought wears off once the player
   is back up, instead of lasting for the rest of the run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import Future
from enum import Enum
from typing import Any

from game.director.knobs import KNOB, MIX_WEIGHT
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs, Pressure
from game.director.source import DirectorSituation, PlanReply, PlanRequest
from game.director.tuning import Tuning, preset_names, tuning

EASE_EVENT, SPIKE_EVENTS = "supply", ("surround", "swarm")  # the events the policy names
ESCALATE = "tougher enemies"  # the reason's last words for Move.ESCALATE (tests read a plan's move by them)
EASE_FIRST = "softer hits first"  # ... for Move.EASE
DANGER_FIRST, MERCY_ENDS = "danger back up first", "mercy wears off"  # ... for Move.DANGER_UP

ANNOUNCER: dict[str, str] = {  # the line each pressure's plan shows the player
    "ease_off": "Catch your breath.",
    "hold": "",
    "raise": "They're getting bolder.",
    "spike": "Here they come!",
}


class Move(Enum):
    """What a rules decision does (``_choose``); ``decide`` builds the plan from it, with the pressure
    ``PRESSURE`` names (``hold`` for the others)."""

    EASE = "ease"  # a hold that softens the hits (danger, elites, toughness, tier, the mix): size stays
    EASE_OFF = "ease_off"  # the same with pressure down too (danger is at its lowest)
    DANGER_UP = "danger_up"  # a hold that brings danger back up to 1: size stays
    RAISE = "raise"  # pressure up toward the ceiling
    SPIKE = "spike"  # a peak now (surround or swarm)
    ESCALATE = "escalate"  # a hold that raises one lever past pressure (a skilled player)
    HOLD = "hold"


PRESSURE: dict[Move, Pressure] = {Move.EASE_OFF: "ease_off", Move.RAISE: "raise", Move.SPIKE: "spike"}


def pressure_ceiling(skill: float, level: int, t: Tuning) -> float:
    """How far plain pressure may rise for this skill estimate and player level."""
    p = t.plan
    (s0, s1), (p0, p1) = p.ceiling_skill, p.ceiling_pressure
    share = min(1.0, max(0.0, (skill - s0) / (s1 - s0))) if s1 > s0 else 1.0
    base, per_level = p.level_cap
    return min(p0 + (p1 - p0) * share, max(base + per_level * (level - 1), p0))


def ease_floor(t: Tuning, wave: int = 2, k: DirectorKnobs | None = None) -> float:
    """The lowest danger the rules ease to: ``[plan] ease_floor``, never under the knob's range; the knob's
    bottom in the first ``learn_waves`` waves (a first-timer learns the game) and once pressure is at its
    bottom too (``k``: a player the gentlest crowd still beats gets softer hits, not a smaller crowd)."""
    if wave <= t.plan.learn_waves or (k is not None and k.pressure <= KNOB["pressure"].lo):
        return KNOB["danger"].lo
    return max(KNOB["danger"].lo, t.plan.ease_floor)


def escalated(k: DirectorKnobs) -> bool:
    """Whether a lever past pressure is raised (danger above 1, elites, tier, toughness)."""
    return k.danger > 1.0 or k.elite_chance > 0.0 or k.tier > 0.0 or k.toughness > KNOB["toughness"].lo


def _choose(s: DirectorSituation, t: Tuning) -> tuple[Move, str]:
    move, reason = _recover(s, t)
    if move is not Move.HOLD:
        return move, reason
    snap, p, k, full = s.snapshot, t.plan, s.knobs, s.snapshot.hp_fraction >= t.danger.hp_full
    if snap.seconds_since_low >= p.threat_every_s and full:
        return _threaten(s, t)
    hurt = f"{snap.hp_fraction:.0%} HP, {snap.damage_15s:.0%}/{snap.damage_60s:.0%} of a bar lost in 15s/60s"
    hit = snap.damage_15s >= p.raise_damage_15s or snap.damage_60s >= p.raise_damage_60s
    if not full or hit:  # back at full HP but still hit, past the learning waves: the mercy wears off
        eased = full and snap.wave > p.learn_waves and max(1.0 - k.danger, k.pickup_rate - 1.0) > 0.0
        return (Move.DANGER_UP, f"{hurt}: {MERCY_ENDS}") if eased else (Move.HOLD, f"{hurt}: hold")
    if snap.boss_in_view:  # a boss fight is the peak: nothing raised on top of it
        return Move.HOLD, "the boss is the peak: hold"
    if s.pacing is PacingState.BUILD_UP and min(s.pacing_s, s.since_spike_s) >= p.peak_due_s:
        return Move.SPIKE, f"{s.pacing_s:.0f}s of build-up without a peak: bring one"
    untouched = f"{snap.damage_15s:.0%} of a bar lost in 15s"
    if k.danger < 1.0:
        return Move.DANGER_UP, f"under-challenged ({untouched}): {DANGER_FIRST}"
    ceiling = pressure_ceiling(snap.skill, snap.level, t)
    if k.pressure < ceiling:
        return Move.RAISE, f"under-challenged ({untouched}): pressure toward {ceiling:.2f}"
    if snap.skill >= p.escalate_skill:
        return Move.ESCALATE, f"pressure at its ceiling {ceiling:.2f}, skill {snap.skill:.2f}: {ESCALATE}"
    return Move.HOLD, f"under-challenged, but pressure {k.pressure:.2f} is at the ceiling {ceiling:.2f}"


def _threaten(s: DirectorSituation, t: Tuning) -> tuple[Move, str]:
    """No real danger for ``threat_every_s``: a peak that threatens, for every player. Danger back to 1,
    then pressure past the skill ceiling to its top, then the levers past pressure, one a decision."""
    k = s.knobs
    why = f"no real danger for {s.snapshot.seconds_since_low:.0f}s"
    if k.danger < 1.0:
        return Move.DANGER_UP, f"{why}: {DANGER_FIRST}"
    if k.pressure < KNOB["pressure"].hi:
        return Move.RAISE, f"{why}: pressure up"
    ready = any(e in s.events for e in SPIKE_EVENTS)
    if ready and not s.snapshot.boss_in_view and s.since_spike_s >= t.plan.threat_spike_s:
        return Move.SPIKE, f"{why}: a peak that threatens"
    return Move.ESCALATE, f"{why}: {ESCALATE}"


def _recover(s: DirectorSituation, t: Tuning) -> tuple[Move, str]:
    """``EASE_OFF`` (or, while danger can still come down, ``EASE``: the crowd's size eases last) with its
    reason; ``HOLD`` when the player needs no easing."""
    snap, p = s.snapshot, t.plan
    if snap.seconds_since_death < p.recent_death_s:
        why = f"player died {snap.seconds_since_death:.0f}s ago"
    elif snap.hp_fraction < p.low_hp:
        why = f"player at {snap.hp_fraction:.0%} HP"
    elif snap.damage_15s > p.heavy_damage_15s:
        why = f"player lost {snap.damage_15s:.0%} HP in 15s"
    else:
        return Move.HOLD, ""
    if s.knobs.danger > ease_floor(t, snap.wave, s.knobs):
        return Move.EASE, f"{why}: {EASE_FIRST}"  # the crowd eases once danger is at ease_floor
    return Move.EASE_OFF, f"{why}: ease off"


def _escalation_lever(k: DirectorKnobs, t: Tuning) -> str:
    """The lever a skilled player's next escalation raises: danger (the hits they take) to its top first,
    then ``tier`` (later, costlier kinds and more credits: threat that adds kills), and only then elites and
    toughness in turn (elite chance kept near 1/``elite_per_toughness`` of the toughness added: both make
    enemies last longer, which lowers the kill pace the crowd is sized by)."""
    if k.danger < KNOB["danger"].hi:
        return "danger"
    if k.tier < KNOB["tier"].hi:
        return "tier"
    if k.elite_chance >= KNOB["elite_chance"].hi:  # elites at their top: toughness goes on alone
        return "toughness"
    if k.toughness >= KNOB["toughness"].hi:
        return "elite_chance"
    return "toughness" if k.elite_chance * t.mix.elite_per_toughness >= k.toughness - 1.0 else "elite_chance"


def _step(name: str, value: float, sign: int) -> float:
    knob = KNOB[name]
    return knob.clamp(value + sign * (knob.max_step or 0.0))


def decide(s: DirectorSituation, t: Tuning | None = None) -> dict[str, Any]:
    """The rules plan for ``s`` as the tool-argument dict (validated and clamped by the director)."""
    t = t or tuning()
    move, reason = _choose(s, t)
    pressure = PRESSURE.get(move, "hold")
    k, snap = s.knobs, s.snapshot
    plan: dict[str, Any] = {"pressure": pressure, "reason": reason[:120], "announcer": ANNOUNCER[pressure]}
    allowed = set(s.prefabs)
    if move in (Move.EASE, Move.EASE_OFF):
        plan["announcer"] = ANNOUNCER["ease_off"]
        plan["danger"] = max(min(k.danger, ease_floor(t, snap.wave, k)), _step("danger", k.danger, -1))
        plan["pickup_rate"] = _step("pickup_rate", k.pickup_rate, +1)
        plan["mix"] = _shift(k.mix, allowed, t.mix.start, t.mix.ease)
        for name in ("elite_chance", "toughness", "tier"):
            if getattr(k, name) > KNOB[name].lo:
                plan[name] = _step(name, getattr(k, name), -1)
        if snap.hp_fraction < t.danger.prey_hp and EASE_EVENT in s.events:
            plan["event"] = EASE_EVENT
        if snap.seconds_since_death < t.plan.recent_death_s:
            plan["note"] = f"player died at wave {snap.wave} with pressure {k.pressure:.2f}"
    elif move in (Move.RAISE, Move.SPIKE, Move.DANGER_UP):
        plan["pickup_rate"] = max(KNOB["pickup_rate"].default, _step("pickup_rate", k.pickup_rate, -1))
        if k.danger < 1.0:
            plan["danger"] = min(1.0, _step("danger", k.danger, +1))
            plan["announcer"] = ANNOUNCER["raise"]
        plan["mix"] = _shift(k.mix, allowed, t.mix.start, t.mix.raise_)
        if move is Move.SPIKE:
            plan["event"] = next((e for e in SPIKE_EVENTS if e in s.events), None)
    elif move is Move.ESCALATE:  # one lever a decision: harder hits first, then elites and toughness
        lever = _escalation_lever(k, t)
        plan[lever] = _step(lever, getattr(k, lever), +1)
        plan["mix"] = _shift(k.mix, allowed, t.mix.start, t.mix.escalate)
    if move in (Move.ESCALATE, Move.SPIKE) and k.pressure >= KNOB["pressure"].hi:  # a peak past every ceiling
        plan["pickup_rate"] = max(t.plan.peak_pickup, _step("pickup_rate", min(k.pickup_rate, 1.0), -1))
    return plan


def _shift(
    mix: dict[str, float], allowed: set[str], start: dict[str, float], shift: dict[str, float]
) -> dict[str, float]:
    """A move aims at the start mix plus its shift, one mix step a decision: shifts do not pile up, so a run
    of easings cannot take a kind out for good (a skilled player meets the ranged kinds again)."""
    step, out = MIX_WEIGHT.max_step or 0.0, dict[str, float]()
    for name in (n for n in dict.fromkeys([*start, *shift]) if n in allowed):
        now = mix.get(name, MIX_WEIGHT.default)
        aim = MIX_WEIGHT.clamp(start.get(name, MIX_WEIGHT.default) + shift.get(name, 0.0))
        out[name] = round(now + max(-step, min(step, aim - now)), 4)
    return out


class RulesSource:
    """The rules policy as a ``PlanSource``: its future is complete when ``request`` returns."""

    name = "rules"

    def __init__(self, difficulty: Callable[[], str] | None = None) -> None:
        self.difficulty = difficulty or (lambda: "normal")  # the player's preset, read at each decision

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        start = time.perf_counter()
        name = self.difficulty()
        plan = decide(req.situation, tuning(name if name in preset_names() else "normal"))
        fut: Future[PlanReply] = Future()
        raw, latency = json.dumps(plan, sort_keys=True), time.perf_counter() - start
        fut.set_result(
            PlanReply(raw=raw, plan=plan, backend=self.name, latency_s=latency, trace_id=req.trace_id)
        )
        return fut
