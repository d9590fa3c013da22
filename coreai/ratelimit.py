"""Per-agent token buckets: how many world-mutating commands each producer may post per second."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class AgentRateLimiter:
    """``rate_per_s`` tokens refill continuously up to ``burst``; a command spends its cost or is refused."""

    def __init__(
        self, rate_per_s: float, burst: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate_per_s <= 0 or burst <= 0:
            raise ValueError("rate_per_s and burst must be positive")
        self.rate_per_s = rate_per_s
        self.burst = burst
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # agent -> (tokens, last refill time)

    def allow(self, agent: str, cost: float = 1.0) -> bool:
        if cost <= 0:
            return True
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(agent, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate_per_s)
            if tokens < cost:
                self._buckets[agent] = (tokens, now)
                return False
            self._buckets[agent] = (tokens - cost, now)
            return True

    def reset(self, agent: str | None = None) -> None:
        with self._lock:
            if agent is None:
                self._buckets.clear()
            else:
                self._buckets.pop(agent, None)
