"""Frames actually drawn per second, on any screen (the HUD's F3 line)."""

from __future__ import annotations

import time


class FpsMeter:
    def __init__(self) -> None:
        self.fps = 0.0
        self._last: float | None = None

    def tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            dt = now - self._last
            if dt > 0:
                inst = 1.0 / dt
                self.fps = inst if self.fps == 0.0 else self.fps * 0.9 + inst * 0.1
        self._last = now
