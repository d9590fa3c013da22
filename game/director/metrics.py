"""Flow metrics of one run, measured the same way in static and director modes (the evaluation's A/B).

Every playing tick is classified by the L4D intensity (``intensity.py``) and the player's HP:

- **flow**: intensity inside ``FLOW_BAND`` (challenged, not overwhelmed);
- **bored**: intensity under ``BORED_INTENSITY`` while HP is at least ``BORED_HP`` (nothing is happening);
- **overwhelmed**: intensity above the band.

The band is the middle half of the intensity scale, fixed before tuning the director.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

FLOW_BAND = (0.25, 0.75)
BORED_INTENSITY = 0.15
BORED_HP = 0.7


@dataclass(frozen=True)
class DirectedMetrics:
    mode: str
    ticks: int
    flow_share: float
    bored_share: float
    over_share: float
    mean_intensity: float
    mean_pressure: float
    deaths: int
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    superseded: int = 0
    pacing_share: dict[str, float] = field(default_factory=dict)
    pressure_counts: dict[str, int] = field(default_factory=dict)
    trajectory: str | None = None


class FlowMeter:
    """Accumulates per-tick classifications; O(1) per tick."""

    def __init__(self) -> None:
        self.ticks = 0
        self.flow = 0
        self.bored = 0
        self.over = 0
        self.intensity_sum = 0.0
        self.pressure_sum = 0.0
        self.pacing: Counter[str] = Counter()

    def add(self, intensity: float, hp_fraction: float, pacing: str, pressure: float) -> None:
        self.ticks += 1
        lo, hi = FLOW_BAND
        if lo <= intensity <= hi:
            self.flow += 1
        elif intensity > hi:
            self.over += 1
        if intensity < BORED_INTENSITY and hp_fraction >= BORED_HP:
            self.bored += 1
        self.intensity_sum += intensity
        self.pressure_sum += pressure
        self.pacing[pacing] += 1

    def share(self, count: int) -> float:
        return count / self.ticks if self.ticks else 0.0

    def result(self, mode: str, deaths: int, **counts: object) -> DirectedMetrics:
        n = max(1, self.ticks)
        return DirectedMetrics(
            mode=mode,
            ticks=self.ticks,
            flow_share=round(self.share(self.flow), 4),
            bored_share=round(self.share(self.bored), 4),
            over_share=round(self.share(self.over), 4),
            mean_intensity=round(self.intensity_sum / n, 4),
            mean_pressure=round(self.pressure_sum / n, 4),
            deaths=deaths,
            pacing_share={k: round(v / n, 4) for k, v in sorted(self.pacing.items())},
            **counts,  # type: ignore[arg-type]
        )
