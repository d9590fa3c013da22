"""The heads-up display, drawn in screen space: HP and dash bars, wave and wave timer, score, run time,
kills, FPS, the XP/level bar, the boss HP bar, a centre banner ("WAVE 3"), the damage/low-HP vignette and one
line of agent activity. Text objects are created once and re-laid-out only when their string changes. The
text groups sit on translucent plates (``PLATE``) so they stay readable over a crowd of enemies. Plates and
bars go into one ``RectBatch`` and the labels into one ``LayeredText``: the HUD is two draw calls a frame
(plus the vignette and the banner when they show)."""

from __future__ import annotations

import math

import arcade
import numpy as np
from arcade.types import LBWH, Color

from game.render import palette, textures
from game.render.widgets import Label, LayeredText, RectBatch, ShadowLabel, draw_bar
from game.sim.config import wave_duration, xp_for_level
from game.sim.world import World


def clock(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


class Banner:
    """A big centred line that pops in and fades out."""

    def __init__(self) -> None:
        self.label = ShadowLabel(
            "",
            0,
            0,
            offset=3,
            font_size=40,
            anchor_x="center",
            anchor_y="center",
            bold=True,
        )
        self.sub = ShadowLabel(
            "", 0, 0, font_size=16, anchor_x="center", anchor_y="center", color=palette.TEXT_DIM
        )
        self.time_left = 0.0
        self.duration = 1.0

    def show(self, text: str, sub: str = "", seconds: float = 1.8, color: Color = palette.WAVE) -> None:
        self.label.set(text)
        self.label.set_color(color)
        self.sub.set(sub)
        self.time_left = self.duration = seconds

    def update(self, dt: float) -> None:
        self.time_left = max(0.0, self.time_left - dt)

    def draw(self, width: float, height: float) -> None:
        if self.time_left <= 0.0:
            return
        age = self.duration - self.time_left
        alpha = min(1.0, age / 0.15, self.time_left / 0.5)
        pop = 1.0 + 0.25 * max(0.0, 1.0 - age / 0.2)
        y = height * 0.64
        self.label.move(width / 2, y)
        self.sub.move(width / 2, y - 42)
        a = int(255 * alpha)
        for lbl in (self.label, self.sub):
            c = lbl.text.color
            lbl.text.color = Color(c[0], c[1], c[2], a)
            lbl.shadow.text.color = Color(0, 0, 0, int(200 * alpha))
        self.label.text.font_size = self.label.shadow.text.font_size = 40 * pop
        self.label.draw()
        self.sub.draw()


PLATE = Color(8, 10, 18, 165)  # the translucent backing behind a group of HUD text


class Hud:
    MARGIN = 20

    def __init__(self, world_prefabs_boss: list[int]) -> None:
        self.boss_kinds = np.array(world_prefabs_boss, dtype=np.int64)
        f = palette.FONT
        self.rects = RectBatch()
        self.texts = tb = LayeredText()
        self.hp = ShadowLabel(
            "", 0, 0, layer=tb, font_size=12, anchor_x="center", anchor_y="center", font_name=f, bold=True
        )
        self.hp_tag = ShadowLabel("HP", 0, 0, font_size=11, anchor_y="center", color=palette.TEXT_DIM)
        self.wave = ShadowLabel(
            "",
            0,
            0,
            offset=2,
            layer=tb,
            font_size=24,
            anchor_x="center",
            bold=True,
            color=palette.WAVE,
        )
        self.timer = ShadowLabel("", 0, 0, layer=tb, font_size=14, anchor_x="center")
        self.score = ShadowLabel("", 0, 0, layer=tb, font_size=22, anchor_x="right", bold=True)
        self.stats = ShadowLabel("", 0, 0, layer=tb, font_size=11, anchor_x="right", color=palette.TEXT_DIM)
        self.level = ShadowLabel("", 0, 0, layer=tb, font_size=13, bold=True, color=palette.XP)
        self.fps = Label(
            "",
            0,
            0,
            layer=tb,
            font_size=10,
            anchor_x="right",
            color=palette.TEXT_DIM,
            font_name=palette.FONT_MONO,
        )
        self.boss = ShadowLabel(
            "", 0, 0, layer=tb, font_size=13, anchor_x="center", bold=True, color=palette.BOSS
        )
        self.activity = ShadowLabel(
            "", 0, 0, layer=tb, font_size=11, color=palette.XP, font_name=palette.FONT_NARROW
        )
        self.winds = ShadowLabel("", 0, 0, layer=tb, font_size=11, anchor_y="center", bold=True)
        self.badge = ShadowLabel("", 0, 0, layer=tb, font_size=11, anchor_x="center", color=palette.GOOD)
        self.banner = Banner()
        self._hp_shown = 1.0  # the red bar drains smoothly; a pale "recent damage" bar lags behind

    def update(self, dt: float, world: World) -> None:
        self.banner.update(dt)
        target = world.player.hp_fraction
        if target >= self._hp_shown:
            self._hp_shown = target
        else:
            self._hp_shown = max(target, self._hp_shown - dt * 0.6)

    def draw(
        self,
        world: World,
        width: float,
        height: float,
        *,
        fps: float,
        show_fps: bool = True,
        activity: str = "",
        badge: str = "",
        damage_flash: float = 0.0,
        t: float = 0.0,
        vignette: bool = True,
        second_winds: int | None = None,
    ) -> None:
        p = world.player
        m = self.MARGIN
        rects = self.rects
        rects.begin()
        self.texts.begin()
        if vignette:  # off at low graphics quality (game.render.quality)
            self._vignette(width, height, p.hp_fraction, damage_flash, t)
        # ---- HP and dash, top left
        bar_w, bar_h = 300.0, 22.0
        top = height - m - bar_h
        rects.add(m - 10, top - 17, bar_w + 50, bar_h + 27, PLATE)
        hp_col = palette.HP_LOW if p.hp_fraction < 0.3 and int(t * 4) % 2 == 0 else palette.HP
        draw_bar(
            m + 30, top, bar_w, bar_h, self._hp_shown, Color(255, 220, 220, 160), palette.HP_BACK, rects=rects
        )
        draw_bar(
            m + 30,
            top,
            bar_w,
            bar_h,
            p.hp_fraction,
            hp_col,
            Color(0, 0, 0, 0),
            edge=Color(0, 0, 0, 180),
            rects=rects,
        )
        self.hp_tag.move(m, top + bar_h / 2)
        self.hp_tag.draw()
        self.hp.set(f"{math.ceil(max(0.0, p.hp))} / {round(p.stats.max_hp)}")
        self.hp.move(m + 30 + bar_w / 2, top + bar_h / 2)
        self.hp.draw()
        if second_winds is not None:
            self._second_winds(second_winds, m, top - 32)  # under the HP plate: clear of the wave plate
        dash_ready = 1.0 - (p.dash_cooldown / p.stats.dash_cooldown if p.stats.dash_cooldown else 0.0)
        draw_bar(
            m + 30,
            top - 9,
            bar_w,
            5,
            dash_ready,
            palette.DASH if dash_ready >= 1.0 else Color(60, 140, 120),
            Color(20, 40, 40, 200),
            rects=rects,
        )
        # ---- wave and timer, top centre
        rects.add(width / 2 - 124, height - m - 66, 248, 66 + m - 6, PLATE)
        end = f"/{world.final_wave}" if world.final_wave else ""  # how far the run's end is
        self.wave.set(f"WAVE {world.wave}{end}")
        self.wave.move(width / 2, height - m - 24)
        self.wave.draw()
        left = max(0.0, world.wave_time_left)
        self.timer.set(clock(left) if world.phase == "playing" else "--:--")
        self.timer.move(width / 2, height - m - 48)
        self.timer.draw()
        frac = left / wave_duration(world.wave)
        draw_bar(
            width / 2 - 110, height - m - 58, 220, 4, frac, palette.WAVE, Color(60, 50, 20, 200), rects=rects
        )
        if badge:
            self.badge.set(badge)
            self.badge.move(width / 2, height - m - 78)
            self.badge.draw()
        # ---- score, time and kills, top right
        self.score.set(f"{world.stats.score:,}")
        self.stats.set(f"TIME {clock(world.time)}   KILLS {world.stats.kills:,}")
        text_w = max(self.score.text.content_width, self.stats.text.content_width)
        rects.add(width - m - text_w - 12, height - m - 52, text_w + 12 + m - 6, 52 + m - 6, PLATE)
        self.score.move(width - m, height - m - 24)
        self.score.draw()
        self.stats.move(width - m, height - m - 44)
        self.stats.draw()
        self._boss_bar(world, width, height)
        # ---- XP and level, bottom
        need = xp_for_level(p.level)
        draw_bar(
            m,
            12,
            width - 2 * m,
            9,
            p.xp / need if need else 0.0,
            palette.XP,
            palette.XP_BACK,
            edge=Color(0, 0, 0, 160),
            rects=rects,
        )
        self.level.set(f"LV {p.level}")
        fps_w = 0.0
        if show_fps:
            self.fps.set(f"{fps:4.0f} FPS  {world.enemies.n:5,d} enemies")
            fps_w = float(self.fps.text.content_width) + 24
        # the activity line ends before the FPS plate (a docked F10 narrows the play area)
        self.activity.set(fit_line(self.activity, activity[:140], width - m - fps_w - (m + 70) - 8))
        right = m + 70 + self.activity.text.content_width if activity else m + self.level.text.content_width
        rects.add(m - 8, 23, right - m + 16, 22, PLATE)
        self.level.move(m, 28)
        self.level.draw()
        if show_fps:
            rects.add(width - m - fps_w + 16, 23, fps_w - 8, 22, PLATE)
            self.fps.move(width - m, 28)
            self.fps.draw()
        if activity:
            self.activity.move(m + 70, 28)
            self.activity.draw()
        rects.draw()
        self.texts.draw()
        self.banner.draw(width, height)

    def _second_winds(self, left: int, x: float, y: float) -> None:
        """The second winds left, under the HP bar (``[rescue]``): with none, a collapse under a crowd is
        the player's own to survive until a boss wave gives one back."""
        label = self.winds
        label.set(f"SECOND WIND x{left}" if left > 0 else "NO SECOND WIND")
        label.set_color(palette.GOOD if left > 0 else palette.HP_LOW)
        self.rects.add(x - 8, y - 13, label.text.content_width + 16, 26, PLATE)
        label.move(x, y)
        label.draw()

    @staticmethod
    def boss_bar_y(height: float) -> float:
        """The boss bar's bottom edge: under the wave timer and the demo badge, above the upgrade title."""
        return height - 134.0

    def _boss_bar(self, world: World, width: float, height: float) -> None:
        e = world.enemies
        if not len(self.boss_kinds) or e.n == 0:
            return
        bosses = np.isin(e.view("kind"), self.boss_kinds)
        if not bosses.any():
            return
        hp = float(e.view("hp")[bosses].sum())
        max_hp = float(e.view("max_hp")[bosses].sum())
        w = min(560.0, width * 0.5)
        y = self.boss_bar_y(height)
        self.boss.set("ELITE BOSS" if bosses.sum() == 1 else f"ELITE BOSS x{int(bosses.sum())}")
        self.boss.move(width / 2, y + 20)
        self.boss.draw()
        draw_bar(
            width / 2 - w / 2,
            y,
            w,
            14,
            hp / max_hp if max_hp else 0.0,
            palette.BOSS,
            Color(40, 16, 60, 220),
            edge=Color(0, 0, 0, 200),
            rects=self.rects,
        )

    def _vignette(self, width: float, height: float, hp_fraction: float, flash: float, t: float) -> None:
        low = max(0.0, (0.35 - hp_fraction) / 0.35) * (0.55 + 0.45 * math.sin(t * 6.0))
        strength = max(flash, low * 0.8)
        if strength <= 0.01:
            return
        arcade.draw_texture_rect(
            textures.vignette(),
            LBWH(0, 0, width, height),
            color=Color(255, 30, 40, int(min(1.0, strength) * 200)),
        )


def fit_line(label: ShadowLabel, text: str, max_w: float) -> str:
    """``text``, cut short with "..." so ``label`` shows it within ``max_w`` pixels."""
    label.set(text)
    width = float(label.text.content_width)
    if width <= max_w or not text:
        return text
    keep = max(0, int(len(text) * max_w / width) - 3)
    while keep > 0:
        label.set(text[:keep].rstrip() + "...")
        if float(label.text.content_width) <= max_w:
            break
        keep -= 2
    return text[:keep].rstrip() + "..." if keep > 0 else ""
