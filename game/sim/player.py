"""The player: input, movement, dash, and the stats that upgrades change (weapons: ``game.sim.weapons``).

Humans and bots drive the same ``PlayerInput``; the simulation never looks at where the input came from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.sim.config import ARENA_H, ARENA_W, PLAYER_BASE, PlayerBase


@dataclass(frozen=True)
class PlayerInput:
    """One tick of intent. ``move`` is a direction (normalised by the sim), ``aim`` a world point."""

    move_x: float = 0.0
    move_y: float = 0.0
    aim_x: float = 0.0
    aim_y: float = 0.0
    shoot: bool = False
    dash: bool = False


IDLE = PlayerInput()


@dataclass
class Player:
    x: float = ARENA_W / 2
    y: float = ARENA_H / 2
    hp: float = PLAYER_BASE.max_hp
    stats: PlayerBase = field(default_factory=lambda: PLAYER_BASE)
    aim_angle: float = 0.0
    dash_timer: float = 0.0  # > 0 while dashing
    dash_cooldown: float = 0.0
    dash_dir: tuple[float, float] = (1.0, 0.0)
    iframes: float = 0.0
    xp: int = 0
    xp_carry: float = 0.0  # the fraction of a point a multiplied pickup left over (counted with the next one)
    level: int = 1
    alive: bool = True

    @property
    def invulnerable(self) -> bool:
        return self.iframes > 0.0

    @property
    def hp_fraction(self) -> float:
        return max(0.0, self.hp / self.stats.max_hp)

    def move(self, inp: PlayerInput, dt: float, speed_mult: float = 1.0) -> bool:
        """Apply movement and dash for one tick; returns True when a dash started."""
        dx, dy = inp.move_x, inp.move_y
        norm = math.hypot(dx, dy)
        if norm > 1e-9:
            dx, dy = dx / norm, dy / norm
        started = False
        self.dash_cooldown = max(0.0, self.dash_cooldown - dt)
        self.iframes = max(0.0, self.iframes - dt)
        if inp.dash and self.dash_cooldown <= 0.0 and self.dash_timer <= 0.0:
            if norm <= 1e-9:  # dash toward the aim when standing still
                ax, ay = inp.aim_x - self.x, inp.aim_y - self.y
                an = math.hypot(ax, ay) or 1.0
                dx, dy = ax / an, ay / an
            self.dash_dir = (dx, dy)
            self.dash_timer = self.stats.dash_time
            self.dash_cooldown = self.stats.dash_cooldown
            self.iframes = max(self.iframes, self.stats.dash_iframes)
            started = True
        speed = self.stats.speed * speed_mult
        if self.dash_timer > 0.0:
            self.dash_timer = max(0.0, self.dash_timer - dt)
            dx, dy = self.dash_dir
            speed *= self.stats.dash_speed_mult
        r = self.stats.radius
        self.x = min(ARENA_W - r, max(r, self.x + dx * speed * dt))
        self.y = min(ARENA_H - r, max(r, self.y + dy * speed * dt))
        if abs(inp.aim_x - self.x) + abs(inp.aim_y - self.y) > 1e-6:
            self.aim_angle = math.atan2(inp.aim_y - self.y, inp.aim_x - self.x)
        return started

    def heal(self, amount: float) -> None:
        self.hp = min(self.stats.max_hp, self.hp + amount)
