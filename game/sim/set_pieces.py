"""The set pieces the director's built-in named events bring into the world (``game/director/events.py``
registers them, with their cooldowns, and decides when): an elite ``boss``, a ``swarm`` of fast chasers from
the flanks, a ``surround`` ring, and a ``supply`` of health packs beside the player (the easing lever that
still works once the crowd is already on the player). Each is a handler ``(world, placer)``.

``surround`` is the peak for a player who kites: a ring of ``surround_size(wave)`` enemies just past the
screen edge on every side, so the crowd closes in at once and cannot all be kept at range on one side.
The ring is made first of the enemies trailing the player off screen (moved onto it, farthest first: the
crowd a kiting player drags behind it, which never reaches it: slow grunts, mostly), with ``[events]
surround_new`` new runners between them, so it is a peak, not a bigger bank. (Left 4 Dead's director
likewise moves infected left behind to ahead of the survivors.)

The sizes are ``[events]`` of ``assets/director/tuning.toml``; what is left here is layout and the kinds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.director.tuning import TUNING
from game.sim.combat import HEALTH
from game.sim.config import HEALTH_PICKUP_HEAL
from game.sim.placement import SpawnPlacer, edge_point
from game.sim.spawner import stragglers

if TYPE_CHECKING:
    from game.sim.world import World

_E = TUNING.events  # the set pieces' sizes
SURROUND_PREFAB = "runner"  # fast enough to close the ring before a kiting player shoots a way out of it

# Design: where the set pieces place what they bring
SUPPLY_REACH = 0.6  # packs land at this fraction of the player's pickup radius (the magnet brings them in)
SURROUND_DEPTH = 40.0  # px past the view's edge (``spawner.edge_point``)
SURROUND_WALL = 30.0  # a ring point stays this far inside the arena walls


def spawn_boss(world: World, placer: SpawnPlacer) -> None:
    x, y = placer.position(world)
    world.spawn_enemy("boss", x, y, source="event")


def spawn_swarm(world: World, placer: SpawnPlacer) -> None:
    prefab = "runner" if world.wave >= world.prefabs.get("runner").first_wave else "grunt"
    for _ in range(_E.swarm_groups):
        angle = placer.side_angle(world.rng)
        for _ in range(TUNING.bank.max_group):
            x, y = placer.position(world, angle)
            world.spawn_enemy(prefab, x, y, source="event")


def surround_size(wave: int) -> int:
    return min(_E.surround_max, _E.surround_ring + _E.surround_per_wave * max(0, wave - 1))


def spawn_surround(world: World, placer: SpawnPlacer) -> None:
    n = surround_size(world.wave)
    moved = stragglers(world, n)
    xs, ys = world.enemies.view("x"), world.enemies.view("y")
    new_min, new_max = _E.surround_new
    new = min(max(new_min, n - len(moved)), new_max)
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
    for _ in range(_E.supply_packs):
        a = float(world.rng.uniform(0.0, 2.0 * math.pi))
        world.pickups.add(
            1,
            x=p.x + math.cos(a) * reach,
            y=p.y + math.sin(a) * reach,
            kind=HEALTH,
            value=HEALTH_PICKUP_HEAL * _E.supply_heal,
            ttl=_E.supply_ttl_s,
        )
