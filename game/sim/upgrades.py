"""Upgrades offered between waves (pick 1 of 3): stat upgrades (the passives), mod-registered passives, and
weapon cards (a new weapon for a free slot, or a level for a held one, keyed ``weapon:<key>``).

Stats are recomputed from the base stats and the number of times each passive was taken.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from game.sim.config import PLAYER_BASE, PlayerBase

if TYPE_CHECKING:
    from game.sim.weapons import Arsenal

WEAPON_PREFIX = "weapon:"
WEAPON_WEIGHT = 1.5  # weapon cards come up a little more often than any one stat upgrade


@dataclass(frozen=True)
class Upgrade:
    key: str
    name: str
    description: str
    max_stacks: int = 99


UPGRADES: tuple[Upgrade, ...] = (
    Upgrade("fire_rate", "Rapid Fire", "+18% fire rate"),
    Upgrade("damage", "Hollow Points", "+22% bullet damage"),
    Upgrade("move_speed", "Light Boots", "+10% move speed", max_stacks=6),
    Upgrade("multishot", "Split Barrel", "+1 projectile per shot", max_stacks=6),
    Upgrade("pierce", "Piercing Rounds", "bullets pass through +1 enemy", max_stacks=5),
    Upgrade("max_hp", "Vitality", "+25 max HP and heal 25"),
    Upgrade("dash_cooldown", "Quick Step", "-18% dash cooldown", max_stacks=5),
    Upgrade("pickup_radius", "Magnet", "+35% pickup radius", max_stacks=6),
    Upgrade("bullet_speed", "Long Barrel", "+15% bullet speed and range", max_stacks=5),
    Upgrade("regen", "Regeneration", "+0.6 HP per second", max_stacks=5),
)
UPGRADE_KEYS = tuple(u.key for u in UPGRADES)
_BY_KEY = {u.key: u for u in UPGRADES}

ModStat = Literal[
    "damage", "fire_rate", "speed", "max_hp", "pickup_radius", "bullet_speed", "dash_cooldown", "regen"
]


class ModUpgrade(BaseModel):
    """A passive a Lua mod registers (``game.register_upgrade``): per stack, each named stat is multiplied by
    its factor (``regen`` adds HP per second instead)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")
    name: str = Field(min_length=1, max_length=28)
    description: str = Field(max_length=80)
    max_stacks: int = Field(3, ge=1, le=10)
    effects: dict[ModStat, float] = Field(min_length=1, max_length=4)
    source: str = ""

    @model_validator(mode="after")
    def _bounded(self) -> ModUpgrade:
        for stat, v in self.effects.items():
            lo, hi = (0.0, 2.0) if stat == "regen" else (0.5, 1.6)
            if not lo <= v <= hi:
                raise ValueError(f"effect {stat}={v:g} is outside [{lo:g}, {hi:g}]")
        if self.key in _BY_KEY or self.key.startswith("weapon"):
            raise ValueError(f"'{self.key}' is a built-in upgrade")
        return self


def get_upgrade(key: str, extra: Mapping[str, ModUpgrade] | None = None) -> Upgrade:
    if key in _BY_KEY:
        return _BY_KEY[key]
    if extra and key in extra:
        m = extra[key]
        return Upgrade(m.key, m.name, m.description, m.max_stacks)
    raise KeyError(f"unknown upgrade '{key}'; known: {', '.join(UPGRADE_KEYS)}")


def upgrade_name(key: str) -> str:
    """A player-facing name for any key a run summary may hold (a removed mod's key shows as itself)."""
    if key.startswith(WEAPON_PREFIX):
        from game.sim.weapon_data import catalogue

        wkey = key[len(WEAPON_PREFIX) :]
        return catalogue().specs[wkey].name if wkey in catalogue().specs else wkey
    return _BY_KEY[key].name if key in _BY_KEY else key.replace("_", " ").title()


