"""Pacing: Left 4 Dead's loop Build Up → Sustain Peak → Peak Fade → Relax, driven by intensity.

- **Build Up**: full spawning until intensity reaches ``PEAK_INTENSITY``.
- **Sustain Peak**: keep the pressure for 3–5 s (L4D's figure, kept as is: it is about a human's attention
  span, not the map's size).
- **Peak Fade**: minimal spawning until intensity falls below ``FADE_EXIT`` (or ``PEAK_FADE_MAX_S`` passes,
  so an engaged player whose intensity cannot decay is not stuck there).
- **Relax**: L4D relaxes 30–45 s between mobs that come every 90–180 s. Our waves last 30–60 s, a third of
  that rhythm, so the relax window is scaled by 1/3 to ``RELAX_S`` = 10–15 s. It ends early once the player
has calmed down (intensity under ``RELAX_EXIT`` after at least ``RELAX_MIN_S``): a rest, not a lull where
nothing happens. Then Build Up again.

Durations inside a range are drawn from a ``random.Random`` seeded per run, so a run replays exactly.
"""

from __future__ import annotations

import random
from enum import StrEnum


class PacingState(StrEnum):
    BUILD_UP = "build_up"
    SUSTAIN_PEAK = "sustain_peak"
    PEAK_FADE = "peak_fade"
    RELAX = "relax"


PEAK_INTENSITY = 0.8
SUSTAIN_PEAK_S = (3.0, 5.0)
FADE_EXIT = 0.5
PEAK_FADE_MAX_S = 10.0
L4D_RELAX_S = (30.0, 45.0)
ARENA_TIME_SCALE = 1.0 / 3.0  # our 30–60 s waves against L4D's 90–180 s mob interval
RELAX_S = (L4D_RELAX_S[0] * ARENA_TIME_SCALE, L4D_RELAX_S[1] * ARENA_TIME_SCALE)
RELAX_MIN_S = 5.0
RELAX_EXIT = 0.2

# How much of the spawner's credit income each state lets through.
CREDIT_MULT: dict[PacingState, float] = {
    PacingState.BUILD_UP: 1.0,
    PacingState.SUSTAIN_PEAK: 1.0,
    PacingState.PEAK_FADE: 0.15,
    PacingState.RELAX: 0.6,
}


class Pacing:
    """The state machine; ``update(intensity, dt)`` once per tick."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed * 7_919 + 17)
        self.state = PacingState.BUILD_UP
        self.time_in_state = 0.0
        self._limit = 0.0  # the drawn duration of the current timed state
        self.transitions = 0
        self.since_peak = 0.0  # seconds since the last Sustain Peak began (or since the run began)

    def _enter(self, state: PacingState) -> None:
        self.state = state
        self.time_in_state = 0.0
        self.transitions += 1
        if state is PacingState.SUSTAIN_PEAK:
            self.since_peak = 0.0
            self._limit = self._rng.uniform(*SUSTAIN_PEAK_S)
        elif state is PacingState.RELAX:
            self._limit = self._rng.uniform(*RELAX_S)
        else:
            self._limit = 0.0

    @property
    def state_duration(self) -> float:
        """The drawn length of the current Sustain Peak / Relax (0 for the other states)."""
        return self._limit

    def end_relax(self) -> None:
        """Cut a Relax short (the director's calm nudge): Build Up from now."""
        if self.state is PacingState.RELAX:
            self._enter(PacingState.BUILD_UP)

    def update(self, intensity: float, dt: float) -> PacingState:
        self.time_in_state += dt
        self.since_peak += dt
        s = self.state
        if s is PacingState.BUILD_UP:
            if intensity >= PEAK_INTENSITY:
                self._enter(PacingState.SUSTAIN_PEAK)
        elif s is PacingState.SUSTAIN_PEAK:
            if self.time_in_state >= self._limit:
                self._enter(PacingState.PEAK_FADE)
        elif s is PacingState.PEAK_FADE:
            if intensity < FADE_EXIT or self.time_in_state >= PEAK_FADE_MAX_S:
                self._enter(PacingState.RELAX)
        elif self.time_in_state >= self._limit or (
            self.time_in_state >= RELAX_MIN_S and intensity < RELAX_EXIT
        ):
            self._enter(PacingState.BUILD_UP)
        return self.state
