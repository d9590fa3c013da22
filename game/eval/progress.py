"""A dependency-free progress bar on stderr (stdout stays clean for the report).

On a terminal it redraws one line; elsewhere (CI logs, pipes) it prints a line every tenth of the way.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    def __init__(self, total: int, label: str, *, width: int = 28, stream: TextIO | None = None) -> None:
        self.total = max(1, total)
        self.label = label
        self.width = width
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.perf_counter()
        self.done = 0
        self._decile = -1

    def update(self, done: int, note: str = "") -> None:
        self.done = done
        frac = min(1.0, done / self.total)
        elapsed = time.perf_counter() - self.start
        if not self.tty:
            decile = int(frac * 10)
            if decile != self._decile:
                self._decile = decile
                self.stream.write(f"{self.label}: {done}/{self.total} after {elapsed:.1f}s\n")
                self.stream.flush()
            return
        filled = round(frac * self.width)
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {done}/{self.total} {elapsed:5.1f}s eta {eta:4.0f}s {note[:32]:<32}"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
