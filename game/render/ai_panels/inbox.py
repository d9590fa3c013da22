"""A thread-safe hand-off from worker threads to the game's main thread.

Agent answers (``session.ask``, ``session.programmer_task``) and backend switches finish on worker threads,
but panels, text objects and toasts belong to the main thread. Workers ``post`` a callable; the main thread
runs everything posted so far with ``drain`` (from a frame hook, or while a panel draws). A callable that
raises is logged and dropped; the rest still run.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

from loguru import logger

log = logger.bind(feature="game", trace_id="ai-panels")

MAX_PER_DRAIN = 64  # a flood of answers is spread over frames instead of stalling one


class MainThreadInbox:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def post(self, fn: Callable[[], None]) -> None:
        """Queue ``fn`` for the main thread; safe from any thread."""
        self._queue.put(fn)

    def drain(self, limit: int = MAX_PER_DRAIN) -> int:
        """Run what was posted (main thread only); returns how many callables ran."""
        ran = 0
        while ran < limit:
            try:
                fn = self._queue.get_nowait()
            except queue.Empty:
                break
            ran += 1
            try:
                fn()
            except Exception as exc:  # one bad hand-off must not drop the others or the frame
                log.opt(exception=exc).error("main-thread hand-off failed: {}", exc)
        return ran

    def pending(self) -> bool:
        return not self._queue.empty()
