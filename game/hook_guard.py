"""One rule for the game's per-tick and per-frame hooks (the AI session, mods, the director behind them): a
hook that raises is logged and play goes on. The window shows the fault as a toast; a headless run only logs
it. Either way the same fault is reported at most once every ``REPORT_EVERY_S`` seconds per hook, so a hook
failing on every tick cannot flood the log or the screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from loguru import logger

log = logger.bind(feature="game", trace_id=None)

REPORT_EVERY_S = 5.0


class HookGuard:
    """``call(hook, *args)`` runs ``hook`` and never raises; ``on_fault(text)`` is told (rate-limited)."""

    def __init__(
        self,
        on_fault: Callable[[str], None] | None = None,
        *,
        every_s: float = REPORT_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.on_fault = on_fault
        self.every_s = every_s
        self._clock = clock
        self._last: dict[str, float] = {}
        self.faults = 0  # every fault, reported or not

    def call(self, hook: Callable[..., object], *args: object) -> bool:
        """True when ``hook`` returned; False when it raised (logged with its traceback, at most every
        ``every_s`` s per hook; the count goes on in ``faults``)."""
        try:
            hook(*args)
        except Exception as exc:  # a faulty hook is reported, never fatal
            self.faults += 1
            name = getattr(hook, "__qualname__", repr(hook))
            now = self._clock()
            if now - self._last.get(name, -1e18) >= self.every_s:
                self._last[name] = now
                log.opt(exception=exc).error("hook {} failed (the game goes on): {}", name, exc)
                if self.on_fault is not None:
                    self.on_fault(f"{name} failed: {exc}")
            return False
        return True
