"""Graphics quality: which costly effects are drawn (particles, glow, the vignette), and the automatic
low-effects mode for slow machines.

``[game] graphics_quality`` is ``"auto"`` (the default), ``"high"`` or ``"low"``:

- ``high`` draws everything: particle bursts, glows (bullet halos, enemy shadows, elite and boss auras, hit
  flashes, the player's glow) and the damage / low-HP vignette;
- ``low`` draws none of them (the sprites that carry play stay: enemies, bullets, pickups, the player);
- ``auto`` starts high and switches to low for the rest of the session once the frame rate stays under
  ``AUTO_LOW_FPS`` for ``AUTO_WINDOW_S`` of live play (never back: no flapping between the two).

``FrameGovernor.observe(dt)`` is fed the real frame interval by the arena while the game runs.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

from loguru import logger

log = logger.bind(feature="render", trace_id=None)

QualitySetting = Literal["auto", "high", "low"]
AUTO_LOW_FPS = 30.0
AUTO_WINDOW_S = 3.0  # the frame rate must stay under AUTO_LOW_FPS this long (median of the window)
AUTO_GRACE_S = 2.0  # frames right after a run starts (texture uploads, first allocations) do not count


@dataclass(frozen=True)
class Quality:
    particles: bool
    glow: bool
    vignette: bool

    @property
    def name(self) -> str:
        return "high" if self.particles else "low"


HIGH = Quality(particles=True, glow=True, vignette=True)
LOW = Quality(particles=False, glow=False, vignette=False)


class FrameGovernor:
    """Holds the quality in use and lowers them automatically (setting ``auto``) on a slow machine."""

    def __init__(self, setting: QualitySetting = "auto") -> None:
        self.setting: QualitySetting = setting
        self.auto_lowered = False
        self._frames: deque[float] = deque()
        self._span = 0.0
        self._grace = AUTO_GRACE_S

    @property
    def quality(self) -> Quality:
        if self.setting == "low" or (self.setting == "auto" and self.auto_lowered):
            return LOW
        return HIGH

    def set(self, setting: QualitySetting) -> None:
        self.setting = setting
        self.auto_lowered = False
        self.restart()

    def restart(self) -> None:
        """A new run (or a pause ended): forget the frame window and wait out the grace time again."""
        self._frames.clear()
        self._span = 0.0
        self._grace = AUTO_GRACE_S

    def observe(self, dt: float) -> bool:
        """One live frame took ``dt`` seconds of real time; True when this frame switched effects to low."""
        if self.setting != "auto" or self.auto_lowered or dt <= 0.0:
            return False
        if self._grace > 0.0:
            self._grace -= dt
            return False
        self._frames.append(dt)
        self._span += dt
        while self._span - self._frames[0] >= AUTO_WINDOW_S:
            self._span -= self._frames.popleft()
        if self._span < AUTO_WINDOW_S * 0.95:
            return False
        ordered = sorted(self._frames)
        median = ordered[len(ordered) // 2]
        if median > 1.0 / AUTO_LOW_FPS:
            self.auto_lowered = True
            log.info(
                "frame rate {:.1f} FPS under {:.0f} for {:.1f}s: low effects from now on",
                1.0 / median,
                AUTO_LOW_FPS,
                self._span,
            )
            return True
        return False
