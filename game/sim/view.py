"""What the player can see: the camera's 1280x720 view on the player, stopped at the arena's edge. One
definition for the camera rig's limits, the evaluation's empty-screen meter and the director's presence
floor."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from game.sim.config import ARENA_H, ARENA_W, SCREEN_H, SCREEN_W, VIEW_EDGE_MARGIN

if TYPE_CHECKING:
    from game.sim.world import World


def view_center(x: float, y: float) -> tuple[float, float]:
    """Where the camera looks when the player stands at (x, y): on the player, stopped at the arena's edge."""
    hw, hh = SCREEN_W / 2, SCREEN_H / 2
    m = VIEW_EDGE_MARGIN
    return min(ARENA_W - hw + m, max(hw - m, x)), min(ARENA_H - hh + m, max(hh - m, y))


ARRIVING_PX = 140.0  # an enemy this close past the view's edge is on screen within about a second


def seen(world: World, margin: float = 0.0) -> np.ndarray:
    """Per enemy: whether the player can see it (``margin`` px past the view's edges count too)."""
    e = world.enemies
    cx, cy = view_center(world.player.x, world.player.y)
    r = e.view("radius") + margin
    return (np.abs(e.view("x") - cx) <= SCREEN_W / 2 + r) & (np.abs(e.view("y") - cy) <= SCREEN_H / 2 + r)


def boss_in_view(world: World, sees: np.ndarray | None = None) -> bool:
    """Whether a boss is in view or about to enter it (``sees``: ``seen(world, ARRIVING_PX)`` if the caller
    has it): a fight the player is in, not one it left behind."""
    e = world.enemies
    if not e.n:
        return False
    sees = seen(world, ARRIVING_PX) if sees is None else sees
    return bool((sees & np.isin(e.view("kind"), world.prefabs.boss_kinds)).any())


def in_view(world: World, margin: float = 0.0) -> int:
    """How many enemies the player can see (``margin`` px past the view's edges count too)."""
    return int(seen(world, margin).sum()) if world.enemies.n else 0
