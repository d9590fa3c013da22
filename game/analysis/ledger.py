"""``RunLedger``: the run's telemetry the game-over analysis needs, tallied from each tick's events.

Damage by source ("contact" from enemies touching the player, "projectile" from ranged enemies' shots,
anything a mod names), shots fired and shots that hit, kills and spawns per prefab, the lowest HP reached,
and how the player moved (``step``, once per tick: the distance walked and the ticks it stood still, i.e.
within ``STILL_PX`` of where it stopped for ``STILL_S`` s or more, read by ``Feet``). Plain data, no world
reference: it is read after the run is over.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from game.sim import events as ev
from game.sim.config import TICK_HZ

STILL_PX = 40.0  # the player stands still while it stays within this of where it last stopped
STILL_S = 1.5  # standing within STILL_PX of one spot this long counts as standing still


@dataclass
class Feet:
    """Where the player last stopped, and since when (game time)."""

    x: float = math.nan
    y: float = math.nan
    since: float = 0.0

    def update(self, x: float, y: float, now: float) -> float:
        """Seconds the player has stood within ``STILL_PX`` of where it stopped (0 on the tick it moves)."""
        if math.isnan(self.x) or math.hypot(x - self.x, y - self.y) > STILL_PX:
            self.x, self.y, self.since = x, y, now
        return now - self.since


@dataclass
class RunLedger:
    damage_by_source: dict[str, float] = field(default_factory=dict)
    kills_by_prefab: Counter[str] = field(default_factory=Counter)
    spawns_by_prefab: Counter[str] = field(default_factory=Counter)
    shots: int = 0
    hits: int = 0
    hits_taken: int = 0
    lowest_hp: float | None = None
    coins_spent: int = 0
    ticks: int = 0  # ticks ``step`` saw
    still_ticks: int = 0  # ... of them standing still
    walked: float = 0.0  # arena units the player moved
    _at: tuple[float, float] | None = field(default=None, repr=False)  # the last position
    _feet: Feet = field(default_factory=Feet, repr=False)  # where it stopped, and since when

    def collect(self, events: Iterable[ev.Event]) -> None:
        for e in events:
            if isinstance(e, ev.PlayerDamaged):
                self.damage_by_source[e.source] = self.damage_by_source.get(e.source, 0.0) + e.amount
                self.hits_taken += 1
                if self.lowest_hp is None or e.hp_after < self.lowest_hp:
                    self.lowest_hp = e.hp_after
            elif isinstance(e, ev.ShotFired):
                self.shots += e.count
            elif isinstance(e, ev.EnemyHit):
                self.hits += e.count
            elif isinstance(e, ev.EnemyKilled):
                self.kills_by_prefab[e.prefab] += 1
            elif isinstance(e, ev.EnemySpawned):
                self.spawns_by_prefab[e.prefab] += 1

    def step(self, x: float, y: float) -> None:
        """Once per tick: the player's position."""
        self.ticks += 1
        if self._at is not None:
            self.walked += math.hypot(x - self._at[0], y - self._at[1])
        self._at = (x, y)
        if self._feet.update(x, y, self.ticks / TICK_HZ) >= STILL_S - 1e-9:
            self.still_ticks += 1

    @property
    def still_share(self) -> float | None:
        """The share of the ticks the player stood still (None before any)."""
        return None if self.ticks == 0 else self.still_ticks / self.ticks

    def worst_sources(self) -> list[tuple[str, float]]:
        """Damage sources, the most damaging first."""
        return sorted(self.damage_by_source.items(), key=lambda kv: -kv[1])

    @property
    def accuracy(self) -> float | None:
        """Hits per shot (pierce can make it exceed 1; shown capped at 100%)."""
        return None if self.shots == 0 else min(1.0, self.hits / self.shots)

    def facts(self) -> dict[str, Any]:
        """JSON-able numbers for the Analyzer's request."""
        total = sum(self.damage_by_source.values())
        return {
            "damage_by_source": {k: round(v) for k, v in self.worst_sources()},
            "damage_total": round(total),
            "hits_taken": self.hits_taken,
            "shots": self.shots,
            "hits": self.hits,
            "accuracy_pct": None if self.accuracy is None else round(100 * self.accuracy),
            "kills_by_prefab": dict(self.kills_by_prefab.most_common(5)),
            "most_spawned": dict(self.spawns_by_prefab.most_common(3)),
            "lowest_hp": None if self.lowest_hp is None else round(self.lowest_hp),
            "stood_still_pct": None if self.still_share is None else round(100 * self.still_share),
            "walked": round(self.walked),
        }
