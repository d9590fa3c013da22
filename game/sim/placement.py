"""Where a spawn lands: just past the screen edge, on the player's rear and flanks (every side at high
pressure), kept inside the arena walls. The spawner (``game/sim/spawner.py``) decides what comes and when;
this module decides where, for it and for the director's events."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from game.sim.config import ARENA_H, ARENA_W, SCREEN_H, SCREEN_W
from game.sim.view import view_center

if TYPE_CHECKING:
    from game.sim.world import World

SPAWN_MARGIN = 30.0  # keep spawns this far inside the arena walls
OFFSCREEN_MARGIN = 60.0  # spawn at least this far past the screen edge ...
OFFSCREEN_DEPTH = 160.0  # ... plus up to this much (a group arrives spread out); presence: up to a third
SIDE_OFFSETS = (math.pi, math.pi / 2, -math.pi / 2, 0.0)  # rear, left flank, right flank, front
SIDE_WEIGHTS = np.array([0.4, 0.25, 0.25, 0.1])
SIDE_SPREAD = 0.35  # radians of jitter around the chosen side


class SpawnPlacer:
    """Tracks the player's heading and picks off-screen points on their rear and flanks."""

    def __init__(self) -> None:
        self.heading = 0.0
        self._last: tuple[float, float] | None = None

    def observe(self, world: World) -> None:
        p = world.player
        if self._last is not None:
            dx, dy = p.x - self._last[0], p.y - self._last[1]
            self.heading = math.atan2(dy, dx) if dx * dx + dy * dy > 0.25 else p.aim_angle
        self._last = (p.x, p.y)

    def side_angle(self, rng: np.random.Generator, pressure: float = 1.0) -> float:
        mix = min(1.0, max(0.0, pressure - 1.0))  # from pressure 2 on, every side alike (surrounded)
        weights = SIDE_WEIGHTS * (1.0 - mix) + mix / len(SIDE_OFFSETS)
        side = SIDE_OFFSETS[int(rng.choice(len(SIDE_OFFSETS), p=weights))]
        return self.heading + side + float(rng.normal(0.0, SIDE_SPREAD))

    def position(
        self, world: World, angle: float | None = None, depth: float = OFFSCREEN_DEPTH
    ) -> tuple[float, float]:
        """A point just past the screen edge in direction ``angle`` (drawn when None), inside the arena."""
        a = (self.side_angle(world.rng) if angle is None else angle) + float(world.rng.normal(0, 0.2))
        return edge_point(world, a, float(world.rng.uniform(0.0, depth)))


def edge_point(
    world: World, angle: float, depth: float = 0.0, wall: float = SPAWN_MARGIN
) -> tuple[float, float]:
    """The point ``OFFSCREEN_MARGIN`` + ``depth`` px past the view's edge from the player along ``angle``,
    kept ``wall`` px inside the arena: where every spawn and move lands. The view is the camera's, stopped
    at the arena's edge, so near a wall the edge is where the camera looks, not around the player; where a
    wall leaves no room off screen along ``angle``, the direction is mirrored off that wall (then
    reversed)."""
    p = world.player
    cx, cy = view_center(p.x, p.y)
    for a in (angle, math.pi - angle, -angle, angle + math.pi):
        c, s = math.cos(a), math.sin(a)
        near = view_exit(p.x - cx, p.y - cy, c, s, OFFSCREEN_MARGIN)
        far = arena_exit(p.x, p.y, c, s, wall)
        if far >= near:  # the reverse always fits: the arena is wider and taller than the view and margins
            break
    d = min(near + depth, far)
    return p.x + c * d, p.y + s * d


def view_exit(ox: float, oy: float, c: float, s: float, margin: float) -> float:
    """Distance along (c, s) from a point (``ox``, ``oy``) off the view's centre, inside it, to ``margin`` px
    past the view's edge (past the nearer of its two edges, so a grazing ray still ends that far out)."""
    hw, hh = SCREEN_W / 2 + margin, SCREEN_H / 2 + margin
    tx = ((hw - ox) / c if c > 0 else (-hw - ox) / c) if abs(c) > 1e-9 else math.inf
    ty = ((hh - oy) / s if s > 0 else (-hh - oy) / s) if abs(s) > 1e-9 else math.inf
    return max(0.0, min(tx, ty))


def arena_exit(x: float, y: float, c: float, s: float, wall: float) -> float:
    """Distance along (c, s) from (``x``, ``y``) to ``wall`` px inside the arena's walls."""
    tx = ((ARENA_W - wall - x) / c if c > 0 else (wall - x) / c) if abs(c) > 1e-9 else math.inf
    ty = ((ARENA_H - wall - y) / s if s > 0 else (wall - y) / s) if abs(s) > 1e-9 else math.inf
    return min(tx, ty)
