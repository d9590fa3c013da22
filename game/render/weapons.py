"""Each weapon's pattern on screen, batched: one halo + core sprite pool per weapon (fixed tint, so nothing is
recoloured per frame), orbit blades, lance beams and chain-lightning arcs as stretched sprites.

Everything reads the simulation (``world.bullets``, ``weapons.blades``, ``world.fx``) once per frame.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
import PIL.Image
import PIL.ImageDraw
from arcade import BasicSprite, Texture
from arcade.types import Color

from game.render import textures
from game.render.pool import SpritePool
from game.sim import weapons
from game.sim.pools import Pool
from game.sim.weapon_data import WeaponCatalogue
from game.sim.world import World

View = tuple[float, float, float, float]
CULL_MARGIN = 40.0
BEAM_TEX_W = 64


@cache
def beam_texture() -> Texture:
    """A white bar, opaque along its middle line and soft across: beams and arcs, stretched per sprite."""
    h = 32
    img = PIL.Image.new("RGBA", (BEAM_TEX_W, h), (0, 0, 0, 0))
    px = img.load()
    assert px is not None
    for y in range(h):
        a = max(0.0, 1.0 - abs((y + 0.5) / h * 2 - 1)) ** 1.5
        for x in range(BEAM_TEX_W):
            px[x, y] = (255, 255, 255, int(255 * a))
    return textures._texture(img, "arena-beam")


@cache
def blade_texture(size: int = 48) -> Texture:
    """A white curved blade (a crescent), tinted per weapon."""
    img = PIL.Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = PIL.ImageDraw.Draw(img)
    draw.ellipse((2, 2, size - 2, size - 2), fill=(255, 255, 255, 255))
    draw.ellipse((size * 0.28, -size * 0.05, size * 1.1, size * 0.8), fill=(0, 0, 0, 0))
    return textures._texture(img, f"arena-blade-{size}")


def _tint(rgb: tuple[int, int, int], alpha: int = 255) -> Color:
    return Color(rgb[0], rgb[1], rgb[2], alpha)


class PlayerShots:
    """Player projectiles, one pair of pools per weapon: a stretched core in a soft additive halo. Missiles
    are longer and brighter."""

    def __init__(self, cat: WeaponCatalogue) -> None:
        self.cat = cat
        self.pools: dict[int, tuple[SpritePool, SpritePool]] = {}

    def _pools(self, w: int) -> tuple[SpritePool, SpritePool]:
        if w not in self.pools:
            spec = self.cat.get(self.cat.keys[w])
            missile = spec.pattern == "missile"
            halo = SpritePool(
                textures.glow(),
                capacity=256,
                rotating=True,
                additive=True,
                color=_tint(spec.color, 170),
                scale=(1.1, 0.55) if missile else (0.8, 0.4),
            )
            core = SpritePool(
                textures.dot(),
                capacity=256,
                rotating=True,
                color=Color(255, 255, 255) if missile else _tint(spec.color),
                scale=(1.0, 0.38) if missile else (0.75, 0.3),
            )
            self.pools[w] = (halo, core)
        return self.pools[w]

    @property
    def shown(self) -> int:
        return sum(core.shown for _, core in self.pools.values())

    def sync(self, bullets: Pool, view: View, *, glow: bool = True) -> None:
        """Low effects (``glow=False``): cores only, no halos."""
        x, y = bullets.view("x"), bullets.view("y")
        left, bottom, right, top = view
        m = CULL_MARGIN
        idx = np.nonzero((x > left - m) & (x < right + m) & (y > bottom - m) & (y < top + m))[0]
        kinds = bullets.view("weapon")[idx]
        present = set(np.unique(kinds).tolist())
        for w in list(self.pools):
            if w not in present:
                for pool in self.pools[w]:
                    pool.hide_all()
        ang_all = np.degrees(-np.arctan2(bullets.view("vy")[idx], bullets.view("vx")[idx]))
        for w in sorted(present):
            sel = kinds == w
            halo, core = self._pools(int(w))
            n = int(sel.sum())
            halos, cores = halo.show(n if glow else 0), core.show(n)
            xs, ys, angs = x[idx[sel]].tolist(), y[idx[sel]].tolist(), ang_all[sel].tolist()
            for h, px, py, a in zip(halos, xs, ys, angs, strict=False):
                h.position = (px, py)
                h.angle = a  # type: ignore[attr-defined]
            for c, px, py, a in zip(cores, xs, ys, angs, strict=True):
                c.position = (px, py)
                c.angle = a  # type: ignore[attr-defined]

    def draw(self) -> None:
        for halo, _ in self.pools.values():
            halo.draw()
        for _, core in self.pools.values():
            core.draw()


class Blades:
    """Orbit blades: a glow under a spinning crescent, per orbit weapon held."""

    def __init__(self, cat: WeaponCatalogue) -> None:
        self.cat = cat
        self.glows = SpritePool(textures.glow(), capacity=16, additive=True, color=Color(255, 255, 255, 120))
        self.pools: dict[str, SpritePool] = {}

    def sync(self, world: World, t: float, *, glow: bool = True) -> None:
        groups = weapons.blades(world)
        total = sum(len(xs) for _, xs, _ in groups)
        glows = self.glows.show(total if glow else 0)
        shown_keys = {k for k, _, _ in groups}
        for key, pool in self.pools.items():
            if key not in shown_keys:
                pool.hide_all()
        j = 0
        spin = (t * 720.0) % 360.0
        for key, xs, ys in groups:
            spec = self.cat.get(key)
            if key not in self.pools:
                self.pools[key] = SpritePool(
                    blade_texture(), capacity=8, rotating=True, color=_tint(spec.color)
                )
            scale = spec.width * 2.4 / 48.0
            for s, bx, by in zip(self.pools[key].show(len(xs)), xs.tolist(), ys.tolist(), strict=True):
                s.position = (bx, by)
                s.scale = scale
                s.angle = spin  # type: ignore[attr-defined]
                if glow:
                    g = glows[j]
                    g.position = (bx, by)
                    g.scale = scale * 1.1
                    g.color = _tint(spec.color, 110)
                j += 1

    def draw(self) -> None:
        self.glows.draw()
        for pool in self.pools.values():
            pool.draw()


class Beams:
    """Lance beams (a wide glow with a white core) and chain arcs (jagged, three segments each)."""

    JAG = 3

    def __init__(self) -> None:
        self.glow = SpritePool(beam_texture(), capacity=64, rotating=True, additive=True)
        self.core = SpritePool(beam_texture(), capacity=64, rotating=True, color=Color(255, 255, 255, 230))

    def _segments(self, world: World) -> list[tuple[float, float, float, float, float, str, float]]:
        out = []
        for fx in world.fx:
            fade = max(0.0, min(1.0, (fx.until - world.time) / weapons.FX_SECONDS))
            if fx.kind == "lance":
                out.append((fx.x0, fx.y0, fx.x1, fx.y1, fx.width * 2.0, fx.weapon, fade))
                continue
            # lightning: a deterministic zig-zag between the two ends
            dx, dy = fx.x1 - fx.x0, fx.y1 - fx.y0
            length = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / length, dx / length
            pts = [(fx.x0, fx.y0)]
            for k in range(1, self.JAG):
                f = k / self.JAG
                wob = math.sin((fx.x0 + fx.y1) * 0.37 + k * 2.1 + world.time * 40.0) * min(18.0, length * 0.2)
                pts.append((fx.x0 + dx * f + nx * wob, fx.y0 + dy * f + ny * wob))
            pts.append((fx.x1, fx.y1))
            for (ax, ay), (bx, by) in itertools.pairwise(pts):
                out.append((ax, ay, bx, by, 9.0, fx.weapon, fade))
        return out

    def sync(self, world: World, *, glow: bool = True) -> None:
        segs = self._segments(world)
        glows, cores = self.glow.show(len(segs) if glow else 0), self.core.show(len(segs))
        for g, (ax, ay, bx, by, width, key, fade) in zip(glows, segs, strict=False):
            self._place(g, ax, ay, bx, by, width * 2.2)
            rgb = world.arsenal.cat.get(key).color
            g.color = Color(rgb[0], rgb[1], rgb[2], int(220 * fade))
        for c, (ax, ay, bx, by, width, _key, fade) in zip(cores, segs, strict=True):
            self._place(c, ax, ay, bx, by, max(2.0, width * (0.5 if glow else 1.0)))
            c.alpha = int(230 * fade)

    @staticmethod
    def _place(s: BasicSprite, ax: float, ay: float, bx: float, by: float, thickness: float) -> None:
        s.position = ((ax + bx) / 2, (ay + by) / 2)
        s.angle = math.degrees(-math.atan2(by - ay, bx - ax))  # type: ignore[attr-defined]
        s.width, s.height = math.hypot(bx - ax, by - ay), thickness

    def draw(self) -> None:
        self.glow.draw()
        self.core.draw()
