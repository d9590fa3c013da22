"""The director's plan and knobs: what a plan source (rules or an LLM through the ``set_director_plan`` tool)
may ask for, and the bounded knobs it moves.

``DirectorPlan`` is the tool's argument model: strict types (a string where a number belongs is rejected,
never coerced), no extra keys, hard bounds, one-line reason. Values outside the hard bounds reject the whole
plan; values inside the bounds but too far from the current knobs are clamped by ``validate.py`` to the
per-plan maximum change. The knob fields, bounds and steps come from the knob table (``knobs.py``); the
tool's JSON schema for a model is ``game.ai.director_prompt.plan_json_schema``. What a pressure move does
to the pressure knob, a spike's burst and the starting mix are ``[decide]`` and ``[mix]`` of the tuning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from game.director.knobs import KNOB, KNOBS, MIX_WEIGHT, PLAN_KNOBS
from game.director.tuning import TUNING, Pressure

PRESSURES: tuple[Pressure, ...] = get_args(Pressure)
TOOL_NAME = "set_director_plan"

REASON_MAX = 120
ANNOUNCER_MAX = 60
NOTE_MAX = 120
EVENT_NAME_MAX = 32
MIX_MAX_KEYS = 8

# Hard bounds (a plan outside them is rejected) and maximum changes per plan come from the knob table.
MIX_WEIGHT_RANGE = MIX_WEIGHT.range
MAX_MIX_STEP = MIX_WEIGHT.max_step or 0.0
PRESSURE_RANGE = KNOB["pressure"].range  # the pressure knob (a credit-income multiplier) never leaves this


class _PlanFields(BaseModel):
    """One decision. Optional fields left out (or null) keep the current knob. The knob fields
    (``elite_chance``, ``pickup_rate``...) are added from ``KNOBS``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    pressure: Pressure = Field(
        description="ease_off lowers spawn pressure, hold keeps it, raise adds, spike bursts"
    )
    mix: dict[str, float] = Field(
        default_factory=dict, max_length=MIX_MAX_KEYS, description="prefab -> spawn weight (0..5)"
    )
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

    if TYPE_CHECKING:  # the generated knob fields

        def __getattr__(self, name: str) -> float | None: ...


class _KnobFields(BaseModel):
    """The live values the spawner reads; only a validated plan changes them. One float field per row of
    ``KNOBS`` (pressure, elite_chance, pickup_rate...), and the enemy mix."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    if TYPE_CHECKING:  # the generated fields
        mix: dict[str, float]

        def __getattr__(self, name: str) -> float: ...


if TYPE_CHECKING:  # for the type checker: the knob fields are generated below, so any is accepted

    class DirectorPlan(_PlanFields):
        def __init__(self, **data: Any) -> None: ...

    class DirectorKnobs(_KnobFields):
        def __init__(self, **data: Any) -> None: ...

else:
    DirectorPlan = create_model(
        "DirectorPlan",
        __base__=_PlanFields,
        __module__=__name__,
        __doc__=_PlanFields.__doc__,
        **{k.name: (float | None, Field(None, ge=k.lo, le=k.hi, description=k.help)) for k in PLAN_KNOBS},
    )
    DirectorKnobs = create_model(
        "DirectorKnobs",
        __base__=_KnobFields,
        __module__=__name__,
        __doc__=_KnobFields.__doc__,
        **{k.name: (float, Field(k.default, ge=k.lo, le=k.hi, description=k.help)) for k in KNOBS},
        mix=(dict[str, float], Field(default_factory=lambda: dict(TUNING.mix.start))),
    )
