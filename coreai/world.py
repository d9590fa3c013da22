"""The game-binding contract: what the game implements so agents can act on it, and where it registers it.

``coreai`` never imports the engine. The game implements ``WorldExecutor`` (spawn / move / destroy / list,
always called on the game's main thread by ``coreai.mainloop.MainLoopQueue.drain``) and ``StateProvider``
(a compact JSON-able snapshot), then registers both with a ``CoreAiBindings`` instance. Agents reach them
only through the main-loop queue, never directly from a worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class WorldExecutor(Protocol):
    def prefab_names(self) -> Sequence[str]: ...

    def arena_bounds(self) -> tuple[float, float, float, float]: ...  # xmin, ymin, xmax, ymax

    def spawn(self, prefab: str, x: float, y: float, *, elite: bool = False) -> int: ...  # entity id

    def move(self, entity_id: int, x: float, y: float) -> bool: ...

    def destroy(self, entity_id: int) -> bool: ...

    def list_entities(self, limit: int = 50) -> list[dict[str, Any]]: ...


@runtime_checkable
class StateProvider(Protocol):
    def game_state(self) -> dict[str, Any]: ...  # compact JSON-able snapshot


class CoreAiBindings:
    """The registry the game fills in at start-up; thread-safe, re-registration replaces the old binding."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._world: WorldExecutor | None = None
        self._state: StateProvider | None = None

    def register_world(self, executor: WorldExecutor | None) -> None:
        with self._lock:
            self._world = executor

    def register_state(self, provider: StateProvider | None) -> None:
        with self._lock:
            self._state = provider

    @property
    def world(self) -> WorldExecutor | None:
        return self._world

    @property
    def state(self) -> StateProvider | None:
        return self._state
