"""Juice: particle bursts on kills and hits, dash trails, score pop-ups, screen shake and the damage flash.

Particles live in numpy arrays (capped) and are drawn from one additive sprite pool; pop-ups reuse a small
ring of ``arcade.Text`` objects. Effects only read events and state; they never touch the simulation.
"""

from __future__ import annotations

import math

import arcade
import numpy as np
from arcade.types import Color

from game.render import palette, textures
from game.render.pool import SpritePool
from game.sim import events as ev
from game.sim.world import World

View = tuple[float, float, float, float]


class Particles:
    CAPACITY = 1500

    def __init__(self, seed: int = 0) -> None:
        c = self.CAPACITY
        self.rng = np.random.default_rng(seed)
        self.x, self.y = np.zeros(c), np.zeros(c)
        self.vx, self.vy = np.zeros(c), np.zeros(c)
        self.life, self.max_life = np.zeros(c), np.ones(c)
        self.size = np.zeros(c)
        self.rgb = np.zeros((c, 3), dtype=np.int64)
        self.n = 0
        self.pool = SpritePool(textures.glow(32), capacity=512, additive=True)

    def burst(
        self,
        x: float,
        y: float,
        color: Color,
        count: int,
        *,
        speed: float = 220.0,
        size: float = 10.0,
        life: float = 0.45,
        spread: float = 2 * math.pi,
        direction: float = 0.0,
    ) -> None:
        count = min(count, self.CAPACITY - self.n)
        if count <= 0:
            return
        sl = slice(self.n, self.n + count)
        a = direction + self.rng.uniform(-spread / 2, spread / 2, count)
        v = speed * self.rng.uniform(0.35, 1.0, count)
        self.x[sl], self.y[sl] = x, y
        self.vx[sl], self.vy[sl] = np.cos(a) * v, np.sin(a) * v
        lf = life * self.rng.uniform(0.6, 1.0, count)
        self.life[sl], self.max_life[sl] = lf, lf
        self.size[sl] = size * self.rng.uniform(0.6, 1.2, count)
        self.rgb[sl] = (color[0], color[1], color[2])
        self.n += count

    def update(self, dt: float) -> None:
        n = self.n
        if n == 0:
            return
        drag = math.exp(-4.0 * dt)
        self.vx[:n] *= drag
        self.vy[:n] *= drag
        self.x[:n] += self.vx[:n] * dt
        self.y[:n] += self.vy[:n] * dt
        self.life[:n] -= dt
        alive = self.life[:n] > 0.0
        k = int(alive.sum())
        if k < n:
            for arr in (self.x, self.y, self.vx, self.vy, self.life, self.max_life, self.size, self.rgb):
                arr[:k] = arr[:n][alive]
            self.n = k

    def clear(self) -> None:
        self.n = 0
        self.pool.hide_all()

    def sync(self, view: View) -> None:
        n = self.n
        left, bottom, right, top = view
        x, y = self.x[:n], self.y[:n]
        idx = np.nonzero((x > left - 20) & (x < right + 20) & (y > bottom - 20) & (y < top + 20))[0]
        sprites = self.pool.show(len(idx))
        if not len(idx):
            return
        f = self.life[idx] / self.max_life[idx]
        scale = (self.size[idx] * (0.4 + 0.6 * f) / 32.0).tolist()
        alpha = (255 * np.minimum(1.0, f * 1.6)).astype(np.int64).tolist()
        rgb = self.rgb[idx].tolist()
        for s, px, py, sc, a, c in zip(
            sprites, x[idx].tolist(), y[idx].tolist(), scale, alpha, rgb, strict=True
        ):
            s.position = (px, py)
            s.scale = sc
            s.color = (c[0], c[1], c[2], a)

    def draw(self) -> None:
        self.pool.draw()


class PopUps:
    """Floating "+40" numbers over valuable kills: a fixed ring of reused Text objects."""

    SLOTS = 14
    LIFE = 0.9

    def __init__(self) -> None:
        self.texts = [
            arcade.Text("", 0, 0, palette.ACCENT, 14, font_name=palette.FONT, anchor_x="center", bold=True)
            for _ in range(self.SLOTS)
        ]
        self.life = [0.0] * self.SLOTS
        self.origin = [(0.0, 0.0)] * self.SLOTS
        self._next = 0

    def add(self, x: float, y: float, text: str, color: Color = palette.ACCENT, size: int = 14) -> None:
        i = self._next
        self._next = (i + 1) % self.SLOTS
        t = self.texts[i]
        if t.text != text:
            t.text = text
        t.color = color
        if t.font_size != size:
            t.font_size = size
        self.life[i] = self.LIFE
        self.origin[i] = (x, y)

    def update(self, dt: float) -> None:
        for i, lf in enumerate(self.life):
            if lf > 0.0:
                self.life[i] = lf - dt
                ox, oy = self.origin[i]
                rise = (1.0 - max(0.0, self.life[i]) / self.LIFE) * 36.0
                self.texts[i].position = (ox, oy + 18.0 + rise)

    def clear(self) -> None:
        self.life = [0.0] * self.SLOTS

    def draw(self) -> None:
        for t, lf in zip(self.texts, self.life, strict=True):
            if lf > 0.0:
                t.draw()


