"""Which director knobs sit at a bound, and whether the director has run out of levers in one direction.

A knob at the end of its range (``knobs.KNOBS``) cannot move further that way; the director logs each knob
that becomes saturated and F10 shows them. ``escalation_exhausted`` is the state the director must never sit
in while the player is bored: every lever that raises the challenge (``ESCALATION``) is at its maximum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.director.knobs import KNOBS, MIX_WEIGHT
from game.director.plan import DirectorKnobs

EPS = 1e-6
# from the knob table: which knobs a raise or spike moves, which easing may move
ESCALATION = frozenset(k.name for k in KNOBS if k.escalates)
EASING = frozenset(k.name for k in KNOBS)


@dataclass(frozen=True)
class Saturation:
    up: tuple[str, ...]  # knobs that cannot raise the challenge further
    down: tuple[str, ...]  # knobs that cannot ease it further

    @property
    def escalation_exhausted(self) -> bool:
        return set(self.up) >= ESCALATION

    def describe(self) -> str:
        parts = []
        if self.up:
            parts.append("max " + ", ".join(self.up))
        if self.down:
            parts.append("min " + ", ".join(self.down))
        return "; ".join(parts) or "none"


NO_SATURATION = Saturation((), ())


def saturation(knobs: DirectorKnobs) -> Saturation:
    up: list[str] = []
    down: list[str] = []
    for knob in KNOBS:
        value = float(getattr(knobs, knob.name))
        high, low = value >= knob.hi - EPS, value <= knob.lo + EPS
        if not knob.harder_high:  # pickups: more is easier
            high, low = low, high
        if high:
            up.append(knob.name)
        elif low:
            down.append(knob.name)
    for name, w in sorted(knobs.mix.items()):
        if w >= MIX_WEIGHT.hi - EPS:
            up.append(f"mix.{name}")
    return Saturation(tuple(up), tuple(down))


def log_changes(before: Saturation, now: Saturation, log: Any) -> None:
    """Log each knob that became saturated since ``before``, and escalation running out (a warning)."""
    for name in sorted(set(now.up) - set(before.up)):
        log.info("knob saturated: {} at its maximum challenge", name)
    for name in sorted(set(now.down) - set(before.down)):
        log.info("knob saturated: {} at its minimum challenge", name)
    if now.escalation_exhausted and not before.escalation_exhausted:
        log.warning("every escalation knob is at its bound ({})", now.describe())
