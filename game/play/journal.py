"""The run's notable events as compact JSON-able rows, with a cursor for "what happened since the last call".

Every tick's events are folded in by ``record(tick, events)``: notable ones (kills, hits, waves, level-ups,
weapons, deaths) become rows ``{"tick": 812, "type": "enemy_killed", ...}``; noisy ones (shots fired,
enemies hit, spawns, pickups) are only counted. ``since_last()`` returns the rows and counts since the
previous call (capped) and moves the cursor. The whole run's rows are kept (capped) for the run resource.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from game.sim import events as ev

MAX_ROWS = 20_000  # the run's event log (about 2 MB as JSON at most)
MAX_ROWS_PER_CALL = 40


def _row(e: ev.Event) -> dict[str, Any] | None:
    """A notable event as a row (without its tick), or None for a noisy one."""
    if isinstance(e, ev.EnemyKilled):
        return {"type": "enemy_killed", "id": e.id, "prefab": e.prefab, "x": round(e.x), "y": round(e.y)}
    if isinstance(e, ev.PlayerDamaged):
        return {
            "type": "player_hit",
            "amount": round(e.amount, 1),
            "hp": round(e.hp_after, 1),
            "by": e.source,
        }
    if isinstance(e, ev.PlayerDied):
        return {"type": "player_died", "wave": e.wave}
    if isinstance(e, ev.RunWon):
        return {"type": "run_won", "wave": e.wave}
    if isinstance(e, ev.WaveStarted):
        return {"type": "wave_start", "wave": e.wave, "duration": round(e.duration, 1)}
    if isinstance(e, ev.WaveEnded):
        return {"type": "wave_end", "wave": e.wave}
    if isinstance(e, ev.LevelUp):
        return {"type": "level_up", "level": e.level}
    if isinstance(e, ev.WeaponGained):
        return {"type": "weapon", "weapon": e.weapon, "level": e.level}
    if isinstance(e, ev.WeaponEvolved):
        return {"type": "evolved", "weapon": e.weapon, "into": e.evolved}
    if isinstance(e, ev.EnemyRemoved):
        return {"type": "enemy_removed", "id": e.id, "prefab": e.prefab}
    if isinstance(e, ev.Rescued):
        return {"type": "rescued", "pushed": e.pushed}
    return None


# the event names ``step_until`` accepts, and the rows that satisfy them
EVENT_NAMES: dict[str, str] = {
    "wave_end": "wave_end",
    "wave_start": "wave_start",
    "player_hit": "player_hit",
    "enemy_killed": "enemy_killed",
    "level_up": "level_up",
    "player_died": "player_died",
    "run_won": "run_won",
    "weapon": "weapon",
}


class EventJournal:
    def __init__(self, on_row: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.rows: list[dict[str, Any]] = []
        self.dropped = 0
        self.on_row = on_row  # told of each new row (the run's event-log file)
        self._cursor = 0
        self._counts: Counter[str] = Counter()

    def reset(self) -> None:
        self.rows.clear()
        self.dropped = 0
        self._cursor = 0
        self._counts.clear()

    def record(self, tick: int, events: Iterable[ev.Event]) -> list[dict[str, Any]]:
        """Fold in one tick's events; returns the new notable rows."""
        new: list[dict[str, Any]] = []
        for e in events:
            row = _row(e)
            if row is None:
                self._count(e)
                continue
            row = {"tick": tick, **row}
            new.append(row)
            if len(self.rows) >= MAX_ROWS:
                self.dropped += 1
                continue
            self.rows.append(row)
            if self.on_row is not None:
                self.on_row(row)
        return new

    def _count(self, e: ev.Event) -> None:
        if isinstance(e, ev.ShotFired):
            self._counts["shots"] += e.count
        elif isinstance(e, ev.EnemyHit):
            self._counts["hits"] += e.count
        elif isinstance(e, ev.EnemySpawned):
            self._counts["spawned"] += 1
        elif isinstance(e, ev.PickupCollected):
            self._counts["pickups"] += 1
        elif isinstance(e, ev.Dashed):
            self._counts["dashes"] += 1

    def since_last(self) -> dict[str, Any]:
        """The rows and counts since the previous call (at most ``MAX_ROWS_PER_CALL`` rows); moves on."""
        rows = self.rows[self._cursor :]
        self._cursor = len(self.rows)
        counts = dict(self._counts)
        self._counts.clear()
        kinds = Counter(r["type"] for r in rows)
        out: dict[str, Any] = {"counts": {**dict(kinds), **counts}}
        if len(rows) > MAX_ROWS_PER_CALL:
            out["omitted"] = len(rows) - MAX_ROWS_PER_CALL
            rows = rows[-MAX_ROWS_PER_CALL:]
        out["list"] = rows
        return out
