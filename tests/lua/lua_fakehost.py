"""An in-memory ``ModHost`` for the Lua tests: a tiny world with entities, params and a prefab whitelist."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coreai.errors import CommandRejected, UnknownPrefabError

PREFABS = ("grunt", "runner", "tank", "spitter", "boss")
PARAMS = {
    "player_damage_mult": (0.25, 4.0),
    "player_max_hp_mult": (0.25, 3.0),
    "enemy_speed_mult": (0.5, 2.0),
    "spawn_rate_mult": (0.0, 3.0),
    "score_mult": (0.0, 5.0),
}


@dataclass
class Entity:
    id: int
    prefab: str
    x: float
    y: float


@dataclass
class FakeHost:
    wave: int = 1
    score: int = 0
    kills: int = 0
    time: float = 0.0
    player: dict[str, Any] = field(
        default_factory=lambda: {"x": 1600.0, "y": 1200.0, "hp": 100.0, "max_hp": 100.0}
    )
    entities: dict[int, Entity] = field(default_factory=dict)
    values: dict[str, float] = field(default_factory=lambda: {k: 1.0 for k in PARAMS})
    calls: list[tuple[str, str]] = field(default_factory=list)  # (operation, source)
    max_entities: int = 500
    _next_id: int = 1

    def spawn(self, prefab: str, x: float, y: float, count: int, *, source: str) -> list[int]:
        if prefab not in PREFABS:
            raise UnknownPrefabError(prefab, PREFABS)
        if len(self.entities) + count > self.max_entities:
            raise CommandRejected("spawn", f"entity cap {self.max_entities} reached")
        ids = []
        for _ in range(count):
            eid = self._next_id
            self._next_id += 1
            self.entities[eid] = Entity(eid, prefab, x, y)
            ids.append(eid)
        self.calls.append(("spawn", source))
        return ids

    def move(self, entity_id: int, x: float, y: float, *, source: str) -> bool:
        self.calls.append(("move", source))
        e = self.entities.get(entity_id)
        if e is None:
            return False
        e.x, e.y = x, y
        return True

    def destroy(self, entity_id: int, *, source: str) -> bool:
        self.calls.append(("destroy", source))
        return self.entities.pop(entity_id, None) is not None

    def state(self) -> dict[str, Any]:
        return {
            "time": self.time,
            "wave": self.wave,
            "score": self.score,
            "kills": self.kills,
            "player": dict(self.player),
            "enemies_alive": len(self.entities),
            "arena": {"width": 3200.0, "height": 2400.0},
            "params": dict(self.values),
        }

    def params(self) -> dict[str, tuple[float, float]]:
        return dict(PARAMS)

    def set_param(self, name: str, value: float, *, source: str) -> float:
        lo, hi = PARAMS[name]
        if not lo <= value <= hi:
            raise CommandRejected("set_param", f"{name}={value} outside [{lo}, {hi}]")
        self.values[name] = float(value)
        self.calls.append(("set_param", source))
        return float(value)

    def count(self, prefab: str | None = None) -> int:
        return sum(1 for e in self.entities.values() if prefab is None or e.prefab == prefab)
