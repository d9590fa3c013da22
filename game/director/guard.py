"""The guard: the director's hard safety rules, applied to every validated plan that a model proposed.

A model may choose freely among safe plans, but never against these rules (the same thresholds as the
``rules`` policy: ``[plan]`` of ``assets/director/tuning.toml``):

* **recovering**: the player died in the last ``recent_death_s`` or is below ``low_hp`` HP (in a boss
  fight too): never ``raise`` or ``spike``, no event that adds enemies (``supply``, health packs, is always
  allowed), and no knob moved toward its hard end (a ``hold`` that lifts ``danger``, ``toughness``,
  ``tier`` or ``elite_chance``, or cuts ``pickup_rate``, is a raise by other means);
* **strained**: the player is hurt or under fire (HP under ``[danger] hp_full``, ``raise_damage_15s`` of a
  bar lost in 15 s or ``raise_damage_60s`` in 60 s): the same as recovering, minus the easing it leaves to
  the model: nothing that adds enemies or hardens a knob (the rules only hold there);
* **ceiling**: no threat is due (the player was in real danger, HP under ``threat_hp``, within
  ``threat_every_s``): never ``raise`` past the pressure ceiling the player's skill estimate and level allow,
  and no lever past its normal (danger above 1, elites, tier, toughness) for a player rated under
  ``escalate_skill``. A model may not make the run unwinnable either;
* **relax**: the pacing loop is in its relax window: never ``spike``;
* **stakes**: the player is healthy and barely touched (neither recovering nor strained): never
  ``ease_off``, and no knob moved toward its easy end. A model may not take the stakes out of the game: a
  run it directs can still be lost.

A plan that breaks one is overridden: the director applies the ``rules`` plan for the same situation
instead (safe by construction), records the override and its reason in the trajectory (status
``guarded``) and counts it (F10 "overridden N"). The ``rules`` source is its own guard and is never checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.director import rules
from game.director.events import EASING_EVENTS
from game.director.knobs import KNOB, PLAN_KNOBS
from game.director.pacing import PacingState
from game.director.plan import REASON_MAX, DirectorPlan
from game.director.source import DirectorSituation
from game.director.tuning import TUNING, Tuning

ADDS = frozenset({"raise", "spike"})
LEVERS = ("danger", "elite_chance", "tier", "toughness")  # the levers past pressure (the rules escalate them)


@dataclass(frozen=True)
class GuardVerdict:
    rule: str  # "recovering" | "strained" | "ceiling" | "relax" | "stakes"
    why: str  # the situation that triggered it, in player words
    asked: str  # what the model asked for ("spike", "hold + event swarm"...)

    def reason(self) -> str:
        return f"guard ({self.rule}): {self.why}; model asked {self.asked}"


def harder_knobs(s: DirectorSituation, plan: DirectorPlan, *, easier: bool = False) -> list[str]:
    """The knobs ``plan`` moves toward their hard end (``easier``: their easy end) from where ``s`` has
    them (``shown`` as asked)."""
    out = []
    for k in PLAN_KNOBS:
        asked = getattr(plan, k.name, None)
        if asked is None:
            continue
        now = float(getattr(s.knobs, k.name))
        up, down = asked > now + 1e-9, asked < now - 1e-9
        if (up if k.harder_high else down) if not easier else (down if k.harder_high else up):
            out.append(f"{k.name} {k.shown(asked)}")
    return out


def _asked(plan: DirectorPlan, harder: list[str]) -> str:
    event = f" + event {plan.event}" if plan.event else ""
    return plan.pressure + event + "".join(f" + {h}" for h in harder)


def check(s: DirectorSituation, plan: DirectorPlan, t: Tuning = TUNING) -> GuardVerdict | None:
    """The first hard rule ``plan`` breaks in situation ``s`` (under the player's preset ``t``), or None
    when it is safe."""
    snap = s.snapshot
    harder = harder_knobs(s, plan)
    adding_event = plan.event is not None and plan.event not in EASING_EVENTS
    adds = plan.pressure in ADDS or adding_event or bool(harder)
    asked = _asked(plan, harder)
    rule, why = _hurt(s, t)
    if adds and rule:
        return GuardVerdict(rule, why, asked)
    if over := _over_ceiling(s, plan, harder, t):
        return GuardVerdict("ceiling", over, asked)
    if plan.pressure == "spike" and s.pacing is PacingState.RELAX:
        return GuardVerdict("relax", "the pacing loop is in its relax window", asked)
    easier = harder_knobs(s, plan, easier=True)
    if not rule and (plan.pressure == "ease_off" or easier):  # healthy and barely touched
        why = f"player at {snap.hp_fraction:.0%} HP, {snap.damage_15s:.0%} of a bar lost in 15s"
        return GuardVerdict("stakes", why, _asked(plan, easier))
    return None


def _hurt(s: DirectorSituation, t: Tuning) -> tuple[str, str]:
    """The rule a hurt player falls under (recovering: the rules ease; strained: they hold) and why, or
    ("", "") for a player who is neither."""
    snap, p = s.snapshot, t.plan
    hp = f"player at {snap.hp_fraction:.0%} HP" + (" in a boss fight" if snap.boss_in_view else "")
    lost = f"player lost {snap.damage_15s:.0%} of a bar in 15s, {snap.damage_60s:.0%} in 60s"
    if snap.seconds_since_death < p.recent_death_s:
        return "recovering", f"player died {snap.seconds_since_death:.0f}s ago"
    if snap.hp_fraction < p.low_hp:
        return "recovering", hp
    if snap.hp_fraction < t.danger.hp_full:
        return "strained", hp
    strained = snap.damage_15s >= p.raise_damage_15s or snap.damage_60s >= p.raise_damage_60s
    return ("strained", lost) if strained else ("", "")


def _over_ceiling(s: DirectorSituation, plan: DirectorPlan, harder: list[str], t: Tuning) -> str:
    """Why ``plan`` pushes past what this player is rated for with no threat due, or "" when it does not:
    pressure past the ceiling, or a lever past its normal (its default: danger 1, the others their bottom)."""
    snap, p = s.snapshot, t.plan
    if snap.seconds_since_low >= p.threat_every_s:  # a peak that threatens is due: every ceiling is off
        return ""
    ceiling = rules.pressure_ceiling(snap.skill, snap.level, t)
    if plan.pressure == "raise" and s.knobs.pressure >= ceiling - 1e-9:
        return f"pressure {s.knobs.pressure:.2f} at the ceiling {ceiling:.2f} for skill {snap.skill:.2f}"
    past = [h for h in harder if (n := h.split()[0]) in LEVERS and getattr(plan, n) > KNOB[n].default + 1e-9]
    if past and snap.skill < p.escalate_skill:
        return f"skill {snap.skill:.2f} under {p.escalate_skill:.2f}: no {past[0]} past normal"
    return ""


def override(s: DirectorSituation, verdict: GuardVerdict, t: Tuning = TUNING) -> dict[str, Any]:
    """The plan applied instead: the rules plan for ``s`` under the same preset, its reason naming the
    override."""
    plan = rules.decide(s, t)
    plan["reason"] = verdict.reason()[:REASON_MAX]
    plan.pop("note", None)
    return plan
