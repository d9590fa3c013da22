"""One timer budget for every sandbox a mod manager hosts (mods and scratch consoles together).

Each sandbox may hold ``LuaSettings.max_timers`` timers; without a shared cap, many sandboxes multiply that
(157 scratch sandboxes held 10,048 timers). A sandbox reports its count to the pool whenever it changes
(``report``), asks ``room()`` before adding one, and is dropped from the pool when it closes.
"""

from __future__ import annotations


class TimerPool:
    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._counts: dict[int, int] = {}
        self.total = 0

    def room(self) -> bool:
        """Whether one more timer fits under the cap."""
        return self.total < self.cap

    def report(self, key: int, count: int) -> None:
        """Sandbox ``key`` now holds ``count`` timers."""
        self.total += int(count) - self._counts.get(key, 0)
        self._counts[key] = int(count)

    def drop(self, key: int) -> None:
        """Sandbox ``key`` closed: its timers are gone."""
        self.total -= self._counts.pop(key, 0)
