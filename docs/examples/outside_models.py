"""Player models from outside the game, for judging the director on play it was never tuned on.

Written after the fourth pass's held-out run and used once (game/eval/HISTORY.md, "Director 2, fourth pass"):

    PYTHONPATH=docs/examples python -m game.eval ab --seeds 3 --first-seed 16000 --seconds 300 \
        --skills outside_models:Flustered,outside_models:Brawler,outside_models:Orbiter,outside_models:Kiter

Each class is a ``Factory(seed)``: ``act(world)`` and ``choose_upgrade(world)`` come from
``game.zoo.sense.Model``, which re-decides every ``reaction_ticks`` and holds the input in between.
"""

from __future__ import annotations

import math

from game.sim.config import ARENA_H, ARENA_W
from game.sim.player import PlayerInput
from game.sim.world import World
from game.zoo.sense import Model, crowd, unit, wall_push


class Flustered(Model):
    """Backs away from the nearest enemy and shoots; after every hit it panics: stops shooting and runs a
    random way for 1.5 s."""

    summary = "backs off and shoots; each hit sends it running a random way, not shooting, for 1.5 s"
    reaction_ticks = 15
    aim_error = 0.45
    salt = 101

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._hp: float | None = None
        self._panic_until = -1.0
        self._dir = (1.0, 0.0)

    def decide(self, world: World) -> PlayerInput:
        p = world.player
        if self._hp is not None and p.hp < self._hp - 0.5:
            self._panic_until = world.time + 1.5
            a = float(self.rng.uniform(0, 2 * math.pi))
            self._dir = (math.cos(a), math.sin(a))
        self._hp = p.hp
        wx, wy = wall_push(world, 120.0)
        if world.time < self._panic_until:
            return PlayerInput(
                move_x=self._dir[0] + wx, move_y=self._dir[1] + wy, aim_x=p.x + 1, aim_y=p.y, shoot=False
            )
        c = crowd(world)
        if c.n == 0:
            return self.fight(world, (wx, wy))
        i = c.nearest()
        ax, ay = unit(-float(c.dx[i]), -float(c.dy[i])) if c.dist[i] < 220 else (0.0, 0.0)
        return self.fight(world, (ax + wx, ay + wy))


class Brawler(Model):
    """Walks into the middle of the crowd and shoots only at enemies within 250 px; picks max HP and regen."""

    summary = "walks into the crowd and fires only at close range; builds max HP and regen"
    reaction_ticks = 12
    aim_error = 0.25
    salt = 102

    def decide(self, world: World) -> PlayerInput:
        c = crowd(world)
        wx, wy = wall_push(world, 80.0)
        if c.n == 0:
            p = world.player
            return self.fight(world, unit(ARENA_W / 2 - p.x, ARENA_H / 2 - p.y), shoot=False)
        cx, cy = c.centroid()
        mx, my = unit(cx, cy)
        return self.fight(world, (mx + wx, my + wy), shoot=bool(c.dist[c.nearest()] < 250.0))

    def choose_upgrade(self, world: World) -> str:
        for key in ("max_hp", "regen"):
            if key in world.choices:
                return key
        return super().choose_upgrade(world)


class Orbiter(Model):
    """Runs a wide circle round the arena's centre whatever the enemies do, shooting at the nearest with a
    loose aim."""

    summary = "runs a wide circle round the arena's centre, ignoring the crowd, shooting loosely"
    reaction_ticks = 10
    aim_error = 0.4
    salt = 103

    def decide(self, world: World) -> PlayerInput:
        p = world.player
        rx, ry = p.x - ARENA_W / 2, p.y - ARENA_H / 2
        r = math.hypot(rx, ry) or 1.0
        tx, ty = -ry / r, rx / r  # tangent
        radial = (500.0 - r) / 200.0  # pull onto the 500 px ring
        return self.fight(world, unit(tx + rx / r * radial, ty + ry / r * radial))


class Kiter(Model):
    """A skilled kiter: keeps the crowd 300-400 px away, strafing round it, precise aim, dashes out when
    touched; builds multishot, fire rate and pierce."""

    summary = "keeps the crowd at 300-400 px, strafing; precise aim; dashes when touched"
    reaction_ticks = 4
    aim_error = 0.05
    salt = 104

    def decide(self, world: World) -> PlayerInput:
        c = crowd(world)
        wx, wy = wall_push(world, 150.0)
        if c.n == 0:
            return self.fight(world, (wx, wy))
        near = c.within(450.0)
        cx, cy = c.centroid(near if near.any() else None)
        d = math.hypot(cx, cy) or 1.0
        ux, uy = cx / d, cy / d
        radial = -1.0 if d < 300 else (0.5 if d > 400 else 0.0)
        mx, my = ux * radial - uy * 0.8, uy * radial + ux * 0.8
        i = c.nearest()
        dash = bool(c.dist[i] < 60.0 and world.player.dash_cooldown <= 0.0)
        return self.fight(world, unit(mx + 2 * wx, my + 2 * wy), dash=dash)

    def choose_upgrade(self, world: World) -> str:
        for key in ("multishot", "fire_rate", "pierce", "damage"):
            if key in world.choices:
                return key
        return super().choose_upgrade(world)
