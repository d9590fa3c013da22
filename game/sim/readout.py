"""JSON-able read-outs of the world for mods, agents and MCP clients: the game state and the enemy list.
Read-only: nothing here changes the world."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from game.sim.config import ARENA_H, ARENA_W

if TYPE_CHECKING:
    from game.sim.world import World


def game_state(world: World) -> dict[str, Any]:
    """A compact, JSON-able snapshot for mods, agents and MCP."""
    p = world.player
    counts = np.bincount(world.enemies.view("kind"), minlength=len(world.prefabs))
    return {
        "time": round(world.time, 2),
        "tick": world.tick,
        "wave": world.wave,
        "final_wave": world.final_wave,
        "phase": world.phase,
        "wave_time_left": round(max(0.0, world.wave_time_left), 2),
        "player": {
            "x": round(p.x, 1),
            "y": round(p.y, 1),
            "hp": round(p.hp, 1),
            "max_hp": round(p.stats.max_hp, 1),
            "level": p.level,
            "xp": p.xp,
            "alive": p.alive,
        },
        "score": world.stats.score,
        "kills": world.stats.kills,
        "deaths": world.stats.deaths,
        "enemies_alive": world.enemies.n,
        "enemies_by_prefab": {world.prefabs.names[i]: int(c) for i, c in enumerate(counts) if c},
        "bullets": world.bullets.n,
        "enemy_bullets": world.enemy_bullets.n,
        "pickups": world.pickups.n,
        "upgrades": dict(world.stacks),
        "weapons": {h.key: h.level for h in world.arsenal.held},
        "params": world.params.as_dict(),
        "arena": {"width": ARENA_W, "height": ARENA_H},
    }


def enemy_list(world: World, limit: int = 50) -> list[dict[str, Any]]:
    """The ``limit`` nearest enemies, nearest first."""
    e, names = world.enemies, world.prefabs.names
    p = world.player
    d = np.hypot(e.view("x") - p.x, e.view("y") - p.y)
    order = np.argsort(d, kind="stable")[: max(0, limit)]
    return [
        {
            "id": int(e.id[i]),
            "prefab": names[int(e.kind[i])],
            "x": round(float(e.x[i]), 1),
            "y": round(float(e.y[i]), 1),
            "hp": round(float(e.hp[i]), 1),
            "elite": bool(e.elite[i]),
            "distance": round(float(d[i]), 1),
        }
        for i in order
    ]
