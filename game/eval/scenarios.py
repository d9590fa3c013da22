"""Labelled decision scenarios: the format and its loader.

One JSON object per line (blank lines and lines starting with ``#`` are skipped)::

    {"name": "coasting_full_hp",                     # unique, for the report
     "snapshot": {"time": 120, "hp_fraction": 0.9},  # GameSessionSnapshot fields; omitted ones default
     "pacing": "build_up",       # build_up | sustain_peak | peak_fade | relax (default build_up)
     "intensity": 0.08,          # optional, 0..1 (default 0.5, mid-band)
     "pacing_s": 4.0,            # optional, seconds in the pacing state
     "since_spike_s": 12.0,      # optional, seconds since the director's last spike (default: none yet)
     "since_peak_s": 60.0,       # optional, seconds since the last Sustain Peak began (default 0)
     "knobs": {"pressure": 3.0}, # optional DirectorKnobs fields (default knobs)
     "expected": "spike",        # ease_off | ease | hold | raise | spike
     "accept": ["raise"],        # optional: other answers that also count as correct
     "why": "bored"}             # optional: the label's rationale

``ease`` is a ``hold`` that makes the game easier without lowering pressure: it moves at least one knob the
easy way (danger, elites, toughness or tier down, health drops up) and none the hard way (``answer_of``).
Damage windows in the snapshot are fractions of max HP. A line that does not parse or validate raises
``PersistenceError`` naming the file and the line number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from coreai.errors import PersistenceError
from coreai.paths import shipped_dir
from coreai.persist import loads_json
from game.director.knobs import PLAN_KNOBS
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.telemetry import NEVER, GameSessionSnapshot

SHIPPED_SCENARIOS = shipped_dir("assets", "director") / "scenarios.jsonl"
Answer = Literal["ease_off", "ease", "hold", "raise", "spike"]


def answer_of(plan: DirectorPlan, knobs: DirectorKnobs) -> str:
    """A plan's answer: its pressure, or ``ease`` for a ``hold`` that softens the game (a knob moved the easy
    way, none the hard way) while the crowd's size stays."""
    if plan.pressure != "hold":
        return str(plan.pressure)
    moves = []
    for k in PLAN_KNOBS:
        value = getattr(plan, k.name)
        if value is not None and value != getattr(knobs, k.name):
            moves.append((value > getattr(knobs, k.name)) == k.harder_high)  # True: harder
    return "ease" if moves and not any(moves) else "hold"


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=80)
    snapshot: GameSessionSnapshot
    pacing: PacingState = PacingState.BUILD_UP
    intensity: float = Field(0.5, ge=0, le=1)
    pacing_s: float = Field(0.0, ge=0)
    since_spike_s: float = Field(NEVER, ge=0)
    since_peak_s: float = Field(0.0, ge=0)
    knobs: DirectorKnobs = Field(default_factory=DirectorKnobs)
    expected: Answer
    accept: list[Answer] = Field(default_factory=list, max_length=3)
    why: str = ""

    def correct(self, answer: str) -> bool:
        return answer == self.expected or answer in self.accept


def load_scenarios(path: Path = SHIPPED_SCENARIOS) -> list[Scenario]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise PersistenceError(str(path), f"cannot read scenarios: {exc}") from exc
    out: list[Scenario] = []
    names: set[str] = set()
    for i, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            sc = Scenario.model_validate(loads_json(text))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise PersistenceError(str(path), f"line {i}: not a valid scenario: {exc}") from None
        if sc.name in names:
            raise PersistenceError(str(path), f"line {i}: duplicate scenario name '{sc.name}'")
        names.add(sc.name)
        out.append(sc)
    if not out:
        raise PersistenceError(str(path), "no scenarios in file")
    return out
