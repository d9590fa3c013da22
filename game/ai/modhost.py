"""``ModHost`` for the Lua mod manager: mods act on the live world through the same command rules agents get.

Lua runs on the main thread, so world calls are applied at once with ``MainLoopQueue.apply_now``: the prefab
whitelist, arena clamping, the per-command spawn cap and a per-mod rate limit all apply, and every call is
logged with the mod as the producer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coreai.commands import Destroy, Move, Spawn
from coreai.errors import CommandRejected
from coreai.mainloop import MainLoopQueue
from game.ai.mod_upgrades import ModUpgrades
from game.bindings import WorldHandle

EventSink = Callable[[str, str, float, str], None]


class GameModHost:
    def __init__(
        self,
        handle: WorldHandle,
        queue: MainLoopQueue,
        on_event: EventSink | None = None,
        upgrades: ModUpgrades | None = None,
    ) -> None:
        self.handle = handle
        self.queue = queue
        self.on_event = on_event
        self.upgrades = upgrades

    def spawn(self, prefab: str, x: float, y: float, count: int, *, source: str) -> list[int]:
        ids: list[int] = self.queue.apply_now(Spawn(prefab=prefab, x=x, y=y, count=count, agent=source))
        return ids

    def move(self, entity_id: int, x: float, y: float, *, source: str) -> bool:
        return bool(self.queue.apply_now(Move(entity_id=entity_id, x=x, y=y, agent=source)))

    def destroy(self, entity_id: int, *, source: str) -> bool:
        return bool(self.queue.apply_now(Destroy(entity_id=entity_id, agent=source)))

    def state(self) -> dict[str, Any]:
        return self.handle.require().game_state()

    def params(self) -> dict[str, tuple[float, float]]:
        return self.handle.require().params.bounds()

    def set_param(self, name: str, value: float, *, source: str) -> float:
        return self.handle.require().set_param(name, value)

    def register_event(self, name: str, description: str, cooldown_s: float, *, source: str) -> None:
        """``game.director_event``: offer a named event to the director (and its LLM's plan schema)."""
        if self.on_event is None:
            raise CommandRejected("director_event", "this game has no director")
        self.on_event(name, description, cooldown_s, source)

    def register_upgrade(self, spec: dict[str, Any], *, source: str) -> None:
        """``game.register_upgrade``: a passive the between-wave picks may offer (validated here)."""
        if self.upgrades is None:
            raise CommandRejected("register_upgrade", "this game has no upgrade picks")
        self.upgrades.register(spec, source)
