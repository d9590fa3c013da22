"""Upgrades offered between waves (pick 1 of 3). They stack: the player's stats are recomputed from the base
stats and the number of times each upgrade was taken."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from game.sim.config import PLAYER_BASE, PlayerBase


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


def get_upgrade(key: str) -> Upgrade:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown upgrade '{key}'; known: {', '.join(UPGRADE_KEYS)}") from None


def stats_for(stacks: dict[str, int], base: PlayerBase = PLAYER_BASE) -> PlayerBase:
    """The player's effective stats for a set of upgrade stacks."""
    s = stacks.get
    return replace(
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


def roll_choices(rng: np.random.Generator, stacks: dict[str, int], k: int = 3) -> list[str]:
    """``k`` distinct upgrades that have not reached their stack cap, drawn from the run's RNG."""
    open_keys = [u.key for u in UPGRADES if stacks.get(u.key, 0) < u.max_stacks]
    if len(open_keys) <= k:
        return open_keys
    picks = rng.choice(len(open_keys), size=k, replace=False)
    return [open_keys[int(i)] for i in picks]
