"""The options screen (O on the title and pause screens): volumes, display, difficulty, gamepad and key
bindings. It draws ``OptionsMenu``'s rows and forwards keys; Esc returns to the screen it came from (the
arena stays paused under it: a View of its own, so the arena does not update)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
from arcade import key as K
from arcade.types import Color

from game.options_menu import OptionsMenu
from game.render import palette
from game.render.widgets import Label, ShadowLabel, draw_panel
from game.views.base import AppView

if TYPE_CHECKING:
    from game.ports import OptionsHost

ROW_H = 30.0
PANEL_W = 720.0


class OptionsView(AppView):
    app: OptionsHost

    def __init__(self, app: OptionsHost, back: arcade.View | None) -> None:
        super().__init__(app)
        self.back = back
        self.menu = OptionsMenu(app)
        self.title = ShadowLabel(
            "OPTIONS",
            0,
            0,
            font_size=30,
            anchor_x="center",
            font_name=palette.FONT_DISPLAY,
            color=palette.ACCENT,
        )
        self.names = [Label(r.label, font_size=14) for r in self.menu.rows]
        self.values = [Label("", font_size=14, anchor_x="right", bold=True) for _ in self.menu.rows]
        self.foot = Label("", font_size=12, anchor_x="center", color=palette.TEXT_DIM)
        self.status = Label("", font_size=13, anchor_x="center", color=palette.XP)

    def on_show_view(self) -> None:
        self.window.set_mouse_visible(True)

    def draw_content(self) -> None:
        from game.views.arena import ArenaView

        w, h = self.window.width, self.window.height
        if isinstance(self.back, ArenaView):
            self.back.draw_world(with_hud=False)
        arcade.draw_lbwh_rectangle_filled(0, 0, w, h, Color(6, 8, 16, 200))
        rows = self.menu.rows
        panel_h = ROW_H * len(rows) + 130
        left, bottom = (w - PANEL_W) / 2, max(10.0, (h - panel_h) / 2)
        draw_panel(left, bottom, PANEL_W, panel_h)
        top = bottom + panel_h
        self.title.move(w / 2, top - 46)
        self.title.draw()
        y0 = top - 90
        for i, row in enumerate(rows):
            y = y0 - i * ROW_H
            if i == self.menu.selected:
                arcade.draw_lbwh_rectangle_filled(
                    left + 12, y - 8, PANEL_W - 24, ROW_H - 2, Color(60, 70, 110, 200)
                )
            waiting = self.menu.waiting_for is not None and row.rebind == self.menu.waiting_for
            self.names[i].move(left + 30, y)
            self.names[i].draw()
            self.values[i].set("press a key..." if waiting else row.value())
            self.values[i].set_color(palette.XP if waiting else palette.ACCENT)
            self.values[i].move(left + PANEL_W - 30, y)
            self.values[i].draw()
        self.status.set(self.menu.message)
        self.status.move(w / 2, bottom + 44)
        self.status.draw()
        self.foot.set("Up/Down choose    Left/Right change    Enter toggle / rebind    Esc back")
        self.foot.move(w / 2, bottom + 18)
        self.foot.draw()

    def handle_key(self, symbol: int, modifiers: int) -> bool:
        menu = self.menu
        if menu.waiting_for is not None:  # every key is the answer (Esc cancels)
            if symbol == K.ESCAPE:
                menu.cancel_rebind()
            else:
                menu.key_for_rebind(symbol)
            return True
        if symbol == K.ESCAPE or symbol == K.BACKSPACE:
            self.leave()
        elif symbol == K.UP:
            menu.move(-1)
        elif symbol == K.DOWN:
            menu.move(+1)
        elif symbol == K.LEFT:
            menu.adjust(-1)
        elif symbol == K.RIGHT:
            menu.adjust(+1)
        elif symbol in (K.ENTER, K.RETURN, K.NUM_ENTER, K.SPACE):
            menu.activate()
        else:
            return False
        return True

    def leave(self) -> None:
        if self.back is not None:
            self.window.show_view(self.back)
        else:
            self.app.show_title()
