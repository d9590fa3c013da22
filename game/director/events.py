"""Named director events a plan may trigger: the built-in ``boss``, ``swarm``, ``surround`` and ``supply``
(health packs land beside the player: the easing lever that still works once the crowd is already on them),
plus any the game or a Lua mod registers (``registry.register("meteor_shower", handler, cooldown_s=40)``).

A plan naming an event that is not registered is rejected as hallucinated. A registered event that is not
ready (on cooldown, or its precondition fails, e.g. a boss is already alive) is dropped from the plan with a
note, and the rest of the plan applies. Cooldowns run on game time, so runs replay exactly. A handler that
raises is logged and counted by the director; the game keeps running.

The built-in events' handlers are the set pieces of ``game/sim/set_pieces.py``: the director decides that
a surround comes, the simulation lays the ring out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from coreai.errors import CommandRejected
from game.director.tuning import TUNING
from game.sim.placement import SpawnPlacer
from game.sim.set_pieces import drop_supply, spawn_boss, spawn_surround, spawn_swarm
from game.sim.world import World

EventHandler = Callable[[World, SpawnPlacer], None]
ReadyCheck = Callable[[World], str | None]  # None when ready, else why not
Toughen = Callable[[World, int], None]  # scales the enemies spawned from a pool row on
EVENT_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")  # what a registered event may be called
EASING_EVENTS = frozenset({"supply"})  # events that help the player (the guard lets them through)


@dataclass(frozen=True)
class DirectorEvent:
    name: str
    handler: EventHandler
    cooldown_s: float
    description: str
    precondition: ReadyCheck | None = None


class EventRegistry:
    def __init__(self) -> None:
        self._events: dict[str, DirectorEvent] = {ev.name: ev for ev in BUILTINS}
        self._last_fired: dict[str, float] = {}

    def register(
        self,
        name: str,
        handler: EventHandler,
        *,
        cooldown_s: float = 30.0,
        description: str = "",
        precondition: ReadyCheck | None = None,
    ) -> None:
        """Add (or replace, e.g. on a mod reload) a named event."""
        if not EVENT_NAME.match(name):
            raise CommandRejected("register_event", f"event name {name!r} must match {EVENT_NAME.pattern}")
        if cooldown_s < 0:
            raise CommandRejected("register_event", f"cooldown of '{name}' must be >= 0")
        self._events[name] = DirectorEvent(name, handler, float(cooldown_s), description[:120], precondition)

    def new_run(self) -> None:
        """A new run: cooldowns restart (game time restarts at 0) and handlers with per-run state reset."""
        self._last_fired.clear()
        for ev in self._events.values():
            reset = getattr(ev.handler, "new_run", None)
            if callable(reset):
                reset()

    def note_peak(self, time: float) -> None:
        """The pacing loop reached a Sustain Peak at game ``time`` (handlers that track peaks hear of it)."""
        for ev in self._events.values():
            note = getattr(ev.handler, "note_peak", None)
            if callable(note):
                note(time)

    def names(self) -> tuple[str, ...]:
        return tuple(self._events)

    def describe(self) -> dict[str, str]:
        return {e.name: e.description for e in self._events.values()}

    def __contains__(self, name: object) -> bool:
        return name in self._events

    def not_ready(self, name: str, world: World) -> str | None:
        """None when ``name`` may fire now, else the reason it may not."""
        ev = self._events.get(name)
        if ev is None:
            return f"unknown event '{name}'"
        last = self._last_fired.get(name)
        if last is not None and world.time - last < ev.cooldown_s:
            return f"event '{name}' on cooldown for {ev.cooldown_s - (world.time - last):.1f}s"
        return ev.precondition(world) if ev.precondition is not None else None

    def ready(self, world: World) -> tuple[str, ...]:
        """The events that may fire now (registration order): what a situation offers a plan, so a policy
        never proposes one that is on cooldown (the plan tool's grammar still names them all)."""
        return tuple(name for name in self._events if self.not_ready(name, world) is None)

    def fire(self, name: str, world: World, placer: SpawnPlacer, toughen: Toughen | None = None) -> None:
        """Run the event's handler (exceptions propagate to the caller, who logs them); ``toughen`` gets
        the pool row its first new enemy took (the ``toughness`` knob holds for every spawn)."""
        ev = self._events.get(name)
        if ev is None:
            raise CommandRejected(
                "director_event", f"unknown event '{name}'; known: {', '.join(self._events)}"
            )
        self._last_fired[name] = world.time
        first = world.enemies.n
        ev.handler(world, placer)
        if toughen is not None:
            toughen(world, first)


def no_boss(world: World) -> str | None:
    return "a boss is already alive" if world.boss_alive() else None


_E = TUNING.events  # the cooldowns (seconds of game time): ``[events]`` of the tuning
BUILTINS = (  # registered in this order
    DirectorEvent("boss", spawn_boss, _E.boss_cooldown_s, "an elite boss enters", precondition=no_boss),
    DirectorEvent("supply", drop_supply, _E.supply_cooldown_s, "health packs land beside the player"),
    DirectorEvent("swarm", spawn_swarm, _E.swarm_cooldown_s, "two packs of fast chasers from the flanks"),
    DirectorEvent(
        "surround",
        spawn_surround,
        _E.surround_cooldown_s,
        "a ring of enemies closes in from every side (for a player who kites)",
    ),
)
