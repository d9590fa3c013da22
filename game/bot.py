"""Bot players that drive the same ``PlayerInput`` a human does, for tests, benchmarks, the director's
evaluation and the windowed demo mode (``--bot``).

Skill presets (novice, weak, average, strong) differ in reaction delay (how often the bot re-reads the
world), aim error, how far it looks for danger, whether it dodges projectiles and dashes out of trouble,
and how it picks upgrades: which weapons it builds around (strong: lance, orbit blades, chain; average:
spread shot, missiles; novice and weak: stick to the blaster and pick stats at random) and whether it goes
for evolutions. ``still`` is a first-time player who plants their feet and shoots: the novice's reactions
and aim, but it never moves or dashes (``BotSkill.moves``). It is measured on its own (``first-wave --skill
still``) and is not one of the A/B's default skills (``LADDER``: the four that move).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from game.sim.config import ARENA_H, ARENA_W
from game.sim.player import PlayerInput
from game.sim.upgrades import WEAPON_PREFIX
from game.sim.world import World

SkillName = Literal["novice", "weak", "average", "strong", "still"]
SKILL_NAMES: tuple[SkillName, ...] = get_args(SkillName)
LADDER: tuple[SkillName, ...] = ("novice", "weak", "average", "strong")  # the bots that move, weakest first


@dataclass(frozen=True)
class BotSkill:
    name: str
    reaction_ticks: int  # the bot re-decides every N ticks and holds its input in between
    aim_error: float  # radians, standard deviation
    danger_radius: float  # enemies closer than this push the bot away
    dodge_projectiles: bool
    dash_when_cornered: bool
    wall_avoidance: float
    upgrade_priority: tuple[str, ...]  # empty: random picks
    weapon_priority: tuple[str, ...] = ()  # weapons it takes (or levels) before any stat upgrade
    seeks_evolutions: bool = False  # takes the passive that evolves a maxed weapon first
    takes_new_weapons: bool = True  # False: sticks to the starting blaster (random picks skip new weapons)
    moves: bool = True  # False: stands where it spawned (aims and shoots, never walks or dashes)


SKILLS: dict[str, BotSkill] = {
    # a first-time player: slow to react, poor aim, walks into bullets, never dashes, hugs walls
    "novice": BotSkill("novice", 22, 0.55, 110.0, False, False, 0.2, (), takes_new_weapons=False),
    "weak": BotSkill("weak", 16, 0.45, 110.0, False, False, 0.3, (), takes_new_weapons=False),
    "average": BotSkill(
        "average", 7, 0.18, 200.0, True, False, 0.8, ("damage", "fire_rate", "max_hp"), ("spread", "missile")
    ),
    "strong": BotSkill(
        "strong",
        2,
        0.04,
        300.0,
        True,
        True,
        1.4,
        ("multishot", "fire_rate", "damage", "pierce", "max_hp", "regen", "move_speed", "dash_cooldown"),
        ("lance", "orbit", "chain", "blaster"),
        True,
    ),
    # a first-time player who stands still in the crowd and shoots: the novice's reactions and aim, no feet
    "still": BotSkill("still", 22, 0.55, 110.0, False, False, 0.2, (), takes_new_weapons=False, moves=False),
}


class Bot:
    def __init__(self, skill: SkillName | BotSkill = "average", seed: int = 0) -> None:
        self.skill = skill if isinstance(skill, BotSkill) else SKILLS[skill]
        self.rng = np.random.default_rng(seed + 7919)
        self.pick_rng = np.random.default_rng((seed, 7919))  # random upgrade picks, apart from aim and moves
        self._held = PlayerInput()
        self._since = self.skill.reaction_ticks
        self._orbit = 1.0

    def act(self, world: World) -> PlayerInput:
        self._since += 1
        if self._since >= self.skill.reaction_ticks:
            self._since = 0
            self._held = self._decide(world)
        return self._held

    def choose_upgrade(self, world: World) -> str:
        if self.skill.seeks_evolutions:
            spec = world.arsenal.cat.get
            for h in world.arsenal.held:
                passive = spec(h.key).evolves_with
                if passive in world.choices and h.level >= spec(h.key).max_level - 1:
                    return passive
        for wkey in self.skill.weapon_priority:
            if WEAPON_PREFIX + wkey in world.choices:
                return WEAPON_PREFIX + wkey
        for key in self.skill.upgrade_priority:
            if key in world.choices:
                return key
        choices = world.choices
        if not self.skill.takes_new_weapons:
            held = world.arsenal.level
            choices = [c for c in choices if not c.startswith(WEAPON_PREFIX) or held(c[len(WEAPON_PREFIX) :])]
            choices = choices or world.choices
        return choices[int(self.pick_rng.integers(len(choices)))]

    # ------------------------------------------------------------------
    def _decide(self, world: World) -> PlayerInput:
        p = world.player
        e = world.enemies
        s = self.skill
        mx, my = 0.0, 0.0
        aim_x, aim_y = p.x + math.cos(p.aim_angle), p.y + math.sin(p.aim_angle)
        dash = False
        if e.n:
            ex, ey = e.view("x"), e.view("y")
            dx, dy = p.x - ex, p.y - ey
            d = np.sqrt(dx * dx + dy * dy) + 1e-6
            nearest = int(np.argmin(d))
            angle = math.atan2(-dy[nearest], -dx[nearest]) + float(self.rng.normal(0.0, s.aim_error))
            aim_x, aim_y = p.x + math.cos(angle) * 100, p.y + math.sin(angle) * 100
            close = d < s.danger_radius
            if close.any():
                w = (e.view("radius")[close] / 16.0) / (d[close] ** 2)
                mx += float((dx[close] / d[close] * w).sum()) * 4000.0
                my += float((dy[close] / d[close] * w).sum()) * 4000.0
                # circle around the crowd instead of backing straight into a wall
                cx, cy = float(dx[close].mean()), float(dy[close].mean())
                norm = math.hypot(cx, cy) or 1.0
                mx += -cy / norm * 0.6 * self._orbit
                my += cx / norm * 0.6 * self._orbit
            touching = d < e.view("radius") + p.stats.radius + 30.0
            if s.dash_when_cornered and touching.sum() >= 2 and p.dash_cooldown <= 0:
                dash = True
        if s.dodge_projectiles and world.enemy_bullets.n:
            b = world.enemy_bullets
            bx, by = p.x - b.view("x"), p.y - b.view("y")
            bd = np.sqrt(bx * bx + by * by) + 1e-6
            incoming = (bd < 220.0) & ((b.view("vx") * bx + b.view("vy") * by) > 0)
            if incoming.any():
                # step sideways to the bullet's path
                vx, vy = b.view("vx")[incoming], b.view("vy")[incoming]
                vn = np.sqrt(vx * vx + vy * vy) + 1e-6
                side = np.sign(vx * by[incoming] - vy * bx[incoming])
                mx += float((-vy / vn * side).sum()) * 0.8
                my += float((vx / vn * side).sum()) * 0.8
        # stay off the walls: corners are where runs end
        margin = 350.0
        for coord, lo, hi, axis in ((p.x, 0.0, ARENA_W, 0), (p.y, 0.0, ARENA_H, 1)):
            push = max(0.0, margin - (coord - lo)) - max(0.0, margin - (hi - coord))
            if axis == 0:
                mx += push / margin * s.wall_avoidance
            else:
                my += push / margin * s.wall_avoidance
        if abs(mx) + abs(my) < 0.15:
            mx, my = self._seek_pickup(world)
        if self.rng.random() < 0.01:
            self._orbit = -self._orbit
        if not s.moves:
            mx, my, dash = 0.0, 0.0, False
        return PlayerInput(move_x=mx, move_y=my, aim_x=aim_x, aim_y=aim_y, shoot=True, dash=dash)

    def _seek_pickup(self, world: World) -> tuple[float, float]:
        pk = world.pickups
        p = world.player
        if pk.n == 0:
            return 0.0, 0.0
        want_health = p.hp_fraction < 0.6
        kinds = pk.view("kind")
        mask = kinds == 1 if want_health and (kinds == 1).any() else np.ones(pk.n, dtype=bool)
        dx, dy = pk.view("x")[mask] - p.x, pk.view("y")[mask] - p.y
        d = np.sqrt(dx * dx + dy * dy)
        i = int(np.argmin(d))
        if d[i] > 500.0:
            return 0.0, 0.0
        return float(dx[i] / (d[i] + 1e-6)), float(dy[i] / (d[i] + 1e-6))
