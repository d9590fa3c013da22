"""Difficulty presets (``[game] difficulty``): how hard the director pushes.

A preset scales the rules director's intensity targets (it raises the pressure while the player's intensity
is under ``raise_intensity``, spikes under ``coast_intensity``), the HP below which it eases off, and the
skill-based pressure ceiling (``rules.pressure_ceiling``: how far plain pressure may rise for the player's
estimated skill). Normal is the tuned default: factors 1.0.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    label: str
    intensity: float  # multiplies the director's target intensity (higher: it keeps raising longer)
    ease_hp: float  # multiplies the HP fraction under which it eases off (higher: it backs off sooner)
    ceiling: float = 1.0  # multiplies the skill-based pressure ceiling (higher: more pressure per skill)


PRESETS: dict[str, Preset] = {
    "easy": Preset("Easy", 0.7, 1.3, 0.75),
    "normal": Preset("Normal", 1.0, 1.0, 1.0),
    "hard": Preset("Hard", 1.3, 0.75, 1.3),
}


NORMAL = PRESETS["normal"]


def preset(name: str) -> Preset:
    return PRESETS.get(name, PRESETS["normal"])
