"""The weapon catalogue, loaded from ``assets/weapons/weapons.json`` and checked by a pydantic schema.

A weapon is data: a ``pattern`` the simulation knows how to fire (``game.sim.weapons``) plus its numbers.
Levels multiply damage and cooldown and add projectiles; an evolution replaces a weapon at its max level
when the player also holds one stack of the named passive (a stat upgrade from ``game.sim.upgrades``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from coreai.errors import PersistenceError
from coreai.paths import shipped_dir
from coreai.persist import loads_json
from coreai.validation import reason

DEFAULT_WEAPON_FILE = shipped_dir("assets", "weapons") / "weapons.json"
MAX_SLOTS = 4
STARTING_WEAPON = "blaster"

Pattern = Literal["blaster", "spread", "orbit", "lance", "chain", "missile"]
PATTERN_CODES: dict[str, int] = {"blaster": 0, "spread": 1, "orbit": 2, "lance": 3, "chain": 4, "missile": 5}


class LevelGain(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    damage: float = Field(0.0, ge=0, le=2, description="damage added per level, as a fraction of base")
    count: int = Field(0, ge=0, le=4, description="projectiles / blades / jumps added per level")
    cooldown: float = Field(1.0, gt=0.3, le=1.0, description="cooldown multiplier per level")


class WeaponSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=32)
    description: str = Field(max_length=120)
    pattern: Pattern
    damage: float = Field(gt=0)
    cooldown: float = Field(gt=0.02, le=10, description="seconds between volleys (orbit: between cuts)")
    count: int = Field(1, ge=1, le=24)
    speed: float = Field(0.0, ge=0, description="projectile px/s; orbit: radians/s")
    ttl: float = Field(0.0, ge=0, le=10)
    pierce: int = Field(0, ge=0, le=50)
    arc: float = Field(0.0, ge=0, le=3.2, description="radians between the outer projectiles or beams")
    radius: float = Field(0.0, ge=0, le=2000, description="orbit radius, beam length or jump range")
    width: float = Field(0.0, ge=0, le=400, description="blade radius, beam half-width or jump distance")
    turn: float = Field(0.0, ge=0, le=20, description="missile homing, radians/s")
    forks: int = Field(1, ge=1, le=4, description="chain: independent bolts per volley")
    max_level: int = Field(5, ge=1, le=9)
    per_level: LevelGain = LevelGain()
    evolves_with: str | None = None
    evolves_into: str | None = None
    evolved: bool = False
    unlock: str | None = Field(None, description="achievement that unlocks it; None: always available")
    color: tuple[int, int, int] = (255, 255, 255)

    @model_validator(mode="after")
    def _pattern_needs(self) -> WeaponSpec:
        needs = {
            "blaster": ("speed", "ttl"),
            "spread": ("speed", "ttl"),
            "missile": ("speed", "ttl", "turn"),
            "orbit": ("speed", "radius", "width"),
            "lance": ("radius", "width"),
            "chain": ("radius", "width"),
        }[self.pattern]
        missing = [f for f in needs if getattr(self, f) <= 0]
        if missing:
            raise ValueError(f"a {self.pattern} weapon needs {', '.join(missing)} > 0")
        if (self.evolves_with is None) != (self.evolves_into is None):
            raise ValueError("evolves_with and evolves_into go together")
        return self


class WeaponFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int
    comment: str = ""
    weapons: dict[str, WeaponSpec]

    @model_validator(mode="after")
    def _links(self) -> WeaponFile:
        for key, w in self.weapons.items():
            if w.evolves_into is not None:
                target = self.weapons.get(w.evolves_into)
                if target is None or not target.evolved:
                    raise ValueError(f"{key} evolves into '{w.evolves_into}', which is not an evolved weapon")
        if STARTING_WEAPON not in self.weapons:
            raise ValueError(f"the starting weapon '{STARTING_WEAPON}' is missing")
        return self


class WeaponCatalogue:
    """Key → spec, with a stable index per key (bullets carry it) and the evolution table."""

    def __init__(self, weapons: dict[str, WeaponSpec]) -> None:
        self.specs = dict(weapons)
        self.keys: tuple[str, ...] = tuple(weapons)
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.base: tuple[str, ...] = tuple(k for k, w in weapons.items() if not w.evolved)

    @classmethod
    def load(cls, path: Path = DEFAULT_WEAPON_FILE) -> WeaponCatalogue:
        try:
            return cls(WeaponFile.model_validate(loads_json(path.read_text(encoding="utf-8"))).weapons)
        except (OSError, json.JSONDecodeError, ValidationError) as exc:
            raise PersistenceError(str(path), f"invalid weapon file: {reason(exc)}") from exc

    def get(self, key: str) -> WeaponSpec:
        try:
            return self.specs[key]
        except KeyError:
            raise KeyError(f"unknown weapon '{key}'; known: {', '.join(self.keys)}") from None

    def unlocks(self) -> dict[str, str]:
        """Weapon key → the achievement that unlocks it."""
        return {k: w.unlock for k, w in self.specs.items() if w.unlock}

    def always_available(self) -> frozenset[str]:
        return frozenset(k for k in self.base if self.specs[k].unlock is None)


@cache
def catalogue() -> WeaponCatalogue:
    return WeaponCatalogue.load()
