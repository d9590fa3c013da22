"""Player models that play differently, not only better or worse: each is a policy of its own over the
same ``PlayerInput`` a human's keys make. They exist to judge the director on behaviour it was not built
around (``python -m game.eval ab --skills zoo``); see ``game.zoo`` for the registry and one line on each.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from game.bot import Bot
from game.sim.config import ARENA_H, ARENA_W
from game.sim.player import IDLE, PlayerInput
from game.sim.world import World
from game.zoo.sense import Model, crowd, unit, wall_push


class Charger(Model):
    """Runs straight at the nearest enemy, gun blazing, and dashes into it."""

    summary = "runs straight at the nearest enemy, shooting, and dashes into it"

    reaction_ticks = 8
    aim_error = 0.2
    salt = 1

    def decide(self, world: World) -> PlayerInput:
        c = crowd(world)
        if c.n == 0:
            p = world.player
            return self.fight(world, unit(ARENA_W / 2 - p.x, ARENA_H / 2 - p.y))
        i = c.nearest()
        dash = bool(c.dist[i] > 150.0 and world.player.dash_cooldown <= 0.0)
        return self.fight(world, unit(float(c.dx[i]), float(c.dy[i])), dash=dash)

    def choose_upgrade(self, world: World) -> str:
        for key in ("damage", "fire_rate", "multishot"):
            if key in world.choices:
                return key
        return super().choose_upgrade(world)


class Camper(Model):
    """Walks to the nearest wall and parks against it, shooting; it only slides along the wall when an
    enemy touches it."""

    summary = "parks against the nearest wall and shoots; slides along it only when touched"

    reaction_ticks = 14
    aim_error = 0.35
    salt = 2
    PARK_PX = 70.0  # how close to the wall it parks

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._wall: tuple[float, float] | None = None  # the point on the wall it walks to

    def decide(self, world: World) -> PlayerInput:
        p = world.player
        if self._wall is None:
            k = self.PARK_PX
            spots = [(k, p.y), (ARENA_W - k, p.y), (p.x, k), (p.x, ARENA_H - k)]
            self._wall = min(spots, key=lambda s: math.hypot(s[0] - p.x, s[1] - p.y))
        wx, wy = self._wall
        if math.hypot(wx - p.x, wy - p.y) > 30.0:
            return self.fight(world, unit(wx - p.x, wy - p.y))
        c = crowd(world)
        touching = c.within(60.0)
        if touching.any():
            cx, cy = c.centroid(touching)
            k = self.PARK_PX
            if wx in (k, ARENA_W - k):  # a left or right wall: slide along it, away from the touch
                self._wall = (wx, min(ARENA_H - k, max(k, p.y - math.copysign(80.0, cy))))
            else:
                self._wall = (min(ARENA_W - k, max(k, p.x - math.copysign(80.0, cx))), wy)
            return self.fight(world, unit(self._wall[0] - p.x, self._wall[1] - p.y))
        return self.fight(world, (0.0, 0.0))

    def choose_upgrade(self, world: World) -> str:
        for key in ("max_hp", "regen", "damage"):
            if key in world.choices:
                return key
        return super().choose_upgrade(world)


class Afk(Model):
    """Plays like the weak bot, but lets go of every key now and then (the phone, a drink): 3-8 s idle
    every 10-25 s of play."""

    summary = "the weak bot, but lets go of every key for 3-8 s every 10-25 s"

    salt = 3

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.bot = Bot("weak", seed=seed)
        self._next_break = self._draw(10.0, 25.0)
        self._break_ends = -1

    def _draw(self, lo: float, hi: float) -> int:
        return int(float(self.rng.uniform(lo, hi)) * 60)

    def act(self, world: World) -> PlayerInput:
        self.ticks += 1
        if self.ticks == self._next_break:
            self._break_ends = self.ticks + self._draw(3.0, 8.0)
        if self.ticks < self._break_ends:
            return IDLE
        if self.ticks == self._break_ends:
            self._next_break = self.ticks + self._draw(10.0, 25.0)
        return self.bot.act(world)

    def choose_upgrade(self, world: World) -> str:
        return self.bot.choose_upgrade(world)


class Panicker(Model):
    """Fights like the average bot until its HP drops under 60%; then, with an enemy near, it stops
    shooting and runs straight away from the crowd, dashing whenever it can (into walls too)."""

    summary = "fights like the average bot; under 60% HP it stops shooting and flees, dashing"

    reaction_ticks = 7
    salt = 4
    PANIC_HP = 0.6  # the HP share under which it panics
    NEAR_PX = 260.0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.bot = Bot("average", seed=seed)
        self._calm = IDLE

    def act(self, world: World) -> PlayerInput:
        self._calm = self.bot.act(world)
        if world.player.hp_fraction >= self.PANIC_HP:
            self._since = self.reaction_ticks  # the panic starts at once when the bar drops
            return self._calm
        return super().act(world)

    def decide(self, world: World) -> PlayerInput:
        c = crowd(world)
        near = c.within(self.NEAR_PX)
        if not near.any():
            return self._calm
        cx, cy = c.centroid(near)
        away = unit(-cx, -cy)
        p = world.player
        return PlayerInput(
            move_x=away[0], move_y=away[1], aim_x=p.x + away[0], aim_y=p.y + away[1], shoot=False, dash=True
        )

    def choose_upgrade(self, world: World) -> str:
        return self.bot.choose_upgrade(world)


class Dasher(Model):
    """The average bot's movement, but it dashes at every chance, wherever it happens to be heading."""

    summary = "the average bot's moves, dashing at every chance"

    salt = 5

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.bot = Bot("average", seed=seed)

    def act(self, world: World) -> PlayerInput:
        inp = self.bot.act(world)
        if world.player.dash_cooldown > 0.0:
            return inp
        mx, my = inp.move_x, inp.move_y
        if abs(mx) + abs(my) < 1e-6:  # standing: dash somewhere
            angle = float(self.rng.uniform(0, 2 * math.pi))
            mx, my = math.cos(angle), math.sin(angle)
        return PlayerInput(move_x=mx, move_y=my, aim_x=inp.aim_x, aim_y=inp.aim_y, shoot=inp.shoot, dash=True)

    def choose_upgrade(self, world: World) -> str:
        return "dash_cooldown" if "dash_cooldown" in world.choices else self.bot.choose_upgrade(world)


