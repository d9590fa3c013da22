"""Declared, bounded gameplay parameters: the only knobs mods (``game.set``) and agents may turn.

An unknown name or a value outside its range is rejected with a message naming the allowed range. A value
composed from several sources (a mod's setting times the director's factor) is brought inside the range with
``clamp`` where it is combined, so no mix of in-range sources can be refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from coreai.errors import CommandRejected


@dataclass(frozen=True)
class ParamSpec:
    name: str
    minimum: float
    maximum: float
    default: float
    description: str


PARAM_SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("player_damage_mult", 0.25, 4.0, 1.0, "multiplies the player's bullet damage"),
    ParamSpec("player_max_hp_mult", 0.25, 3.0, 1.0, "multiplies the player's max HP"),
    ParamSpec("player_speed_mult", 0.5, 2.0, 1.0, "multiplies the player's move speed"),
    ParamSpec("enemy_hp_mult", 0.25, 4.0, 1.0, "multiplies the HP of newly spawned enemies"),
    ParamSpec("enemy_speed_mult", 0.5, 2.0, 1.0, "multiplies every enemy's speed"),
    ParamSpec("enemy_damage_mult", 0.1, 4.0, 1.0, "multiplies enemy contact and projectile damage"),
    ParamSpec("spawn_rate_mult", 0.0, 3.0, 1.0, "multiplies the spawner's credit income"),
    ParamSpec("pickup_rate_mult", 0.0, 3.0, 1.0, "multiplies the health-pickup drop chance"),
    ParamSpec("score_mult", 0.0, 5.0, 1.0, "multiplies score from kills"),
    ParamSpec("xp_mult", 0.0, 5.0, 1.0, "multiplies XP from pickups"),
)
_SPECS = {p.name: p for p in PARAM_SPECS}


def _spec(name: str) -> ParamSpec:
    spec = _SPECS.get(name)
    if spec is None:
        raise CommandRejected("set_param", f"unknown param '{name}'; known: {', '.join(sorted(_SPECS))}")
    return spec


class Params:
    def __init__(self) -> None:
        self._values = {p.name: p.default for p in PARAM_SPECS}

    def get(self, name: str) -> float:
        return self._values[name]

    def set(self, name: str, value: float) -> float:
        spec = _spec(name)
        v = float(value)
        if not spec.minimum <= v <= spec.maximum:
            raise CommandRejected(
                "set_param", f"{name}={v:g} is outside [{spec.minimum:g}, {spec.maximum:g}]"
            )
        self._values[name] = v
        return v

    def clamp(self, name: str, value: float) -> float:
        """``value`` brought inside ``name``'s range: for values combined from several sources."""
        spec = _spec(name)
        return min(max(float(value), spec.minimum), spec.maximum)

    def bounds(self) -> dict[str, tuple[float, float]]:
        return {p.name: (p.minimum, p.maximum) for p in PARAM_SPECS}

    def as_dict(self) -> dict[str, float]:
        return dict(self._values)
