"""The game binding the Lua sandbox drives: the game implements ``ModHost``; mods never see it directly.

Every call comes from the game's main thread (the mod manager runs there). Arguments are plain Python
values already checked by the sandbox; ``source`` names who asked (``"mod:<name>"`` or ``"console:<name>"``)
so the game can route it through its command queue and prefab whitelist and log who did what.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class ModHost(Protocol):
    def spawn(self, prefab: str, x: float, y: float, count: int, *, source: str) -> list[int]:
        """Spawn ``count`` enemies of a whitelisted prefab near (x, y); return their entity ids.

        Raises ``coreai.errors.UnknownPrefabError`` for a prefab outside the whitelist and
        ``CommandRejected`` for anything else the game refuses.
        """
        ...

    def move(self, entity_id: int, x: float, y: float, *, source: str) -> bool:
        """Move an entity; False when it does not exist (any more)."""
        ...

    def destroy(self, entity_id: int, *, source: str) -> bool:
        """Remove an entity; False when it does not exist (any more)."""
        ...

    def state(self) -> dict[str, Any]:
        """A plain JSON-like snapshot: player {x, y, hp, max_hp, ...}, wave, score, time, kills, ..."""
        ...

    def params(self) -> dict[str, tuple[float, float]]:
        """The declared, bounded params a mod may set: name -> (min, max)."""
        ...

    def set_param(self, name: str, value: float, *, source: str) -> float:
        """Set a declared param (the sandbox already clamped it into bounds); return the applied value."""
        ...


@runtime_checkable
class UpgradeHost(Protocol):
    """Optional: a host whose between-wave picks can offer mod passives (``game.register_upgrade``). The spec
    is plain data from the mod; the host validates it and raises ``CommandRejected`` explaining a refusal."""

    def register_upgrade(self, spec: dict[str, Any], *, source: str) -> None: ...


@runtime_checkable
class DirectorEventHost(Protocol):
    """Optional: a host that also lets mods offer named events to the AI director (``game.director_event``).
    When the director fires one, the game dispatches ``on_director_event(name)`` to the mods."""

    def register_event(self, name: str, description: str, cooldown_s: float, *, source: str) -> None: ...
