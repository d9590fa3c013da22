"""An in-memory world for tests (WorldExecutor + StateProvider, recording calls) and a loop thread."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from coreai.mainloop import MainLoopQueue


class FakeWorld:
    def __init__(
        self,
        prefabs: Sequence[str] = ("grunt", "archer", "brute"),
        bounds: tuple[float, float, float, float] = (0.0, 0.0, 800.0, 600.0),
    ) -> None:
        self.prefabs = tuple(prefabs)
        self.bounds = bounds
        self.entities: dict[int, dict[str, Any]] = {}
        self.calls: list[tuple[Any, ...]] = []
        self.call_threads: set[int] = set()
        self._next_id = 1
        self.tick = 0

    def _note(self, *call: Any) -> None:
        self.calls.append(call)
        self.call_threads.add(threading.get_ident())

    def prefab_names(self) -> Sequence[str]:
        return self.prefabs

    def arena_bounds(self) -> tuple[float, float, float, float]:
        return self.bounds

    def spawn(self, prefab: str, x: float, y: float, *, elite: bool = False) -> int:
        self._note("spawn", prefab, x, y, elite)
        eid = self._next_id
        self._next_id += 1
        self.entities[eid] = {"id": eid, "prefab": prefab, "x": x, "y": y, "elite": elite}
        return eid

    def move(self, entity_id: int, x: float, y: float) -> bool:
        self._note("move", entity_id, x, y)
        ent = self.entities.get(entity_id)
        if ent is None:
            return False
        ent["x"], ent["y"] = x, y
        return True

    def destroy(self, entity_id: int) -> bool:
        self._note("destroy", entity_id)
        return self.entities.pop(entity_id, None) is not None

    def list_entities(self, limit: int = 50) -> list[dict[str, Any]]:
        self._note("list", limit)
        return [dict(e) for e in list(self.entities.values())[:limit]]

    def game_state(self) -> dict[str, Any]:
        self._note("state")
        return {"tick": self.tick, "enemies": len(self.entities), "player": {"hp": 80, "max_hp": 100}}


class LoopThread:
    """Drains a queue at a fixed tick rate on its own thread, like the game's main loop would."""

    def __init__(self, queue: MainLoopQueue, hz: float = 240.0) -> None:
        self.queue = queue
        self.period = 1.0 / hz
        self._stop = threading.Event()
        self.drained = 0
        self.thread = threading.Thread(target=self._run, name="fake-main-loop", daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            self.drained += self.queue.drain()

    def start(self) -> LoopThread:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive(), "loop thread did not stop"
