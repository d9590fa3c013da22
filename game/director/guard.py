"""The guard: the director's hard safety rules, applied to every validated plan that a model proposed.

A model may choose freely among safe plans, but never against these rules (the same thresholds as the
``rules`` policy: ``[plan]`` of ``assets/director/tuning.toml``):

* **recovering**: the player died in the last ``recent_death_s`` or is below ``low_hp`` HP (in a boss
  fight too): never ``raise`` or ``spike``, no event that adds enemies (``supply``, health packs, is always
  allowed), and no knob moved toward its hard end (a ``hold`` that lifts ``danger``, ``toughness``,
  ``tier`` or ``elite_chance``, or cuts ``pickup_rate``, is a raise by other means);
* **relax**: the pacing loop is in its relax window: never ``spike``;
* **stakes**: the player is healthy and barely touched (HP at least ``[danger] hp_full``, under
  ``raise_damage_15s`` of a bar lost in 15 s, no recent death): never ``ease_off``, and no knob moved toward
  its easy end. A model may not take the stakes out of the game: a run it directs can still be lost.

A plan that breaks one is overridden: the director applies the ``rules`` plan for the same situation
instead (safe by construction), records the override and its reason in the trajectory (status
``guarded``) and counts it (F10 "overridden N"). The ``rules`` source is its own guard and is never checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.director import rules
from game.director.events import EASING_EVENTS
from game.director.knobs import PLAN_KNOBS
from game.director.pacing import PacingState
from game.director.plan import REASON_MAX, DirectorPlan
from game.director.source import DirectorSituation
from game.director.tuning import TUNING, Tuning

ADDS = frozenset({"raise", "spike"})


@dataclass(frozen=True)
class GuardVerdict:
    rule: str  # "recovering" | "relax" | "stakes"
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
    if adds and snap.seconds_since_death < t.plan.recent_death_s:
        return GuardVerdict("recovering", f"player died {snap.seconds_since_death:.0f}s ago", asked)
    if adds and snap.hp_fraction < t.plan.low_hp:
        fight = " in a boss fight" if snap.boss_in_view else ""
        return GuardVerdict("recovering", f"player at {snap.hp_fraction:.0%} HP{fight}", asked)
    if plan.pressure == "spike" and s.pacing is PacingState.RELAX:
        return GuardVerdict("relax", "the pacing loop is in its relax window", asked)
    easier = harder_knobs(s, plan, easier=True)
    healthy = (
        snap.hp_fraction >= t.danger.hp_full
        and snap.damage_15s < t.plan.raise_damage_15s
        and snap.seconds_since_death >= t.plan.recent_death_s
    )
    if healthy and (plan.pressure == "ease_off" or easier):
        why = f"player at {snap.hp_fraction:.0%} HP, {snap.damage_15s:.0%} of a bar lost in 15s"
        return GuardVerdict("stakes", why, _asked(plan, easier))
    return None


def override(s: DirectorSituation, verdict: GuardVerdict, t: Tuning = TUNING) -> dict[str, Any]:
    """The plan applied instead: the rules plan for ``s`` under the same preset, its reason naming the
    override."""
    plan = rules.decide(s, t)
    plan["reason"] = verdict.reason()[:REASON_MAX]
    plan.pop("note", None)
    return plan
