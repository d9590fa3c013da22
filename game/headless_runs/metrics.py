"""Flow metrics of one run, measured the same way in static and director modes (the evaluation's A/B).

Every playing tick is classified by the L4D intensity (``intensity.py``) and the player's HP:

- **flow**: intensity inside ``FLOW_BAND`` (challenged, not overwhelmed);
- **bored**: intensity under ``BORED_INTENSITY`` while HP is at least ``BORED_HP`` (nothing is happening);
- **overwhelmed**: intensity above the band.

The band is the middle half of the intensity scale, fixed before tuning the director. The meter also keeps
flow and bored shares per minute of game time and counts Sustain Peaks per ``PEAK_WINDOW_S`` window, so a
long run cannot hide a dead second half behind a good first three minutes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from game.sim.config import TICK_HZ

FLOW_BAND = (0.25, 0.75)
BORED_INTENSITY = 0.15
BORED_HP = 0.7
MINUTE_TICKS = 60 * TICK_HZ
PEAK_WINDOW_S = 90.0  # the evaluation wants at least one Sustain Peak in every window this long
PEAK_STATE = "sustain_peak"


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
    minute_flow: tuple[float, ...] = ()  # flow share in each minute of game time (the last may be partial)
    minute_bored: tuple[float, ...] = ()
    peaks: int = 0  # Sustain Peaks entered
    peak_windows: int = 0  # complete PEAK_WINDOW_S windows
    peak_windows_hit: int = 0  # ... of which held at least one Sustain Peak entry
    checkpoints: tuple[DirectedMetrics, ...] = ()  # the same run's metrics after shorter times, if asked


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
        self._minute: list[list[int]] = []  # [ticks, flow, bored] per minute
        self._peak_ticks: list[int] = []  # tick index of each Sustain Peak entry
        self._last_pacing = ""

    def add(self, intensity: float, hp_fraction: float, pacing: str, pressure: float) -> None:
        if self.ticks % MINUTE_TICKS == 0:
            self._minute.append([0, 0, 0])
        minute = self._minute[-1]
        minute[0] += 1
        if pacing == PEAK_STATE and self._last_pacing != PEAK_STATE:
            self._peak_ticks.append(self.ticks)
        self._last_pacing = pacing
        self.ticks += 1
        lo, hi = FLOW_BAND
        if lo <= intensity <= hi:
            self.flow += 1
            minute[1] += 1
        elif intensity > hi:
            self.over += 1
        if intensity < BORED_INTENSITY and hp_fraction >= BORED_HP:
            self.bored += 1
            minute[2] += 1
        self.intensity_sum += intensity
        self.pressure_sum += pressure
        self.pacing[pacing] += 1

    def share(self, count: int) -> float:
        return count / self.ticks if self.ticks else 0.0

    def peak_windows(self) -> tuple[int, int]:
        """(complete PEAK_WINDOW_S windows, how many of them saw a Sustain Peak begin)."""
        size = round(PEAK_WINDOW_S * TICK_HZ)
        windows = self.ticks // size
        hit = {t // size for t in self._peak_ticks if t // size < windows}
        return windows, len(hit)

    def result(self, mode: str, deaths: int, **counts: object) -> DirectedMetrics:
        n = max(1, self.ticks)
        windows, hit = self.peak_windows()
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
            minute_flow=tuple(round(m[1] / m[0], 4) for m in self._minute),
            minute_bored=tuple(round(m[2] / m[0], 4) for m in self._minute),
            peaks=len(self._peak_ticks),
            peak_windows=windows,
            peak_windows_hit=hit,
            **counts,  # type: ignore[arg-type]
        )
