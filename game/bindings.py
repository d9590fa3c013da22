"""The game's side of the coreai binding contract (``coreai.world``): world commands and state snapshots.

Bindings point at a ``WorldHandle`` rather than a ``World``, so a restart (F5) swaps the world underneath
without re-registering anything. Every method here runs on the main thread: the AI core only reaches them
through ``MainLoopQueue.drain``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coreai.errors import CommandRejected
from game.sim.config import ARENA_H, ARENA_W
from game.sim.events import SpawnCause
from game.sim.world import World


@dataclass
class WorldHandle:
    """The current run's world (None before the first run starts); replaced on restart."""

    world: World | None = None

    def require(self) -> World:
        if self.world is None:
            raise CommandRejected("world", "no run is in progress yet")
        return self.world


class GameWorldExecutor:
    """``WorldExecutor`` + ``StateProvider`` over the live simulation."""

    def __init__(self, handle: WorldHandle, source: SpawnCause = "mod") -> None:
        self.handle = handle
        self.source = source

    def prefab_names(self) -> Sequence[str]:
        return self.handle.require().prefabs.names

    def arena_bounds(self) -> tuple[float, float, float, float]:
        return 0.0, 0.0, ARENA_W, ARENA_H

    def spawn(self, prefab: str, x: float, y: float, *, elite: bool = False) -> int:
        return self.handle.require().spawn_enemy(prefab, x, y, elite=elite, source=self.source)

    def move(self, entity_id: int, x: float, y: float) -> bool:
        return self.handle.require().move_enemy(entity_id, x, y)

    def destroy(self, entity_id: int) -> bool:
        return self.handle.require().destroy_enemy(entity_id)

    def list_entities(self, limit: int = 50) -> list[dict[str, Any]]:
        return self.handle.require().list_enemies(limit)

    def game_state(self) -> dict[str, Any]:
        return self.handle.require().game_state()
