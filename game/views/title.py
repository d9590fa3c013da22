"""The title screen: the arena floor drifting behind the name, a few wandering enemies, the controls, the best
score, and "press Enter". In demo mode (``--bot``) the run starts by itself."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import arcade
import numpy as np
from arcade import key as K

from game.render import palette, textures
from game.render.floor import Floor
from game.render.widgets import Label, ShadowLabel
from game.sim.config import ARENA_H, ARENA_W
from game.views.base import AppView

if TYPE_CHECKING:
    from game.ports import ViewHost

DEMO_START_S = 1.5
DRIFTERS = 24


class TitleView(AppView):
    clear_color = palette.FLOOR  # draws the arena floor (game.render.floor)
    app: ViewHost

    def __init__(self, app: ViewHost, sprites: list[str], best_score: int = 0) -> None:
        super().__init__(app)
        self.floor = Floor(ARENA_W, ARENA_H)
        self.camera = arcade.Camera2D()
        self.elapsed = 0.0
        rng = np.random.default_rng(3)
        self.drifters: arcade.SpriteList[arcade.BasicSprite] = arcade.SpriteList()
        self._motion: list[tuple[float, float, float]] = []
        for i in range(DRIFTERS):
            s = arcade.BasicSprite(
                textures.load(sprites[i % len(sprites)]), scale=float(rng.uniform(0.45, 0.8))
            )
            # around the middle, where the drifting camera looks
            s.position = (
                ARENA_W / 2 + float(rng.uniform(-1200, 1200)),
                ARENA_H / 2 + float(rng.uniform(-800, 800)),
            )
            s.alpha = 150
            self.drifters.append(s)
            self._motion.append(
                (float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(20, 60)), float(rng.uniform(0, 9)))
            )
        self.name = ShadowLabel(
            "ARENA DIRECTOR",
            0,
            0,
            offset=5,
            font_size=64,
            anchor_x="center",
            font_name=palette.FONT_DISPLAY,
            color=palette.ACCENT,
        )
        self.tagline = ShadowLabel(
            "a roguelite arena run by an AI director",
            0,
            0,
            font_size=17,
            anchor_x="center",
            color=palette.TEXT,
        )
        self.prompt = ShadowLabel("", 0, 0, font_size=20, anchor_x="center", bold=True, color=palette.TEXT)
        controls = (
            "WASD move      mouse aim      hold left mouse / Space shoot      Shift dash\n"
            "P / Esc pause      O options      F1 help      F2 screenshot      F5 restart      F11 fullscreen"
        )
        self.controls = Label(
            controls,
            0,
            0,
            font_size=12,
            anchor_x="center",
            multiline=True,
            width=900,
            align="center",
            color=palette.TEXT_DIM,
            font_name=palette.FONT_NARROW,
        )
        self.best = Label(
            f"best score  {best_score:,}" if best_score else "",
            0,
            0,
            font_size=13,
            anchor_x="center",
            color=palette.XP,
        )

    def on_show_view(self) -> None:
        self.elapsed = 0.0
        self.camera.match_window()
        self.window.set_mouse_visible(True)

    def on_resize(self, width: int, height: int) -> None:
        self.camera.match_window()

    def update_content(self, dt: float) -> None:
        self.elapsed += dt
        for s, (a, v, ph) in zip(self.drifters, self._motion, strict=True):
            wobble = math.sin(self.elapsed * 1.3 + ph) * 0.6
            s.center_x = (s.center_x + math.cos(a + wobble) * v * dt) % ARENA_W
            s.center_y = (s.center_y + math.sin(a + wobble) * v * dt) % ARENA_H
        demo = self.app.demo_badge
        self.prompt.set(f"{demo}  -  starting..." if demo else "PRESS ENTER OR CLICK TO START")
        if demo and self.elapsed >= DEMO_START_S:
            self.app.new_run()

    def draw_content(self) -> None:
        w, h = self.window.width, self.window.height
        t = self.elapsed
        self.camera.position = (
            ARENA_W / 2 + math.cos(t * 0.07) * 600,
            ARENA_H / 2 + math.sin(t * 0.05) * 400,
        )
        self.camera.use()
        self.floor.draw()
        self.drifters.draw()
        self.window.default_camera.use()
        arcade.draw_lbwh_rectangle_filled(0, 0, w, h, arcade.types.Color(6, 8, 16, 150))
        self.name.move(w / 2, h * 0.62)
        self.name.draw()
        self.tagline.move(w / 2, h * 0.62 - 50)
        self.tagline.draw()
        pulse = 0.6 + 0.4 * abs(math.sin(t * 2.2))
        c = palette.TEXT
        self.prompt.text.color = arcade.types.Color(c.r, c.g, c.b, int(255 * pulse))
        self.prompt.move(w / 2, h * 0.36)
        self.prompt.draw()
        self.best.move(w / 2, h * 0.36 - 36)
        self.best.draw()
        self.controls.move(w / 2, 80)
        self.controls.draw()

    def handle_key(self, symbol: int, modifiers: int) -> bool:
        if symbol == K.O:
            self.app.show_options()
            return True
        if symbol in (K.ENTER, K.RETURN, K.NUM_ENTER, K.SPACE):
            self.app.new_run()
            return True
        return False

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.app.new_run()
