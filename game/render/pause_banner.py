"""The arena's pause lines: PAUSED with its keys, "PAUSED - <panel> open" while a modal panel holds the arena,
and an MCP agent's frozen or stepping clock."""

from __future__ import annotations

import arcade
from arcade.types import Color

from game.render import palette
from game.render.widgets import ShadowLabel

HINT = "{keys} / Esc  resume      O  options      F5  restart      F1  help"


class PauseBanner:
    def __init__(self) -> None:
        self.held = ShadowLabel("", 0, 0, font_size=13, anchor_x="center", bold=True, color=palette.ACCENT)
        self.title = ShadowLabel(
            "PAUSED",
            0,
            0,
            offset=3,
            font_size=44,
            anchor_x="center",
            font_name=palette.FONT_DISPLAY,
            color=palette.ACCENT,
        )
        self.hint = ShadowLabel(
            HINT.format(keys="P"), 0, 0, font_size=13, anchor_x="center", color=palette.TEXT_DIM
        )

    def set_keys(self, keys: str) -> None:
        """The hint names the pause key(s) the player bound."""
        self.hint.set(HINT.format(keys=keys))

    def draw(self, w: float, h: float, *, frozen: str, held_by: str, paused: bool) -> None:
        """``frozen``: an MCP agent's clock line ("" when none); ``held_by``: the modal panel holding it."""
        line = frozen or (f"PAUSED  -  {held_by} open" if held_by and not paused else "")
        if line:
            self.held.set(line)
            self.held.move(w / 2, max(180.0, h * 0.28))  # above the toasts, below the console
            self.held.draw()
        if paused:
            arcade.draw_lbwh_rectangle_filled(0, 0, w, h, Color(0, 0, 0, 140))
            self.title.move(w / 2, h / 2 + 10)
            self.title.draw()
            self.hint.move(w / 2, h / 2 - 30)
            self.hint.draw()
