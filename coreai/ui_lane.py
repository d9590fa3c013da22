"""The main-loop queue's second lane: the game's own hand-offs to its main thread.

``MainLoopQueue`` has two lanes, one hand-off in two speeds:
- **world commands** (``post``): what agents do to the game. They are validated, rate limited, applied
  within a per-frame time budget, and they wait while the game is paused.
- **UI hand-offs** (``post_ui``, this module): an answer a worker thread finished for a panel, a notice that
  becomes a toast. They touch only the game's own widgets, so they run every frame on every screen, paused
  or not, without a budget (at most ``MAX_PER_DRAIN`` a frame, so a flood is spread over frames).

A hand-off that raises is logged and dropped; the rest still run. The lane is bounded: past ``max_pending``
the oldest hand-off is dropped (and counted), so a game that never drains it (a headless run with no panels)
cannot grow without limit.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from loguru import logger

_log = logger.bind(feature="world", trace_id="ui-lane")

MAX_PER_DRAIN = 64
MAX_PENDING = 512


@dataclass(frozen=True)
class UiHandOff:
    fn: Callable[[], None]
    label: str


class UiLane:
    def __init__(self, max_pending: int = MAX_PENDING) -> None:
        self._dq: deque[UiHandOff] = deque()
        self._max = max_pending
        self._lock = threading.Lock()  # only around the bound check: append/popleft are atomic on their own
        self.dropped = 0
        self.ran = 0

    def post(self, fn: Callable[[], None], label: str = "ui") -> None:
        """Queue ``fn`` for the main thread; safe from any thread."""
        with self._lock:
            if len(self._dq) >= self._max:
                old = self._dq.popleft()
                self.dropped += 1
                _log.warning(
                    "ui lane full ({} pending): dropped the oldest hand-off ({})", self._max, old.label
                )
            self._dq.append(UiHandOff(fn, label))

    def drain(self, limit: int = MAX_PER_DRAIN) -> int:
        """Run what was posted, oldest first (main thread only); returns how many hand-offs ran."""
        ran = 0
        while ran < limit:
            try:
                item = self._dq.popleft()
            except IndexError:
                break
            ran += 1
            try:
                item.fn()
            except Exception as exc:  # one bad hand-off must not drop the others or the frame
                _log.opt(exception=exc).error("main-thread hand-off {} failed: {}", item.label, exc)
        self.ran += ran
        return ran

    def pending(self) -> int:
        return len(self._dq)