class Stick(Model):
    """A gamepad thumb: the weak bot's intent through a stick that only knows 8 directions, for moving and
    for aiming, re-read every 12 ticks."""

    summary = "a gamepad thumb: moves and aims in 8 directions only, re-read every 12 ticks"

    salt = 6
    reaction_ticks = 12

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.bot = Bot("weak", seed=seed)
        self._intent = IDLE
        self._aim = (1.0, 0.0)  # the stick's aim direction, held between reads

    def act(self, world: World) -> PlayerInput:
        self._intent = self.bot.act(world)  # what the player means, every tick; the stick reads it slowly
        inp = super().act(world)
        p = world.player  # a stick aims in a direction, not at a point: keep it as the player moves
        return replace(inp, aim_x=p.x + self._aim[0] * 1e5, aim_y=p.y + self._aim[1] * 1e5)

    @staticmethod
    def _snap(x: float, y: float) -> tuple[float, float]:
        if abs(x) + abs(y) < 0.15:
            return 0.0, 0.0
        a = round(math.atan2(y, x) / (math.pi / 4)) * (math.pi / 4)
        return math.cos(a), math.sin(a)

    def decide(self, world: World) -> PlayerInput:
        inp = self._intent
        p = world.player
        mx, my = self._snap(inp.move_x, inp.move_y)
        ax, ay = self._snap(inp.aim_x - p.x, inp.aim_y - p.y)
        if ax != 0.0 or ay != 0.0:
            self._aim = (ax, ay)
        return PlayerInput(move_x=mx, move_y=my, shoot=inp.shoot)

    def choose_upgrade(self, world: World) -> str:
        return self.bot.choose_upgrade(world)


