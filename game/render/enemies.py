"""Enemies as one batched sprite list (plus one for shadows and one for elite auras).

Each frame the visible enemies are picked with a numpy mask against the camera's rectangle; the sprite in slot
``j`` shows the ``j``-th of them. Per-sprite work is a single loop that sets position and scale, and touches
the texture or colour only when they change. Sprites face the player, squash when hit, flash red, and elites
get a gold tint and aura; bosses telegraph their charge with a red ring; a shielded enemy carries its front
shield as a bright arc on the side it faces.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import PIL.Image
import PIL.ImageDraw
from arcade import Texture
from arcade.types import Color

from game.render import palette, textures
from game.render.pool import SpritePool
from game.sim.enemy_kinds import SHIELD_ARC
from game.sim.prefabs import SHIELDED, PrefabRegistry
from game.sim.world import World

CULL_MARGIN = 140.0
DETAIL_LIMIT = 1200  # more visible enemies than this: no wobble, no shadows (keeps the per-frame loop cheap)
WHITE = Color(255, 255, 255, 255)
SHADOW = Color(0, 0, 0, 110)
SHIELD = Color(150, 215, 255, 235)
SHIELD_TEX = 128


@cache
def shield_texture() -> Texture:
    """A white arc ``SHIELD_ARC`` wide around the texture's centre, facing +x (tinted, rotated per sprite)."""
    size = SHIELD_TEX
    img = PIL.Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = PIL.ImageDraw.Draw(img)
    half = math.degrees(SHIELD_ARC) / 2
    draw.arc((4, 4, size - 4, size - 4), -half, half, fill=(255, 255, 255, 255), width=9)  # y down: symmetric
    draw.arc((14, 14, size - 14, size - 14), -half + 8, half - 8, fill=(255, 255, 255, 110), width=6)
    return textures._texture(img, f"arena-shield-{size}")


