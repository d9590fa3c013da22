"""The director's plan and knobs: what a plan source (rules or an LLM through the ``set_director_plan`` tool)
may ask for, and the bounded knobs it moves.

``DirectorPlan`` is the tool's argument model: strict types (a string where a number belongs is rejected,
never coerced), no extra keys, hard bounds, one-line reason. Values outside the hard bounds reject the whole
plan; values inside the bounds but too far from the current knobs are clamped by ``validate.py`` to the
per-plan maximum change. ``plan_json_schema`` is the schema handed to the LLM: prefab mix keys and event
names are spelled out as properties and enums, because llama.cpp grammars keep enums and ``maxItems`` but
ignore numeric bounds.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Pressure = Literal["ease_off", "hold", "raise", "spike"]
PRESSURES: tuple[Pressure, ...] = ("ease_off", "hold", "raise", "spike")
TOOL_NAME = "set_director_plan"

REASON_MAX = 120
ANNOUNCER_MAX = 60
NOTE_MAX = 120
EVENT_NAME_MAX = 32
MIX_MAX_KEYS = 8

# Hard bounds (a plan outside them is rejected).
MIX_WEIGHT_RANGE = (0.0, 5.0)
ELITE_CHANCE_RANGE = (0.0, 0.35)
PICKUP_RATE_RANGE = (0.25, 3.0)
PRESSURE_RANGE = (0.2, 3.0)  # the pressure knob (a credit-income multiplier) never leaves this

# Maximum change per plan (a plan asking for more is clamped to this much).
MAX_MIX_STEP = 1.5
MAX_ELITE_STEP = 0.08
MAX_PICKUP_STEP = 0.5
# The pressure enum moves the pressure knob by a factor; that is its maximum change per plan.
PRESSURE_FACTOR: dict[str, float] = {"ease_off": 0.7, "hold": 1.0, "raise": 1.3, "spike": 1.3}
SPIKE_BURST_CREDITS = 12.0  # a spike also grants this many credits (times the difficulty coefficient) at once

DEFAULT_MIX: dict[str, float] = {"grunt": 3.0, "runner": 2.0, "spitter": 1.5, "tank": 1.0}


class DirectorPlan(BaseModel):
    """One decision. Optional fields left out (or null) keep the current knob."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    pressure: Pressure = Field(
        description="ease_off lowers spawn pressure, hold keeps it, raise adds, spike bursts"
    )
    mix: dict[str, float] = Field(
        default_factory=dict, max_length=MIX_MAX_KEYS, description="prefab -> spawn weight (0..5)"
    )
    elite_chance: float | None = Field(None, ge=ELITE_CHANCE_RANGE[0], le=ELITE_CHANCE_RANGE[1])
    pickup_rate: float | None = Field(None, ge=PICKUP_RATE_RANGE[0], le=PICKUP_RATE_RANGE[1])
    event: str | None = Field(None, min_length=1, max_length=EVENT_NAME_MAX)
    reason: str = Field(min_length=1, max_length=REASON_MAX)
    announcer: str = Field("", max_length=ANNOUNCER_MAX)
    note: str | None = Field(None, max_length=NOTE_MAX, description="a line for the director's own memory")

    @field_validator("reason", "announcer", "note")
    @classmethod
    def _one_line(cls, v: str | None) -> str | None:
        if v is not None and ("\n" in v or "\r" in v):
            raise ValueError("must be a single line")
        return v

    @field_validator("mix")
    @classmethod
    def _weights_in_range(cls, v: dict[str, float]) -> dict[str, float]:
        lo, hi = MIX_WEIGHT_RANGE
        for name, w in v.items():
            if not lo <= w <= hi:
                raise ValueError(f"weight of '{name}' is {w:g}, outside [{lo:g}, {hi:g}]")
        return v


class DirectorKnobs(BaseModel):
    """The live values the spawner reads; only a validated plan changes them."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    pressure: float = Field(1.0, ge=PRESSURE_RANGE[0], le=PRESSURE_RANGE[1])
    mix: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_MIX))
    elite_chance: float = Field(0.0, ge=ELITE_CHANCE_RANGE[0], le=ELITE_CHANCE_RANGE[1])
    pickup_rate: float = Field(1.0, ge=PICKUP_RATE_RANGE[0], le=PICKUP_RATE_RANGE[1])


def plan_json_schema(prefabs: Collection[str], events: Collection[str]) -> dict[str, Any]:
    """The ``set_director_plan`` tool's parameter schema for this game's prefabs and registered events."""
    lo, hi = MIX_WEIGHT_RANGE
    weight = {"type": "number", "minimum": lo, "maximum": hi}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["pressure", "reason"],
        "properties": {
            "pressure": {"type": "string", "enum": list(PRESSURES)},
            "mix": {
                "type": "object",
                "additionalProperties": False,
                "maxProperties": min(MIX_MAX_KEYS, len(prefabs)),
                "properties": {name: dict(weight) for name in prefabs},
                "description": "spawn weight per prefab, 0..5",
            },
            "elite_chance": {
                "type": "number",
                "minimum": ELITE_CHANCE_RANGE[0],
                "maximum": ELITE_CHANCE_RANGE[1],
            },
            "pickup_rate": {
                "type": "number",
                "minimum": PICKUP_RATE_RANGE[0],
                "maximum": PICKUP_RATE_RANGE[1],
            },
            # enum alone: with a "type" list, llama.cpp's converter keeps the type and drops the enum
            "event": {"enum": [*events, None]},
            "reason": {"type": "string", "minLength": 1, "maxLength": REASON_MAX},
            "announcer": {"type": "string", "maxLength": ANNOUNCER_MAX},
            "note": {"anyOf": [{"type": "string", "maxLength": NOTE_MAX}, {"type": "null"}]},
        },
    }
