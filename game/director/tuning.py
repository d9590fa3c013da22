"""The director's tuning as data: ``assets/director/tuning.toml``, validated here.

Every value the director decides with lives in that file, with its one-line meaning beside it; the code
names none of them. Sections follow the package's shape: ``read`` (what counts as the HP bar falling),
``pacing`` (Left 4 Dead's loop), ``bank`` (the Risk of Rain 2 credit spawner), ``presence`` (the floor of
enemies in view), ``danger`` (how hard enemies hit, capped by HP), ``rescue`` and ``plan`` (the rules
policy), ``mix`` (the enemy mix and how the rules' moves shift it), ``decide`` (how often the director
decides, what a plan's pressure does), ``events`` (the built-in events' cooldowns and sizes), ``skill`` (the
skill estimate) and ``intensity`` (L4D's intensity). A difficulty preset is an overlay: ``[presets.easy]``
names only what it changes; it may not change the sections in ``SAME_AT_EVERY_PRESET`` (their readers use
the normal preset).

``tuning(preset)`` returns the validated values for a preset (cached); a bad file raises ``SettingsError``
naming the key.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from coreai.errors import SettingsError
from coreai.paths import shipped
from coreai.validation import explain
from game.director.knobs import MIX_WEIGHT

Unit = float
Share = float
Pressure = Literal["ease_off", "hold", "raise", "spike"]  # a plan's pressure move
SAME_AT_EVERY_PRESET = ("decide", "events", "skill", "intensity")
Weight = Annotated[float, Field(ge=MIX_WEIGHT.lo, le=MIX_WEIGHT.hi)]  # a prefab's spawn weight
Shift = Annotated[float, Field(ge=-(MIX_WEIGHT.max_step or 0), le=MIX_WEIGHT.max_step or 0)]  # a move's shift


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, serialize_by_alias=True)
    PAIRS: ClassVar[tuple[str, ...]] = ()  # the section's [low, high] pairs

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        for name in self.PAIRS:
            if getattr(self, name)[0] > getattr(self, name)[1]:
                raise ValueError(f"{name} must be [low, high]")
        return self


class Read(_Section):
    fall_bars: float = Field(gt=0, le=1)
    fall_s: float = Field(gt=0, le=15)


class PacingTuning(_Section):
    PAIRS = ("sustain_s", "relax_s")
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
    boss_par: float = Field(gt=0)
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
    recharge_last_wave: int = Field(ge=0, le=100)
    radius: float = Field(gt=0)
    shove_to: float = Field(gt=0)
    cooldown_s: float = Field(ge=0)


class Plan(_Section):
    PAIRS = ("ceiling_skill", "ceiling_pressure")
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
    peak_pickup: float = Field(ge=0.25, le=1)


class Mix(_Section):
    start: dict[str, Weight]
    ease: dict[str, Shift]
    raise_: dict[str, Shift] = Field(alias="raise")
    escalate: dict[str, Shift]
    elite_per_toughness: float = Field(gt=0, le=50)


class Decide(_Section):
    interval_s: float = Field(gt=0, le=60)
    pressure_factor: dict[Pressure, Annotated[float, Field(gt=0, le=3)]]
    spike_credits: float = Field(ge=0, le=100)

    @model_validator(mode="after")
    def _every_move(self) -> Decide:
        if len(self.pressure_factor) != 4:
            raise ValueError("pressure_factor must name ease_off, hold, raise and spike")
        return self


class Events(_Section):
    PAIRS = ("surround_new",)
    boss_cooldown_s: float = Field(ge=0, le=600)
    supply_cooldown_s: float = Field(ge=0, le=600)
    supply_packs: int = Field(ge=0, le=10)
    supply_heal: float = Field(ge=0, le=10)
    supply_ttl_s: float = Field(gt=0, le=300)
    swarm_cooldown_s: float = Field(ge=0, le=600)
    swarm_groups: int = Field(ge=0, le=8)
    surround_cooldown_s: float = Field(ge=0, le=600)
    surround_ring: int = Field(ge=1, le=64)
    surround_per_wave: int = Field(ge=0, le=16)
    surround_max: int = Field(ge=1, le=64)
    surround_new: tuple[int, int]


class SkillWeights(_Section):
    kills: float = Field(ge=0, le=1)
    damage: float = Field(ge=0, le=1)
    accuracy: float = Field(ge=0, le=1)
    alive: float = Field(ge=0, le=1)


class SkillTuning(_Section):
    PAIRS = ("kill_share", "damage_per_min", "accuracy")
    prior: float = Field(ge=0, le=1)
    tau_early_s: float = Field(gt=0, le=600)
    tau_s: float = Field(gt=0, le=600)
    evidence_s: float = Field(gt=0, le=600)
    death_penalty: float = Field(ge=0, le=1)
    weights: SkillWeights
    kill_share: tuple[float, float]
    damage_per_min: tuple[float, float]
    accuracy: tuple[float, float]
    alive_full_s: float = Field(gt=0, le=3600)

    @model_validator(mode="after")
    def _weights(self) -> SkillTuning:
        if abs(sum(w for _, w in self.weights) - 1.0) > 1e-6:
            raise ValueError("weights must add up to 1")
        return self


class IntensityTuning(_Section):
    damage_gain: float = Field(ge=0, le=10)
    near_kill_gain: float = Field(ge=0, le=1)
    near_death_hp: float = Field(ge=0, le=1)
    near_death_gain: float = Field(ge=0, le=1)
    near_death_rearm_hp: float = Field(ge=0, le=1)
    decay_per_s: float = Field(ge=0, le=1)
    engage_radius: float = Field(ge=0, le=2000)
    engage_grace_s: float = Field(ge=0, le=60)


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
    mix: Mix
    decide: Decide
    events: Events
    skill: SkillTuning
    intensity: IntensityTuning
    label: str = "Normal"

    def values(self) -> int:
        """How many tuning values there are (a ``[low, high]`` pair is one; a table counts each entry)."""
        dumped = (s.model_dump().values() for s in self._sections())
        return sum(len(v) if isinstance(v, dict) else 1 for values in dumped for v in values)

    def _sections(self) -> tuple[_Section, ...]:
        return (
            self.read, self.pacing, self.bank, self.static, self.presence, self.power, self.danger,
            self.rescue, self.plan, self.mix, self.decide, self.events, self.skill, self.intensity,
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
    fixed = [k for k in presets[preset] if k in SAME_AT_EVERY_PRESET]
    if fixed:
        raise SettingsError("director.tuning", f"tuning.toml ({preset}): a preset may not change {fixed}")
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
