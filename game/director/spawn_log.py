"""Why enemies appeared: every spawn carries one cause (``game.sim.events.SPAWN_CAUSES``). The log counts
them for F10 (the last ``WINDOW_S`` seconds) and for the trajectory (each decision records the spawns since
the previous one, and a replay compares them)."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

from game.sim import events as ev

WINDOW_S = 30.0  # F10 shows the spawns of this many seconds, by cause


class SpawnLog:
    def __init__(self) -> None:
        self._recent: deque[tuple[float, str]] = deque()
        self._since: Counter[str] = Counter()

    def add(self, time: float, events: Iterable[object]) -> None:
        for e in events:
            if isinstance(e, ev.EnemySpawned):
                self._recent.append((time, e.source))
                self._since[e.source] += 1
        while self._recent and self._recent[0][0] < time - WINDOW_S:
            self._recent.popleft()

    def recent(self) -> dict[str, int]:
        """The last ``WINDOW_S`` seconds' spawns by cause, in ``SPAWN_CAUSES`` order."""
        return _ordered(Counter(cause for _, cause in self._recent))

    def take(self) -> dict[str, int]:
        """The spawns by cause since the last call (a decision's share), and start counting anew."""
        out, self._since = _ordered(self._since), Counter()
        return out


def _ordered(counts: Counter[str]) -> dict[str, int]:
    known = [c for c in ev.SPAWN_CAUSES if counts.get(c)]
    return {c: counts[c] for c in [*known, *sorted(set(counts) - set(ev.SPAWN_CAUSES))]}
