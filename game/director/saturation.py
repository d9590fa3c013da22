"""Which director knobs sit at a bound, and whether the director has run out of levers in one direction.

A knob at the end of its range cannot move further that way; the director logs each knob that becomes
saturated (and when it frees up) and F10 shows them. ``escalation_exhausted`` is the state the director must
never sit in while the player is bored: every lever that raises the challenge is at its maximum.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.director.plan import (
    ELITE_CHANCE_RANGE,
    MIX_WEIGHT_RANGE,
    PICKUP_RATE_RANGE,
    PRESSURE_RANGE,
    DirectorKnobs,
)

EPS = 1e-6


@dataclass(frozen=True)
class Saturation:
    up: tuple[str, ...]  # knobs that cannot raise the challenge further
    down: tuple[str, ...]  # knobs that cannot ease it further

    @property
    def escalation_exhausted(self) -> bool:
        return {"pressure", "elite_chance"} <= set(self.up)

    @property
    def easing_exhausted(self) -> bool:
        return {"pressure", "elite_chance", "pickup_rate"} <= set(self.down)

    def describe(self) -> str:
        parts = []
        if self.up:
            parts.append("max: " + ", ".join(self.up))
        if self.down:
            parts.append("min: " + ", ".join(self.down))
        return "; ".join(parts) or "none"


def saturation(knobs: DirectorKnobs) -> Saturation:
    up: list[str] = []
    down: list[str] = []

    def at(name: str, value: float, lo: float, hi: float, *, harder_is_high: bool = True) -> None:
        if value >= hi - EPS:
            (up if harder_is_high else down).append(name)
        elif value <= lo + EPS:
            (down if harder_is_high else up).append(name)

    at("pressure", knobs.pressure, *PRESSURE_RANGE)
    at("elite_chance", knobs.elite_chance, *ELITE_CHANCE_RANGE)
    at("pickup_rate", knobs.pickup_rate, *PICKUP_RATE_RANGE, harder_is_high=False)
    lo, hi = MIX_WEIGHT_RANGE
    for name, w in sorted(knobs.mix.items()):
        if w >= hi - EPS or w <= lo + EPS:
            (up if w >= hi - EPS else down).append(f"mix.{name}")
    return Saturation(tuple(up), tuple(down))
