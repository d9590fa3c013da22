"""An online estimate of the player's skill, 0..1 (0.5 = the average bot), from telemetry alone.

Four signals, each mapped to 0..1 over the last minute (or the run so far):

- **kill share**: kills / enemies spawned, relative to the spawn rate (a player who keeps up with the spawner
  scores high, one the enemies pile up on scores low);
- **damage**: max-HP bars lost per minute (fewer is better), judged against the pressure it was taken under,
  so a player who takes a bar a minute at triple pressure is not rated like one who takes it at half;
- **accuracy**: hits / shots;
- **time alive**: seconds since the last death (or the run start).

Their weighted mean is the raw score. The estimate starts at ``prior`` (a first-time player until shown
otherwise) and follows the raw score with an exponential moving average whose time constant is short while
evidence is thin (so a strong player is recognised inside the first minute) and ``tau_s`` later. Deaths pull
it down at once (``death_penalty``). The values are ``[skill]`` of ``assets/director/tuning.toml``. The
director reads it to pick the pressure ceiling and escalation (``rules.py``); F10 shows it with its signals
and a label (``LABELS``: the bot ladder's names, for display only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.director.tuning import TUNING

S = TUNING.skill
LABELS = ((0.2, "novice"), (0.4, "weak"), (0.62, "average"), (1.01, "strong"))


@dataclass(frozen=True)
class SkillSignals:
    kills: float
    damage: float
    accuracy: float
    alive: float

    def score(self) -> float:
        return sum(w * getattr(self, name) for name, w in S.weights)


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
    return SkillSignals(
        kills=_unit(share, *S.kill_share),
        damage=1.0 - _unit(per_min, *S.damage_per_min),
        accuracy=_unit(accuracy, *S.accuracy),
        alive=_unit(alive_s, 0.0, S.alive_full_s),
    )


def label(value: float) -> str:
    return next(name for top, name in LABELS if value < top)


class SkillEstimator:
    """``update(signals, dt, played_s)`` about once a second; ``value`` is the estimate."""

    def __init__(self, prior: float = S.prior) -> None:
        self.value = prior
        self.last: SkillSignals | None = None

    def update(self, sig: SkillSignals, dt: float, played_s: float) -> float:
        self.last = sig
        frac = min(1.0, played_s / S.evidence_s)
        tau = S.tau_early_s + (S.tau_s - S.tau_early_s) * frac
        alpha = 1.0 - math.exp(-dt / tau)
        self.value += alpha * (sig.score() - self.value)
        return self.value

    def on_death(self) -> None:
        self.value = max(0.0, self.value - S.death_penalty)