def stats_for(
    stacks: dict[str, int], base: PlayerBase = PLAYER_BASE, extra: Mapping[str, ModUpgrade] | None = None
) -> PlayerBase:
    """The player's effective stats for a set of upgrade stacks (built-in and mod passives)."""
    s = stacks.get
    stats = replace(
        base,
        fire_rate=base.fire_rate * (1.18 ** s("fire_rate", 0)),
        damage=base.damage * (1.22 ** s("damage", 0)),
        speed=base.speed * (1.10 ** s("move_speed", 0)),
        multishot=base.multishot + s("multishot", 0),
        pierce=base.pierce + s("pierce", 0),
        max_hp=base.max_hp + 25.0 * s("max_hp", 0),
        dash_cooldown=base.dash_cooldown * (0.82 ** s("dash_cooldown", 0)),
        pickup_radius=base.pickup_radius * (1.35 ** s("pickup_radius", 0)),
        bullet_speed=base.bullet_speed * (1.15 ** s("bullet_speed", 0)),
        bullet_ttl=base.bullet_ttl * (1.10 ** s("bullet_speed", 0)),
        regen=base.regen + 0.6 * s("regen", 0),
    )
    for key, m in (extra or {}).items():
        n = s(key, 0)
        if not n:
            continue
        changes: dict[str, float] = {}
        for stat, v in m.effects.items():
            now = float(getattr(stats, stat))
            changes[stat] = now + v * n if stat == "regen" else now * v**n
        stats = replace(stats, **changes)  # type: ignore[arg-type]
    return stats


def open_offers(
    stacks: dict[str, int],
    arsenal: Arsenal | None = None,
    available: frozenset[str] | None = None,
    extra: Mapping[str, ModUpgrade] | None = None,
) -> tuple[list[str], list[float]]:
    """Every card that may be offered now, with its draw weight."""
    keys = [u.key for u in UPGRADES if stacks.get(u.key, 0) < u.max_stacks]
    keys += [m.key for m in (extra or {}).values() if stacks.get(m.key, 0) < m.max_stacks]
    weights = [1.0] * len(keys)
    if arsenal is not None:
        pool = arsenal.cat.base if available is None else [k for k in arsenal.cat.base if k in available]
        for wkey in pool:
            if arsenal.can_take(wkey):
                keys.append(WEAPON_PREFIX + wkey)
                weights.append(WEAPON_WEIGHT)
    return keys, weights


def roll_choices(
    rng: np.random.Generator,
    stacks: dict[str, int],
    k: int = 3,
    *,
    arsenal: Arsenal | None = None,
    available: frozenset[str] | None = None,
    extra: Mapping[str, ModUpgrade] | None = None,
) -> list[str]:
    """``k`` distinct open cards, drawn from the run's RNG."""
    keys, weights = open_offers(stacks, arsenal, available, extra)
    if len(keys) <= k:
        return keys
    w = np.array(weights)
    picks = rng.choice(len(keys), size=k, replace=False, p=w / w.sum())
    return [keys[int(i)] for i in picks]


@dataclass(frozen=True)
class Offer:
    """What an upgrade card shows: a title, a line of what it does, and a tag (NEW, LV 2 → 3, EVOLVES ...)."""

    key: str
    name: str
    description: str
    tag: str
    weapon: bool = False


def describe_offer(
    key: str, stacks: Mapping[str, int], arsenal: Arsenal, extra: Mapping[str, ModUpgrade] | None = None
) -> Offer:
    if key.startswith(WEAPON_PREFIX):
        wkey = key[len(WEAPON_PREFIX) :]
        spec = arsenal.cat.get(wkey)
        level = arsenal.level(wkey)
        if level == 0:
            return Offer(key, spec.name, spec.description, "NEW WEAPON", True)
        gain = spec.per_level
        bits = [f"+{gain.damage:.0%} damage"] if gain.damage else []
        bits += (
            [f"+{gain.count} {'blade' if spec.pattern == 'orbit' else 'projectile'}"] if gain.count else []
        )
        bits += [f"-{1 - gain.cooldown:.0%} cooldown"] if gain.cooldown < 1 else []
        tag = f"LV {level} -> {level + 1}"
        if level + 1 >= spec.max_level and spec.evolves_with:
            tag += f"  MAX (evolves with {get_upgrade(spec.evolves_with, extra).name})"
        return Offer(key, spec.name, ", ".join(bits) or spec.description, tag, True)
    up = get_upgrade(key, extra)
    owned = stacks.get(key, 0)
    tag = f"owned x{owned}  ->  x{owned + 1}" if owned else "NEW"
    for h in arsenal.held:
        spec = arsenal.cat.get(h.key)
        if spec.evolves_with == key and spec.evolves_into:
            evolved = arsenal.cat.get(spec.evolves_into).name
            tag = (
                f"EVOLVES {spec.name} -> {evolved}"
                if h.level >= spec.max_level
                else f"{spec.name} evolves with it"
            )
            break
    return Offer(key, up.name, up.description, tag)
