"""The director's tuning as data: ``assets/director/tuning.toml``, validated here.

Every value the director decides with lives in that file, with its one-line meaning beside it; the code
names none of them. Sections follow the package's shape: ``read`` (what counts as the HP bar falling),
``pacing`` (Left 4 Dead's loop), ``bank`` (the Risk of Rain 2 credit spawner), ``presence`` (the floor of
enemies in view), ``danger`` (how hard enemies hit, capped by HP), ``rescue`` and ``plan`` (the rules
policy). A difficulty preset is an overlay: ``[presets.easy]`` names only what it changes.

``tuning(preset)`` returns the validated values for a preset (cached); a bad file raises ``SettingsError``
naming the key.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from coreai.errors import SettingsError
from coreai.paths import shipped
from coreai.validation import explain

Unit = float
Share = float


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _ordered(pair: tuple[float, float], name: str) -> tuple[float, float]:
    if pair[0] > pair[1]:
        raise ValueError(f"{name} must be [low, high]")
    return pair


class Read(_Section):
    fall_bars: float = Field(gt=0, le=1)
    fall_s: float = Field(gt=0, le=15)


class PacingTuning(_Section):
    peak_intensity: float = Field(gt=0, le=1)
    sustain_s: tuple[float, float]
    fade_exit: float = Field(ge=0, le=1)
    fade_max_s: float = Field(gt=0)
    relax_s: tuple[float, float]
    relax_exit: float = Field(ge=0, le=1)
    relax_min_s: float = Field(ge=0)
    fade_income: float = Field(ge=0, le=1)
    relax_income: float = Field(ge=0, le=1)
    boss_income: float = Field(ge=0, le=1)

    @model_validator(mode="after")
    def _ranges(self) -> PacingTuning:
        _ordered(self.sustain_s, "sustain_s")
        _ordered(self.relax_s, "relax_s")
        return self


class Bank(_Section):
    income: float = Field(gt=0, le=20)
    income_growth: float = Field(ge=0, le=5)
    opening_credits: float = Field(ge=0, le=100)
    elite_cost: float = Field(ge=1, le=10)
    max_group: int = Field(ge=1, le=10)
    group_interval_s: float = Field(gt=0, le=10)
    bank_max_s: float = Field(gt=0, le=120)
    crowd_min: int = Field(ge=1, le=400)
    crowd_clear_s: float = Field(ge=0, le=120)


class Static(_Section):
    pressure: float = Field(gt=0, le=3)
    pressure_per_wave: float = Field(ge=0, le=1)
    pressure_max: float = Field(gt=0, le=3)
    elite_per_wave: float = Field(ge=0, le=0.2)
    elite_max: float = Field(ge=0, le=1)


class Power(_Section):
    par: float = Field(ge=1)
    follow: float = Field(ge=0, le=1)


class Presence(_Section):
    floor_min: int = Field(ge=0, le=40)
    view_kill_s: float = Field(ge=0, le=30)
    floor_max: int = Field(ge=0, le=60)


class Danger(_Section):
    hp_full: float = Field(gt=0, le=1)
    hp_low: float = Field(ge=0, lt=1)
    low_factor: float = Field(gt=0, le=1)
    speed_share: float = Field(ge=0, le=1)
    grace_max_s: float = Field(ge=0)
    grace_factor: float = Field(gt=0, le=1)
    prey_hp: float = Field(ge=0, le=1)
    prey_pickup: float = Field(ge=1, le=3)

    @model_validator(mode="after")
    def _hp(self) -> Danger:
        if self.hp_low >= self.hp_full:
            raise ValueError("hp_low must be under hp_full")
        return self


class RescueTuning(_Section):
    hp: float = Field(gt=0, lt=1)
    charges: int = Field(ge=0, le=10)
    recharge_waves: int = Field(ge=0, le=20)
    charges_max: int = Field(ge=0, le=10)
    radius: float = Field(gt=0)
    shove_to: float = Field(gt=0)
    cooldown_s: float = Field(ge=0)


class Plan(_Section):
    opening_danger: float = Field(gt=0, le=1.5)
    ease_floor: float = Field(gt=0, le=1)
    learn_waves: int = Field(ge=0, le=20)
    recent_death_s: float = Field(ge=0)
    low_hp: float = Field(ge=0, le=1)
    heavy_damage_15s: float = Field(gt=0)
    raise_damage_15s: float = Field(ge=0)
    raise_damage_60s: float = Field(ge=0)
    peak_due_s: float = Field(gt=0)
    ceiling_skill: tuple[float, float]
    ceiling_pressure: tuple[float, float]
    level_cap: tuple[float, float]
    escalate_skill: float = Field(ge=0, le=1)
    threat_hp: float = Field(gt=0, lt=1)
    threat_every_s: float = Field(gt=0)
    threat_spike_s: float = Field(gt=0)

    @model_validator(mode="after")
    def _ranges(self) -> Plan:
        _ordered(self.ceiling_skill, "ceiling_skill")
        _ordered(self.ceiling_pressure, "ceiling_pressure")
        return self


class Tuning(_Section):
    read: Read
    pacing: PacingTuning
    bank: Bank
    static: Static
    presence: Presence
    power: Power
    danger: Danger
    rescue: RescueTuning
    plan: Plan
    label: str = "Normal"

    def values(self) -> int:
        """How many tuning values there are (a ``[low, high]`` pair is one)."""
        return sum(len(type(s).model_fields) for s in self._sections())

    def _sections(self) -> tuple[_Section, ...]:
        return (
            self.read, self.pacing, self.bank, self.static, self.presence, self.power, self.danger,
            self.rescue, self.plan,
        )  # fmt: skip


def _overlay(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        out[key] = (
            _overlay(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
        )
    return out


def parse(text: str, preset: str = "normal") -> Tuning:
    """The tuning in ``text`` (TOML) with ``preset``'s overlay; raises ``SettingsError``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError("director.tuning", f"tuning.toml is not TOML: {exc}") from None
    presets = data.pop("presets", {})
    if preset not in presets:
        raise SettingsError("director.tuning", f"unknown preset '{preset}'; known: {', '.join(presets)}")
    try:
        return Tuning.model_validate(_overlay(data, presets[preset]))
    except ValidationError as exc:
        raise SettingsError("director.tuning", f"tuning.toml ({preset}): {explain(exc)}") from None


def _text() -> str:
    return shipped("assets", "director", "tuning.toml").read_text(encoding="utf-8")


@cache
def tuning(preset: str = "normal") -> Tuning:
    """The shipped tuning for ``preset`` (``easy``, ``normal``, ``hard``)."""
    return parse(_text(), preset)


@cache
def preset_names() -> dict[str, str]:
    """Preset key -> its label, in file order (the options screen's choices)."""
    return {k: str(v.get("label", k)) for k, v in tomllib.loads(_text()).get("presets", {}).items()}


TUNING = tuning()  # the normal preset: what the modules that do not follow the player's preset read
