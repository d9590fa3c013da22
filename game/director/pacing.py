"""Pacing: Left 4 Dead's loop Build Up → Sustain Peak → Peak Fade → Relax, driven by intensity.

- **Build Up**: the bank's full income until intensity reaches ``peak_intensity``.
- **Sustain Peak**: keep it for ``sustain_s`` (L4D's 3–5 s: a human's attention span).
- **Peak Fade**: ``fade_income`` of it until intensity falls below ``fade_exit`` (or ``fade_max_s`` passes,
  so an engaged player whose intensity cannot decay is not stuck there).
- **Relax**: ``relax_income`` for ``relax_s`` (L4D's 30–45 s scaled to our shorter waves), ending early
  once the player has calmed down. Then Build Up again. Presence never drops with it: the presence floor
  (``act.py``) holds in every state.

The values are ``[pacing]`` of ``assets/director/tuning.toml``. Durations inside a range are drawn from a
``random.Random`` seeded per run, so a run replays exactly.
"""

from __future__ import annotations

import random
from enum import StrEnum

from game.director.tuning import TUNING, PacingTuning


class PacingState(StrEnum):
    BUILD_UP = "build_up"
    SUSTAIN_PEAK = "sustain_peak"
    PEAK_FADE = "peak_fade"
    RELAX = "relax"


def income(state: PacingState, t: PacingTuning = TUNING.pacing) -> float:
    """How much of the bank's credit income ``state`` lets through."""
    if state is PacingState.PEAK_FADE:
        return t.fade_income
    return t.relax_income if state is PacingState.RELAX else 1.0


class Pacing:
    """The state machine; ``update(intensity, dt)`` once per tick."""

    def __init__(self, seed: int = 0, tuning: PacingTuning = TUNING.pacing) -> None:
        self.t = tuning
        self._rng = random.Random(seed * 7_919 + 17)
        self.state = PacingState.BUILD_UP
        self.time_in_state = 0.0
        self._limit = 0.0  # the drawn duration of the current timed state
        self.since_peak = 0.0  # seconds since the last Sustain Peak began (or since the run began)

    def _enter(self, state: PacingState) -> None:
        self.state = state
        self.time_in_state = 0.0
        if state is PacingState.SUSTAIN_PEAK:
            self.since_peak = 0.0
            self._limit = self._rng.uniform(*self.t.sustain_s)
        elif state is PacingState.RELAX:
            self._limit = self._rng.uniform(*self.t.relax_s)
        else:
            self._limit = 0.0

    @property
    def state_duration(self) -> float:
        """The drawn length of the current Sustain Peak / Relax (0 for the other states)."""
        return self._limit

    def update(self, intensity: float, dt: float) -> PacingState:
        self.time_in_state += dt
        self.since_peak += dt
        s, t = self.state, self.t
        if s is PacingState.BUILD_UP:
            if intensity >= t.peak_intensity:
                self._enter(PacingState.SUSTAIN_PEAK)
        elif s is PacingState.SUSTAIN_PEAK:
            if self.time_in_state >= self._limit:
                self._enter(PacingState.PEAK_FADE)
        elif s is PacingState.PEAK_FADE:
            if intensity < t.fade_exit or self.time_in_state >= t.fade_max_s:
                self._enter(PacingState.RELAX)
        elif self.time_in_state >= self._limit or (
            self.time_in_state >= t.relax_min_s and intensity < t.relax_exit
        ):
            self._enter(PacingState.BUILD_UP)
        return self.state
