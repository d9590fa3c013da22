"""Bullets and pickups, batched like the enemies: culled with numpy, drawn from reused sprite slots.

Player bullets are stretched glows along their velocity; enemy bullets are a hot core inside a pulsing halo
(they must read at a glance in a crowd); XP gems bob, health hearts beat.
"""

from __future__ import annotations

import math

import numpy as np
from arcade.types import Color

from game.render import palette, textures
from game.render.pool import SpritePool
from game.sim.combat import HEALTH
from game.sim.pools import Pool

CULL_MARGIN = 40.0
View = tuple[float, float, float, float]


def _visible(pool: Pool, view: View) -> np.ndarray:
    x, y = pool.view("x"), pool.view("y")
    left, bottom, right, top = view
    m = CULL_MARGIN
    return np.nonzero((x > left - m) & (x < right + m) & (y > bottom - m) & (y < top + m))[0]


class PlayerBullets:
    """A hot core stretched along the velocity inside a soft additive halo."""

    def __init__(self) -> None:
        self.halo = SpritePool(
            textures.glow(),
            capacity=512,
            rotating=True,
            additive=True,
            color=Color(255, 200, 80, 170),
            scale=(0.8, 0.4),
        )
        self.pool = SpritePool(
            textures.dot(), capacity=512, rotating=True, color=palette.PLAYER_BULLET, scale=(0.75, 0.3)
        )

    def sync(self, bullets: Pool, view: View, *, glow: bool = True) -> None:
        idx = _visible(bullets, view)
        halos = self.halo.show(len(idx) if glow else 0)
        cores = self.pool.show(len(idx))
        if not len(idx):
            return
        xs, ys = bullets.view("x")[idx].tolist(), bullets.view("y")[idx].tolist()
        ang = np.degrees(-np.arctan2(bullets.view("vy")[idx], bullets.view("vx")[idx])).tolist()
        for h, x, y, a in zip(halos, xs, ys, ang, strict=False):
            # rotating pools hold arcade.Sprite, which has an angle
            h.position = (x, y)
            h.angle = a  # type: ignore[attr-defined]
        for c, x, y, a in zip(cores, xs, ys, ang, strict=True):
            c.position = (x, y)
            c.angle = a  # type: ignore[attr-defined]

    def draw(self) -> None:
        self.halo.draw()
        self.pool.draw()


class EnemyBullets:
    def __init__(self) -> None:
        self.halo = SpritePool(textures.glow(), capacity=256, additive=True, color=palette.ENEMY_BULLET)
        self.core = SpritePool(textures.dot(), capacity=256, color=Color(255, 215, 235), scale=(0.5, 0.5))

    def sync(self, bullets: Pool, view: View, t: float) -> None:
        idx = _visible(bullets, view)
        halos = self.halo.show(len(idx))
        cores = self.core.show(len(idx))
        if not len(idx):
            return
        xs, ys = bullets.view("x")[idx].tolist(), bullets.view("y")[idx].tolist()
        pulse = 0.62 + 0.08 * math.sin(t * 18.0)
        for h, c, x, y in zip(halos, cores, xs, ys, strict=True):
            h.position = (x, y)
            h.scale = pulse
            c.position = (x, y)

    def draw(self) -> None:
        self.halo.draw()
        self.core.draw()


class PickupsLayer:
    def __init__(self) -> None:
        self.gems = SpritePool(textures.load(textures.XP_GEM_SPRITE), capacity=512)
        self.hearts = SpritePool(textures.heart(), capacity=32, color=palette.HEAL)
        self.glows = SpritePool(textures.glow(), capacity=32, additive=True, color=Color(255, 60, 90, 150))

    def sync(self, pickups: Pool, view: View, t: float) -> None:
        idx = _visible(pickups, view)
        kind = pickups.view("kind")[idx]
        heal = idx[kind == HEALTH]
        xp = idx[kind != HEALTH]
        gems = self.gems.show(len(xp))
        if len(xp):
            xs, ys = pickups.view("x")[xp], pickups.view("y")[xp]
            bob = (ys + 3.0 * np.sin(t * 6.0 + xs * 0.05)).tolist()
            # bigger gems for bigger XP values (elite and boss drops)
            sc = (0.26 + 0.05 * np.minimum(4.0, np.log2(np.maximum(1.0, pickups.view("value")[xp])))).tolist()
            for s, x, y, k in zip(gems, xs.tolist(), bob, sc, strict=True):
                s.position = (x, y)
                s.scale = k
        hearts = self.hearts.show(len(heal))
        glows = self.glows.show(len(heal))
        if len(heal):
            beat = 0.55 + 0.07 * abs(math.sin(t * 5.0))
            for s, g, x, y in zip(
                hearts, glows, pickups.view("x")[heal].tolist(), pickups.view("y")[heal].tolist(), strict=True
            ):
                s.position = (x, y)
                s.scale = beat
                g.position = (x, y)
                g.scale = 0.9

    def draw(self) -> None:
        self.glows.draw()
        self.hearts.draw()
        self.gems.draw()
