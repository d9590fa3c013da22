"""An online estimate of the player's skill, 0..1 (0.5 = the average bot), from telemetry alone.

Four signals, each mapped to 0..1 over the last minute (or the run so far):

- **kill share**: kills / enemies spawned, relative to the spawn rate (a player who keeps up with the spawner
  scores high, one the enemies pile up on scores low);
- **damage**: max-HP bars lost per minute (fewer is better), judged against the pressure it was taken under,
  so a player who takes a bar a minute at triple pressure is not rated like one who takes it at half;
- **accuracy**: hits / shots;
- **time alive**: seconds since the last death (or the run start).

Their weighted mean is the raw score. The estimate starts at ``PRIOR`` (a first-time player until shown
otherwise) and follows the raw score with an exponential moving average whose time constant is short while
evidence is thin (so a strong player is recognised inside the first minute) and ``TAU_S`` later. Deaths pull
it down at once (``DEATH_PENALTY``). The director reads it to pick the target intensity and the pressure
ceiling (``rules.py``); F10 shows it with its signals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PRIOR = 0.35
TAU_S = 40.0  # time constant once the estimate has a minute of evidence
TAU_EARLY_S = 8.0  # time constant at the start of a run
EVIDENCE_S = 60.0  # the time constant grows from TAU_EARLY_S to TAU_S over this much play
DEATH_PENALTY = 0.12
WEIGHTS = {"kills": 0.3, "damage": 0.35, "accuracy": 0.15, "alive": 0.2}
KILL_SHARE_RANGE = (0.35, 0.95)  # kill share mapped linearly to 0..1 over this range
DAMAGE_PER_MIN_RANGE = (0.1, 1.6)  # bars per minute (at pressure 1): 0.1 -> 1.0, 1.6 -> 0.0
ACCURACY_RANGE = (0.15, 0.7)
ALIVE_FULL_S = 150.0  # time alive at which the signal saturates
LABELS = ((0.2, "novice"), (0.4, "weak"), (0.62, "average"), (1.01, "strong"))


@dataclass(frozen=True)
class SkillSignals:
    kills: float
    damage: float
    accuracy: float
    alive: float

    def score(self) -> float:
        return sum(w * getattr(self, name) for name, w in WEIGHTS.items())


def _unit(x: float, lo: float, hi: float) -> float:
    return 0.0 if x <= lo else 1.0 if x >= hi else (x - lo) / (hi - lo)


def signals(
    *,
    kills: float,
    spawned: float,
    damage_bars: float,
    minutes: float,
    accuracy: float,
    alive_s: float,
    pressure: float = 1.0,
) -> SkillSignals:
    """Map raw telemetry over the last ``minutes`` to the four 0..1 signals."""
    share = kills / spawned if spawned >= 1.0 else 1.0
    per_min = damage_bars / max(minutes, 1e-6) / max(0.3, pressure) ** 0.5
    lo, hi = DAMAGE_PER_MIN_RANGE
    return SkillSignals(
        kills=_unit(share, *KILL_SHARE_RANGE),
        damage=1.0 - _unit(per_min, lo, hi),
        accuracy=_unit(accuracy, *ACCURACY_RANGE),
        alive=_unit(alive_s, 0.0, ALIVE_FULL_S),
    )


def label(value: float) -> str:
    return next(name for top, name in LABELS if value < top)


class SkillEstimator:
    """``update(signals, dt, played_s)`` about once a second; ``value`` is the estimate."""

    def __init__(self, prior: float = PRIOR) -> None:
        self.value = prior
        self.last: SkillSignals | None = None

    def update(self, sig: SkillSignals, dt: float, played_s: float) -> float:
        self.last = sig
        frac = min(1.0, played_s / EVIDENCE_S)
        tau = TAU_EARLY_S + (TAU_S - TAU_EARLY_S) * frac
        alpha = 1.0 - math.exp(-dt / tau)
        self.value += alpha * (sig.score() - self.value)
        return self.value

    def on_death(self) -> None:
        self.value = max(0.0, self.value - DEATH_PENALTY)
