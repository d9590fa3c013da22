"""What a player model reads off the world, and the base every model shares.

A model re-decides every ``reaction_ticks`` ticks and holds its input in between (a person does not react
60 times a second), and it only ever answers with the ``PlayerInput`` a human's keys make.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.sim.config import ARENA_H, ARENA_W
from game.sim.player import IDLE, PlayerInput
from game.sim.world import World


@dataclass(frozen=True)
class Crowd:
    """The enemies as seen from the player: offsets (enemy - player) and distances, nearest first."""

    dx: np.ndarray
    dy: np.ndarray
    dist: np.ndarray

    @property
    def n(self) -> int:
        return len(self.dist)

    def nearest(self) -> int:
        return int(np.argmin(self.dist))

    def within(self, radius: float) -> np.ndarray:
        return self.dist < radius

    def centroid(self, mask: np.ndarray | None = None) -> tuple[float, float]:
        """The mean offset of the enemies in ``mask`` (all by default) from the player."""
        m = np.ones(self.n, dtype=bool) if mask is None else mask
        if not m.any():
            return 0.0, 0.0
        return float(self.dx[m].mean()), float(self.dy[m].mean())


def crowd(world: World) -> Crowd:
    e, p = world.enemies, world.player
    dx, dy = e.view("x") - p.x, e.view("y") - p.y
    return Crowd(dx, dy, np.sqrt(dx * dx + dy * dy) + 1e-6)


def unit(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y)
    return (x / n, y / n) if n > 1e-9 else (0.0, 0.0)


def wall_push(world: World, margin: float) -> tuple[float, float]:
    """A push away from any wall closer than ``margin`` (0 when all are farther), up to 1 per axis."""
    p = world.player
    px = max(0.0, margin - p.x) - max(0.0, margin - (ARENA_W - p.x))
    py = max(0.0, margin - p.y) - max(0.0, margin - (ARENA_H - p.y))
    return px / margin, py / margin


class Model:
    """The shared base: reaction delay, aim with a spread, random upgrade picks (models override)."""

    summary = ""  # one line: how this model plays (the registry and the README list it)
    reaction_ticks = 10  # re-decide every N ticks, hold the input in between
    aim_error = 0.3  # radians, standard deviation of the aim around the target
    salt = 0  # mixed into the seed so two models on one seed draw differently

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed * 7 + 104729 + self.salt)
        self.pick_rng = np.random.default_rng((seed, 104729, self.salt))  # upgrade picks, apart from aim
        self._held = IDLE
        self._since = self.reaction_ticks
        self.ticks = 0

    def act(self, world: World) -> PlayerInput:
        self.ticks += 1
        self._since += 1
        if self._since >= self.reaction_ticks:
            self._since = 0
            self._held = self.decide(world)
        return self._held

    def decide(self, world: World) -> PlayerInput:  # pragma: no cover - every model overrides it
        raise NotImplementedError

    def choose_upgrade(self, world: World) -> str:
        return world.choices[int(self.pick_rng.integers(len(world.choices)))]

    # ------------------------------------------------------------------ helpers for models
    def aim(self, world: World, c: Crowd, target: int | None = None) -> tuple[float, float]:
        """A world point to aim at: the target enemy (the nearest by default) with this model's spread, or
        straight ahead when there is no enemy."""
        p = world.player
        if c.n == 0:
            return p.x + math.cos(p.aim_angle) * 100.0, p.y + math.sin(p.aim_angle) * 100.0
        i = c.nearest() if target is None else target
        angle = math.atan2(c.dy[i], c.dx[i]) + float(self.rng.normal(0.0, self.aim_error))
        return p.x + math.cos(angle) * 100.0, p.y + math.sin(angle) * 100.0

    def fight(
        self, world: World, move: tuple[float, float], *, shoot: bool = True, dash: bool = False
    ) -> PlayerInput:
        """Move in ``move`` and shoot at the nearest enemy."""
        c = crowd(world)
        ax, ay = self.aim(world, c)
        return PlayerInput(move_x=move[0], move_y=move[1], aim_x=ax, aim_y=ay, shoot=shoot, dash=dash)
