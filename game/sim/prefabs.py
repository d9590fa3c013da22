"""The enemy prefab whitelist, loaded from ``assets/prefabs/enemies.json``.

Every spawn in the game (waves, the director, Lua mods, agents, MCP) names a prefab from this file; an unknown
name raises ``UnknownPrefabError`` listing the allowed ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from coreai.errors import PersistenceError, UnknownPrefabError
from coreai.paths import shipped_dir
from coreai.persist import loads_json
from coreai.validation import reason

DEFAULT_PREFAB_FILE = shipped_dir("assets", "prefabs") / "enemies.json"

Behaviour = Literal["chase", "ranged", "boss", "charger", "exploder", "splitter", "shielded"]
# the simulation's per-enemy behaviour code (``enemies.view("behaviour")``), one per Behaviour
CHASE, RANGED, BOSS, CHARGER, EXPLODER, SPLITTER, SHIELDED = 0, 1, 2, 3, 4, 5, 6
BEHAVIOUR_CODES: dict[str, int] = {
    "chase": CHASE,
    "ranged": RANGED,
    "boss": BOSS,
    "charger": CHARGER,
    "exploder": EXPLODER,
    "splitter": SPLITTER,
    "shielded": SHIELDED,
}


class Prefab(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    display_name: str
    behaviour: Behaviour
    hp: float = Field(gt=0)
    speed: float = Field(ge=0)
    damage: float = Field(ge=0)
    radius: float = Field(gt=0, le=200)
    score: int = Field(ge=0)
    cost: float = Field(gt=0)
    xp: int = Field(ge=0)
    sprite: str
    sprite_scale: float = Field(1.0, gt=0)
    tint: tuple[int, int, int] = (255, 255, 255)
    keep_distance: float = Field(0.0, ge=0)
    fire_interval: float = Field(0.0, ge=0)
    projectile_speed: float = Field(0.0, ge=0)
    first_wave: int = Field(1, ge=1)
    recoil: float = Field(0.0, ge=0, le=600)  # a contact hit it lands bounces it this many px off the player
    # charger: dashes at dash_speed every fire_interval s; exploder: fuses for fire_interval s, then blasts
    # blast_radius; splitter: splits into split_count split_into on death; shielded: a front shield turns
    # slowly toward the player and stops bullets that hit it from the front (game.sim.enemy_kinds)
    dash_speed: float = Field(0.0, ge=0, le=2000)
    blast_radius: float = Field(0.0, ge=0, le=300)
    split_into: str | None = None
    split_count: int = Field(0, ge=0, le=6)

    @model_validator(mode="after")
    def _behaviour_needs(self) -> Prefab:
        needs = {
            "charger": ("dash_speed", "fire_interval"),
            "exploder": ("blast_radius", "fire_interval"),
            "splitter": ("split_count",),
        }.get(self.behaviour, ())
        missing = [f for f in needs if not getattr(self, f)]
        if missing or (self.behaviour == "splitter" and not self.split_into):
            raise ValueError(f"a {self.behaviour} needs {', '.join(missing) or 'split_into'}")
        return self

    @property
    def is_boss(self) -> bool:
        """The one test of "is this a boss" (HUD boss bar, director events and telemetry, rendering...)."""
        return self.behaviour == "boss"


class PrefabFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int
    comment: str = ""
    prefabs: dict[str, Prefab]

    @model_validator(mode="after")
    def _splits(self) -> PrefabFile:
        for name, pf in self.prefabs.items():
            child = self.prefabs.get(pf.split_into or "") if pf.split_into else None
            if pf.split_into and (child is None or child.behaviour in ("splitter", "boss")):
                raise ValueError(f"{name} splits into '{pf.split_into}', not a plain prefab in this file")
        return self


class PrefabRegistry:
    """Name → prefab, with a stable index per name for the simulation's vectorised arrays."""

    def __init__(self, prefabs: dict[str, Prefab]) -> None:
        if not prefabs:
            raise PersistenceError("prefabs", "the prefab file defines no prefabs")
        self._prefabs = dict(prefabs)
        self.names: tuple[str, ...] = tuple(prefabs)
        self._index = {name: i for i, name in enumerate(self.names)}
        # what spawners, director plans and agents may ask for in a mix: everything but bosses, which only
        # come by wave or by a named event
        self.regular: tuple[str, ...] = tuple(n for n in self.names if not prefabs[n].is_boss)
        # the simulation's kind indices of the boss prefabs (``enemies.view("kind")``)
        self.boss_kinds: tuple[int, ...] = tuple(i for i, n in enumerate(self.names) if prefabs[n].is_boss)

    @classmethod
    def load(cls, path: Path = DEFAULT_PREFAB_FILE) -> PrefabRegistry:
        try:
            data = loads_json(path.read_text(encoding="utf-8"))
            return cls(PrefabFile.model_validate(data).prefabs)
        except (OSError, json.JSONDecodeError, ValidationError) as exc:
            raise PersistenceError(str(path), f"invalid prefab file: {reason(exc)}") from exc

    def get(self, name: str) -> Prefab:
        try:
            return self._prefabs[name]
        except KeyError:
            raise UnknownPrefabError(name, self.names) from None

    def index(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise UnknownPrefabError(name, self.names) from None

    def is_boss(self, name: str) -> bool:
        """Whether the prefab ``name`` is a boss (False for a name that is not a prefab)."""
        pf = self._prefabs.get(name)
        return pf is not None and pf.is_boss

    def __contains__(self, name: object) -> bool:
        return name in self._prefabs

    def __len__(self) -> int:
        return len(self.names)

    def by_index(self, i: int) -> Prefab:
        return self._prefabs[self.names[i]]