class EnemyLayer:
    def __init__(self, prefabs: PrefabRegistry) -> None:
        self.prefabs = prefabs
        # texture index = kind * 2 + facing (0 = as drawn, facing left; 1 = mirrored, facing right)
        self._textures = []
        scales, tints, boss = [], [], []
        for i in range(len(prefabs)):
            pf = prefabs.by_index(i)
            self._textures += [textures.load(pf.sprite), textures.load(pf.sprite).flip_left_right()]
            scales.append(pf.sprite_scale)
            tints.append(Color(*pf.tint, 255))
            boss.append(pf.is_boss)
        self._scale = np.array(scales)
        self._tints = tints
        self._is_boss = np.array(boss)
        self.sprites = SpritePool(self._textures[0], capacity=1024)
        self.shadows = SpritePool(textures.glow(), capacity=1024, color=SHADOW)
        self.auras = SpritePool(textures.glow(), capacity=64, additive=True)
        self.rings = SpritePool(textures.ring(), capacity=8, additive=True)
        self.shields = SpritePool(shield_texture(), capacity=32, rotating=True, color=SHIELD)
        # a hit enemy is drawn a second time, additively: its own silhouette lights up white
        self.flashes = SpritePool(self._textures[0], capacity=128, additive=True)
        self._tex_of: list[int] = []
        self._col_of: list[int] = []
        self._scale_of: list[int] = []
        self.visible_count = 0

    def sync(
        self, world: World, view: tuple[float, float, float, float], t: float, *, glow: bool = True
    ) -> None:
        """Position sprites for the enemies inside ``view`` = (left, bottom, right, top) in world units.
        Without ``glow`` (low graphics quality) no shadows, auras or hit flashes are drawn."""
        e = world.enemies
        x, y = e.view("x"), e.view("y")
        left, bottom, right, top = view
        m = CULL_MARGIN
        idx = np.nonzero((x > left - m) & (x < right + m) & (y > bottom - m) & (y < top + m))[0]
        n = len(idx)
        self.visible_count = n
        detailed = n <= DETAIL_LIMIT
        sprites = self.sprites.show(n)
        shadows = self.shadows.show(n if detailed and glow else 0)
        if n == 0:
            self.auras.hide_all()
            self.rings.hide_all()
            self.flashes.hide_all()
            self.shields.hide_all()
            return
        kind = e.view("kind")[idx].astype(np.int64)
        ex, ey = x[idx], y[idx]
        elite = e.view("elite")[idx]
        flash = e.view("hit_flash")[idx]
        radius = e.view("radius")[idx]
        ids = e.view("id")[idx]
        facing = (ex < world.player.x).astype(np.int64)
        tex = (kind * 2 + facing).tolist()
        base = self._scale[kind] * np.where(elite, 1.25, 1.0)
        # a gentle breathing wobble (phase per enemy) and a squash when hit
        wob = 0.05 * np.sin(t * 9.0 + ids * 1.7) if detailed else np.zeros(n)
        hit = flash > 0.0
        sx = (base * (1.0 + wob + np.where(hit, 0.16, 0.0))).tolist()
        sy = (base * (1.0 - wob - np.where(hit, 0.12, 0.0))).tolist()
        # colour code: 0 prefab tint, 2 elite
        col = np.where(elite, 2, 0).tolist()
        # without wobble the scale only changes with kind, elite or a hit: set it only then
        scale_key = (-1 - np.arange(n) if detailed else kind * 4 + elite * 2 + hit).tolist()
        if len(self._tex_of) < n:
            grow = n - len(self._tex_of)
            self._tex_of += [-1] * grow
            self._col_of += [-1] * grow
            self._scale_of += [-1] * grow
        tex_of, col_of, scale_of = self._tex_of, self._col_of, self._scale_of
        textures_, tints = self._textures, self._tints
        kinds = kind.tolist()
        xs, ys = ex.tolist(), ey.tolist()
        for j, s in enumerate(sprites):
            s.position = (xs[j], ys[j])
            if tex_of[j] != tex[j]:
                tex_of[j] = tex[j]
                s.texture = textures_[tex[j]]
            if scale_of[j] != scale_key[j] or scale_key[j] < 0:
                scale_of[j] = scale_key[j]
                s.scale = (sx[j], sy[j])
            c = col[j] * 64 + kinds[j]
            if col_of[j] != c:
                col_of[j] = c
                s.color = palette.ELITE_TINT if col[j] == 2 else tints[kinds[j]]
        # soft shadows under every enemy, a little below its centre
        sh_scale = (radius * 2.4 / 64.0).tolist()
        sh_y = (ey - radius * 0.55).tolist()
        for j, s in enumerate(shadows):
            s.position = (xs[j], sh_y[j])
            s.scale = (sh_scale[j], sh_scale[j] * 0.45)
        hit_j = np.nonzero(hit)[0][: 256 if glow else 0]
        strength = (np.minimum(1.0, flash[hit_j] / 0.12) * 230).astype(np.int64).tolist()
        for f, j, a in zip(self.flashes.show(len(hit_j)), hit_j.tolist(), strength, strict=True):
            f.texture = textures_[tex[j]]
            f.position = (xs[j], ys[j])
            f.scale = (sx[j], sy[j])
            f.alpha = a
        self._sync_auras(world, idx, ex, ey, radius, elite, kind, t, glow)
        self._sync_shields(world, idx, ex, ey, radius)

    def _sync_shields(
        self, world: World, idx: np.ndarray, ex: np.ndarray, ey: np.ndarray, radius: np.ndarray
    ) -> None:
        e = world.enemies
        j = np.nonzero(e.view("behaviour")[idx] == SHIELDED)[0][:512]
        fx, fy = e.view("dir_x")[idx[j]], e.view("dir_y")[idx[j]]
        ang = np.degrees(-np.arctan2(fy, fx)).tolist()  # arcade angles: clockwise degrees
        scale = (radius[j] * 2.9 / SHIELD_TEX).tolist()
        for s, k, a, sc in zip(self.shields.show(len(j)), j.tolist(), ang, scale, strict=True):
            s.position = (float(ex[k]), float(ey[k]))
            s.angle = a  # type: ignore[attr-defined]
            s.scale = sc

    def _sync_auras(
        self,
        world: World,
        idx: np.ndarray,
        ex: np.ndarray,
        ey: np.ndarray,
        radius: np.ndarray,
        elite: np.ndarray,
        kind: np.ndarray,
        t: float,
        glow: bool = True,
    ) -> None:
        special = np.nonzero(elite | self._is_boss[kind])[0][: 64 if glow else 0]  # the charge rings stay
        auras = self.auras.show(len(special))
        pulse = 1.0 + 0.08 * math.sin(t * 5.0)
        for s, j in zip(auras, special.tolist(), strict=True):
            s.position = (float(ex[j]), float(ey[j]))
            s.scale = float(radius[j]) * 3.4 / 64.0 * pulse
            s.color = Color(210, 110, 255, 150) if self._is_boss[kind[j]] else Color(255, 190, 60, 120)
        charge = world.enemies.view("charge")[idx]
        charging = np.nonzero(charge > 0.0)[0][:8]
        rings = self.rings.show(len(charging))
        for s, j in zip(rings, charging.tolist(), strict=True):
            s.position = (float(ex[j]), float(ey[j]))
            s.scale = float(radius[j]) * (2.6 + 1.2 * float(charge[j])) / 128.0
            s.color = Color(255, 60, 60, 220)

    def draw_shadows(self) -> None:
        self.shadows.draw()

    def draw(self) -> None:
        self.auras.draw()
        self.rings.draw()
        self.sprites.draw()
        self.flashes.draw()
        self.shields.draw()
