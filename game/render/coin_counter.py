"""The coins line under the score (top right) while a run is on: what the Merchant will take between
waves. A non-modal overlay, so it draws above the arena and the upgrade pick and never takes keys."""

from __future__ import annotations

from collections.abc import Callable

import arcade
from arcade.types import Color

from game.render.widgets import ShadowLabel

COIN = Color(255, 214, 80)
BACKING = Color(10, 12, 20, 190)  # like the HUD's backing boxes
MARGIN = 20.0


class CoinCounter:
    def __init__(self, balance: Callable[[], int | None]) -> None:
        self.balance = balance  # None: nothing to show (no run, or the game-over screen)
        self.visible = True
        self.label = ShadowLabel("", 0, 0, font_size=13, anchor_x="right", bold=True, color=COIN)

    def draw(self, width: float, height: float) -> None:
        coins = self.balance()
        if coins is None:
            return
        self.label.set(f"{coins:,} coins")
        text_w = float(self.label.text.content_width)
        right, base = width - MARGIN, height - MARGIN - 72
        arcade.draw_lbwh_rectangle_filled(right - text_w - 34, base - 6, text_w + 44, 26, BACKING)
        self.label.move(right - 14, base)
        self.label.draw()
        arcade.draw_circle_filled(right - 4, base + 6, 5, COIN)