class Looter(Model):
    """Greedy: always walking to the nearest pickup (coins, XP, health) wherever it lies, whatever stands
    in the way; with none on the floor it walks at the crowd."""

    summary = "always walks to the nearest pickup, whatever stands in the way"

    salt = 7
    reaction_ticks = 9

    def decide(self, world: World) -> PlayerInput:
        p, pk = world.player, world.pickups
        if pk.n:
            dx, dy = pk.view("x") - p.x, pk.view("y") - p.y
            i = int(np.argmin(dx * dx + dy * dy))
            return self.fight(world, unit(float(dx[i]), float(dy[i])))
        c = crowd(world)
        if c.n == 0:
            return self.fight(world, (0.0, 0.0))
        cx, cy = c.centroid()
        return self.fight(world, unit(cx, cy))


class Circler(Model):
    """Runs laps around the middle of the arena at full speed, shooting at the nearest enemy; never goes
    for a pickup on purpose and never stops."""

    summary = "runs laps around the middle of the arena, never stops, never seeks pickups"

    salt = 8
    reaction_ticks = 6
    aim_error = 0.25
    LAP_RADIUS = 650.0

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.turn = 1.0 if self.rng.random() < 0.5 else -1.0

    def decide(self, world: World) -> PlayerInput:
        p = world.player
        rx, ry = p.x - ARENA_W / 2, p.y - ARENA_H / 2
        if math.hypot(rx, ry) < 1.0:  # on the very middle: step out to the lap first
            rx = 1.0
        r = math.hypot(rx, ry)
        tangent = (-ry / r * self.turn, rx / r * self.turn)
        radial = (self.LAP_RADIUS - r) / self.LAP_RADIUS  # >0: too close to the middle, step out
        return self.fight(world, unit(tangent[0] + rx / r * radial * 2, tangent[1] + ry / r * radial * 2))


class Wanderer(Model):
    """Explores: walks to one random spot of the arena after another, shooting at whatever is nearest,
    paying no attention to danger."""

    summary = "walks from one random spot to the next, shooting, ignoring danger"

    salt = 9
    reaction_ticks = 12
    aim_error = 0.3

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._goal = self._pick()

    def _pick(self) -> tuple[float, float]:
        return float(self.rng.uniform(200, ARENA_W - 200)), float(self.rng.uniform(200, ARENA_H - 200))

    def decide(self, world: World) -> PlayerInput:
        p = world.player
        if math.hypot(self._goal[0] - p.x, self._goal[1] - p.y) < 60.0:
            self._goal = self._pick()
        return self.fight(world, unit(self._goal[0] - p.x, self._goal[1] - p.y))


class Sniper(Model):
    """Keeps its distance: backs away from anything closer than 450 px (steering off walls) and shoots
    with a steady hand."""

    summary = "keeps 450 px from everything and shoots with a steady hand"

    salt = 10
    reaction_ticks = 5
    aim_error = 0.08
    KEEP_PX = 450.0

    def decide(self, world: World) -> PlayerInput:
        c = crowd(world)
        close = c.within(self.KEEP_PX)
        if not close.any():
            return self.fight(world, (0.0, 0.0))
        cx, cy = c.centroid(close)
        wx, wy = wall_push(world, 300.0)
        return self.fight(world, unit(-cx / 100.0 + wx * 2, -cy / 100.0 + wy * 2))

    def choose_upgrade(self, world: World) -> str:
        for key in ("damage", "pierce", "fire_rate"):
            if key in world.choices:
                return key
        return super().choose_upgrade(world)


class Idle(Model):
    """Presses nothing at all: walked away from the keyboard (takes the first upgrade offered)."""

    summary = "presses nothing at all (walked away from the keyboard)"

    salt = 11

    def act(self, world: World) -> PlayerInput:
        return IDLE

    def choose_upgrade(self, world: World) -> str:
        return world.choices[0]