class Effects:
    """Turns simulation events into particles, pop-ups, shake and flash."""

    def __init__(self, seed: int = 0) -> None:
        self.particles = Particles(seed)
        self.popups = PopUps()
        self.shake = 0.0  # pixels of camera shake, decays
        self.damage_flash = 0.0  # 1 right after a hit, decays to 0
        self.levelup_flash = 0.0
        self.rng = np.random.default_rng(seed + 1)

    def reset(self) -> None:
        self.particles.clear()
        self.popups.clear()
        self.shake = self.damage_flash = self.levelup_flash = 0.0

    def on_events(self, events: list[ev.Event], world: World) -> None:
        p = world.player
        sparks = 0
        for e in events:
            if isinstance(e, ev.EnemyKilled):
                color = palette.KILL_COLOURS.get(e.prefab, palette.KILL_DEFAULT)
                big = world.prefabs.is_boss(e.prefab)
                count = 90 if big else 22 if e.elite else 9
                self.particles.burst(
                    e.x, e.y, color, count, speed=420 if big else 240, size=22 if big else 11
                )
                if big or e.elite:
                    self.particles.burst(e.x, e.y, palette.ACCENT, 30 if big else 10, speed=300, size=8)
                    self.shake = max(self.shake, 16.0 if big else 7.0)
                if e.score >= 25:
                    self.popups.add(
                        e.x, e.y, f"+{e.score}", palette.BOSS if big else palette.ACCENT, 20 if big else 14
                    )
            elif isinstance(e, ev.EnemyHit):
                sparks += e.count
            elif isinstance(e, ev.ShieldBlocked):
                self.particles.burst(e.x, e.y, Color(150, 215, 255), 3, speed=150, size=7, life=0.22)
            elif isinstance(e, ev.Exploded):
                self.particles.burst(e.x, e.y, palette.WARN, 40, speed=e.radius * 3.0, size=14, life=0.45)
                self.shake = max(self.shake, 9.0)
            elif isinstance(e, ev.Rescued):  # the director's shockwave: a ring, a small shake
                self.particles.burst(e.x, e.y, palette.HEAL, 48, speed=e.radius * 4.0, size=12, life=0.35)
                self.shake = max(self.shake, 6.0)
            elif isinstance(e, ev.WeaponEvolved):
                self.levelup_flash = 1.0
                self.particles.burst(p.x, p.y, palette.ACCENT, 60, speed=360, size=12, life=0.8)
            elif isinstance(e, ev.PlayerDamaged):
                self.damage_flash = 1.0
                self.shake = max(self.shake, 8.0)
                self.particles.burst(p.x, p.y, palette.HP, 10, speed=200, size=9)
            elif isinstance(e, ev.PlayerDied):
                self.shake = 22.0
                self.damage_flash = 1.0
                self.particles.burst(p.x, p.y, palette.ACCENT, 70, speed=380, size=16, life=0.9)
                self.particles.burst(p.x, p.y, palette.HP, 50, speed=260, size=12, life=1.1)
            elif isinstance(e, ev.LevelUp):
                self.levelup_flash = 1.0
                self.particles.burst(p.x, p.y, palette.XP, 40, speed=330, size=10, life=0.7)
            elif isinstance(e, ev.PickupCollected):
                color = palette.HEAL if e.kind == "health" else palette.XP_GEM
                self.particles.burst(
                    p.x, p.y, color, 4 if e.kind == "xp" else 14, speed=120, size=7, life=0.3
                )
        if sparks:
            self._hit_sparks(world, min(sparks, 12))

    def _hit_sparks(self, world: World, limit: int) -> None:
        e = world.enemies
        fresh = np.nonzero(e.view("hit_flash") > 0.11)[0][:limit]
        for i in fresh.tolist():
            away = math.atan2(float(e.y[i]) - world.player.y, float(e.x[i]) - world.player.x)
            self.particles.burst(
                float(e.x[i]),
                float(e.y[i]),
                Color(255, 240, 200),
                3,
                speed=260,
                size=6,
                life=0.18,
                spread=1.2,
                direction=away,
            )

    def update(self, dt: float, world: World | None) -> None:
        self.particles.update(dt)
        self.popups.update(dt)
        self.shake *= math.exp(-9.0 * dt)
        if self.shake < 0.3:
            self.shake = 0.0
        self.damage_flash = max(0.0, self.damage_flash - dt * 2.8)
        self.levelup_flash = max(0.0, self.levelup_flash - dt * 1.5)
        if world is not None and world.player.dash_timer > 0.0:  # afterimage trail
            p = world.player
            self.particles.burst(p.x, p.y, palette.DASH, 3, speed=40, size=20, life=0.25)

    def shake_offset(self) -> tuple[float, float]:
        if self.shake <= 0.0:
            return 0.0, 0.0
        a = float(self.rng.uniform(0, 2 * math.pi))
        return math.cos(a) * self.shake, math.sin(a) * self.shake

    def sync(self, view: View) -> None:
        self.particles.sync(view)

    def draw_world(self) -> None:
        self.particles.draw()
        self.popups.draw()
