"""Named director events a plan may trigger: the built-in ``boss``, ``swarm``, ``surround`` and ``supply``
(health packs land beside the player: the easing lever that still works once the crowd is already on them),
plus any the game or a Lua mod registers (``registry.register("meteor_shower", handler, cooldown_s=40)``).

A plan naming an event that is not registered is rejected as hallucinated. A registered event that is not
ready (on cooldown, or its precondition fails, e.g. a boss is already alive) is dropped from the plan with a
note, and the rest of the plan applies. Cooldowns run on game time, so runs replay exactly. A handler that
raises is logged and counted by the director; the game keeps running.

``surround`` is the peak for a player who kites: a ring of ``surround_size(wave)`` enemies just past the
screen edge on every side, so the crowd closes in at once and cannot all be kept at range on one side.
The ring is made first of the enemies trailing the player off screen (moved onto it, farthest first: the
crowd a kiting player drags behind it, which never reaches it: slow grunts, mostly), with
``SURROUND_NEW_MIN`` to ``SURROUND_NEW_MAX`` new runners between them, so it is a peak, not a bigger bank.
(Left 4 Dead's director likewise moves infected left behind to ahead of the survivors.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from coreai.errors import CommandRejected
from game.director.tuning import TUNING
from game.sim.combat import HEALTH
from game.sim.config import HEALTH_PICKUP_HEAL
from game.sim.placement import SpawnPlacer, edge_point
from game.sim.spawner import stragglers
from game.sim.world import World

EventHandler = Callable[[World, SpawnPlacer], None]
ReadyCheck = Callable[[World], str | None]  # None when ready, else why not
Toughen = Callable[[World, int], None]  # scales the enemies spawned from a pool row on
EVENT_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")  # what a registered event may be called
EASING_EVENTS = frozenset({"supply"})  # events that help the player (the guard lets them through)

# Tuning (player-facing balance) of the built-in events; their cooldowns are in ``BUILTINS``
SWARM_GROUPS = 2  # a swarm is this many groups of ``[bank] max_group``, each from a flank
SUPPLY_PACKS = 2  # health packs one supply drops
SUPPLY_HEAL = HEALTH_PICKUP_HEAL * 1.5  # each pack
SUPPLY_TTL_S = 30.0  # a supply pack left lying vanishes after this long
SURROUND_BASE, SURROUND_PER_WAVE, SURROUND_MAX = 12, 2, 32  # ring size: 12 in wave 1, +2 a wave, up to 32
SURROUND_NEW_MAX = 16  # at most this many new enemies (the rest of the ring is the trailing crowd, moved) ...
SURROUND_NEW_MIN = 8  # ... and at least this many (the fast part of the ring; a moved crowd is slow grunts;
# 4 were shot down at range by a level-1 strong player before the ring closed)
SURROUND_COOLDOWN_S = 12.0  # a ring at most this often (20 s left a strong player idle between rings)
SURROUND_PREFAB = "runner"  # fast enough to close the ring before a kiting player shoots a way out of it

# Design: where the built-in events place what they bring
SUPPLY_REACH = 0.6  # packs land at this fraction of the player's pickup radius (the magnet brings them in)
SURROUND_DEPTH = 40.0  # px past the view's edge (``spawner.edge_point``)
SURROUND_WALL = 30.0  # a ring point stays this far inside the arena walls


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


def spawn_boss(world: World, placer: SpawnPlacer) -> None:
    x, y = placer.position(world)
    world.spawn_enemy("boss", x, y, source="event")


def spawn_swarm(world: World, placer: SpawnPlacer) -> None:
    prefab = "runner" if world.wave >= world.prefabs.get("runner").first_wave else "grunt"
    for _ in range(SWARM_GROUPS):
        angle = placer.side_angle(world.rng)
        for _ in range(TUNING.bank.max_group):
            x, y = placer.position(world, angle)
            world.spawn_enemy(prefab, x, y, source="event")


def surround_size(wave: int) -> int:
    return min(SURROUND_MAX, SURROUND_BASE + SURROUND_PER_WAVE * max(0, wave - 1))


def spawn_surround(world: World, placer: SpawnPlacer) -> None:
    n = surround_size(world.wave)
    moved = stragglers(world, n)
    xs, ys = world.enemies.view("x"), world.enemies.view("y")
    new = min(max(SURROUND_NEW_MIN, n - len(moved)), SURROUND_NEW_MAX)
    start = float(world.rng.uniform(0.0, 2.0 * math.pi))
    # two interleaved rings: the moved crowd, and the new runners half a step between them
    for i in range(len(moved)):
        xs[moved[i]], ys[moved[i]] = edge_point(
            world, start + 2.0 * math.pi * i / len(moved), SURROUND_DEPTH, SURROUND_WALL
        )
    for i in range(new):  # the new runners, half a step between the moved ones
        x, y = edge_point(world, start + 2.0 * math.pi * (i + 0.5) / new, SURROUND_DEPTH, SURROUND_WALL)
        world.spawn_enemy(SURROUND_PREFAB, x, y, source="event")


def drop_supply(world: World, placer: SpawnPlacer) -> None:
    p = world.player
    reach = SUPPLY_REACH * p.stats.pickup_radius
    for _ in range(SUPPLY_PACKS):
        a = float(world.rng.uniform(0.0, 2.0 * math.pi))
        world.pickups.add(
            1,
            x=p.x + math.cos(a) * reach,
            y=p.y + math.sin(a) * reach,
            kind=HEALTH,
            value=SUPPLY_HEAL,
            ttl=SUPPLY_TTL_S,
        )


BUILTINS = (  # registered in this order; the cooldowns are seconds of game time
    DirectorEvent("boss", spawn_boss, 90.0, "an elite boss enters", precondition=no_boss),
    DirectorEvent("supply", drop_supply, 30.0, "health packs land beside the player"),
    DirectorEvent("swarm", spawn_swarm, 25.0, "two packs of fast chasers from the flanks"),
    DirectorEvent(
        "surround",
        spawn_surround,
        SURROUND_COOLDOWN_S,
        "a ring of enemies closes in from every side (for a player who kites)",
    ),
)
