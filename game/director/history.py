"""The intensity history F10's graph draws: the director samples intensity and the pacing state
``HISTORY_HZ`` times a second of game time, for the last ``HISTORY_S`` seconds."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from game.director.pacing import PacingState

HISTORY_S = 120.0  # the panel's intensity graph spans the last two minutes
HISTORY_HZ = 4  # samples per second of game time


@dataclass(frozen=True)
class IntensitySample:
    time: float
    intensity: float
    pacing: PacingState


class IntensityHistory:
    """A fixed-size ring of samples, taken every ``TICK_HZ // HISTORY_HZ`` ticks."""

    def __init__(self) -> None:
        self._samples: deque[IntensitySample] = deque(maxlen=int(HISTORY_S * HISTORY_HZ))

    def add(self, time: float, intensity: float, pacing: PacingState) -> None:
        self._samples.append(IntensitySample(round(time, 3), round(intensity, 4), pacing))

    def samples(self) -> tuple[IntensitySample, ...]:
        return tuple(self._samples)
