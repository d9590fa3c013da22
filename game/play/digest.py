"""The compact state an agent gets back after every step or input: what a player would glance at.

``digest(world, events, extra)``: tick, game time, phase, wave (and time left), HP, position, level, kills,
the nearest enemies (id, prefab, offset from the player, distance, HP), the upgrade choices when a pick is
open, and the events since the last call (``EventJournal.since_last``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from game.sim.world import World

NEAR = 5  # enemies listed


def nearest(world: World, limit: int = NEAR) -> list[dict[str, Any]]:
    e, names, p = world.enemies, world.prefabs.names, world.player
    if e.n == 0:
        return []
    dx = e.view("x") - p.x
    dy = e.view("y") - p.y
    d = np.hypot(dx, dy)
    order = np.argsort(d, kind="stable")[:limit]
    return [
        {
            "id": int(e.id[i]),
            "prefab": names[int(e.kind[i])],
            "dx": round(float(dx[i]), 1),
            "dy": round(float(dy[i]), 1),
            "dist": round(float(d[i]), 1),
            "hp": round(float(e.hp[i]), 1),
        }
        for i in order
    ]


def digest(world: World, events: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    p = world.player
    out: dict[str, Any] = {
        "tick": world.tick,
        "time": round(world.time, 3),
        "phase": world.phase,
        "wave": world.wave,
        "wave_time_left": round(max(0.0, world.wave_time_left), 2),
        "hp": round(p.hp, 1),
        "max_hp": round(p.stats.max_hp, 1),
        "pos": [round(p.x, 1), round(p.y, 1)],
        "aim_deg": round(math.degrees(p.aim_angle), 1),
        "level": p.level,
        "kills": world.stats.kills,
        "score": world.stats.score,
        "enemies_alive": world.enemies.n,
        "near": nearest(world),
    }
    if world.phase == "upgrade":
        out["choices"] = list(world.choices)
    out.update(extra)
    if events is not None:
        out["events"] = events
    return out
