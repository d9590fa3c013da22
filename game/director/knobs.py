"""The director's knobs as data: one row per knob (name, range, maximum change per plan, default, how it is
shown and explained). Everything else is derived from ``KNOBS``:

* ``DirectorKnobs`` (the live values) and the knob fields of ``DirectorPlan`` (``game/director/plan.py``);
* the clamping in ``validate.py`` and the bounds the rules policy keeps to (``rules.py``);
* the ``set_director_plan`` JSON schema and tool description (``game/ai/director_prompt.py``);
* the F10 panel's knob bars (``game/render/ai_panels/director_panel.py``);
* the knob rows of ``prompts/skills/director.md`` (``game/ai/director_skill_doc.py``: a test checks they
  are current; ``python -m game.ai.director_skill_doc`` rewrites them).

To add a knob: one ``Knob(...)`` row below, then read ``director.knobs.<name>`` where it takes effect (the
spawner, a world param...). ``pressure`` is a knob too, but a plan moves it through its ``pressure`` enum
(by ``[decide] pressure_factor`` of the tuning) rather than by value, so it is not a plan field
(``in_plan=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Unit = Literal["x", "%"]


@dataclass(frozen=True)
class Knob:
    name: str
    lo: float
    hi: float
    default: float
    max_step: float | None  # the most one plan may move it (more is clamped); None: by pressure_factor
    label: str  # the F10 bar's name
    unit: Unit  # how F10 shows the value: 1.30x or 12%
    help: str  # one line for the tool description and the skill doc
    in_plan: bool = True  # a plan may set it by value
    harder_high: bool = True  # its high end is the hard end (False: pickups, where more is easier)
    escalates: bool = True  # a raise or spike moves it toward the hard end (saturation's escalation levers)

    @property
    def range(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    def clamp(self, value: float) -> float:
        return min(self.hi, max(self.lo, value))

    def shown(self, value: float) -> str:
        return f"{value * 100:.0f}%" if self.unit == "%" else f"{value:.2f}x"


# fmt: off
KNOBS: tuple[Knob, ...] = (
    #    name           lo   hi   default step  F10 label     unit help
    Knob("pressure",     0.7, 3.0,  1.0, None, "pressure",     "x", "spawn-credit multiplier", in_plan=False),
    Knob("danger",       0.3, 1.5,  1.0, 0.2,  "danger",       "x", "enemy damage and speed: ease it first"),
    Knob("elite_chance", 0.0, 0.35, 0.0, 0.08, "elite chance", "%", "chance a group is elite (3× HP, cost)"),
    Knob("pickup_rate", 0.25, 3.0,  1.0, 0.5,  "pickup rate",  "x", "health-drop multiplier",
         harder_high=False, escalates=False),
    Knob("tier",         0.0, 4.0,  0.0, 1.0,  "enemy tier",   "x", "waves ahead: earlier foes, credits"),
    Knob("toughness",    1.0, 6.0,  1.0, 0.5,  "toughness",    "x", "HP multiplier of new spawns"),
)
# fmt: on
KNOB: dict[str, Knob] = {k.name: k for k in KNOBS}
PLAN_KNOBS: tuple[Knob, ...] = tuple(k for k in KNOBS if k.in_plan)

# The enemy mix is a knob per prefab: a weight in this range, moved at most this much per plan; a prefab the
# mix does not name spawns at the default weight.
MIX_WEIGHT = Knob("mix", 0.0, 5.0, 1.0, 1.5, "enemy mix", "x", "relative spawn weight of a prefab")
