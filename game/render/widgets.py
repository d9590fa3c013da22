"""Small drawing helpers: bars, panels and a text cache that re-lays-out text only when it changes."""

from __future__ import annotations

from typing import Any

import arcade
from arcade.types import Color

from game.render import palette


def draw_bar(
    left: float,
    bottom: float,
    width: float,
    height: float,
    fraction: float,
    fill: Color,
    back: Color,
    *,
    edge: Color | None = None,
) -> None:
    """A horizontal progress bar; ``fraction`` is clamped to [0, 1]."""
    f = min(1.0, max(0.0, fraction))
    arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, back)
    if f > 0.0:
        arcade.draw_lbwh_rectangle_filled(left, bottom, width * f, height, fill)
        # a lighter strip on top reads as a glossy bar
        arcade.draw_lbwh_rectangle_filled(
            left, bottom + height * 0.62, width * f, height * 0.30, Color(255, 255, 255, 38)
        )
    if edge is not None:
        arcade.draw_lbwh_rectangle_outline(left, bottom, width, height, edge, 2)


def draw_panel(left: float, bottom: float, width: float, height: float, *, edge: Color | None = None) -> None:
    arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, palette.PANEL)
    arcade.draw_lbwh_rectangle_outline(left, bottom, width, height, edge or palette.PANEL_EDGE, 2)


class Label:
    """An ``arcade.Text`` that is rebuilt by pyglet only when its string (or colour) really changes."""

    def __init__(self, text: str = "", x: float = 0, y: float = 0, **kw: Any) -> None:
        kw.setdefault("font_name", palette.FONT)
        kw.setdefault("color", palette.TEXT)
        self.text = arcade.Text(text, x, y, **kw)
        self._value = text

    def set(self, value: str) -> None:
        if value != self._value:
            self._value = value
            self.text.text = value

    def set_color(self, color: Color) -> None:
        if tuple(self.text.color) != tuple(color):
            self.text.color = color

    def move(self, x: float, y: float) -> None:
        if self.text.x != x or self.text.y != y:
            self.text.position = (x, y)

    @property
    def value(self) -> str:
        return self._value

    def draw(self) -> None:
        if self._value:
            self.text.draw()


class ShadowLabel(Label):
    """A label with a dark drop shadow: readable over a busy arena."""

    def __init__(self, text: str = "", x: float = 0, y: float = 0, offset: float = 2, **kw: Any) -> None:
        shadow_kw = dict(kw)
        shadow_kw["color"] = Color(0, 0, 0, 200)
        self.shadow = Label(text, x + offset, y - offset, **shadow_kw)
        self.offset = offset
        super().__init__(text, x, y, **kw)

    def set(self, value: str) -> None:
        self.shadow.set(value)
        super().set(value)

    def move(self, x: float, y: float) -> None:
        self.shadow.move(x + self.offset, y - self.offset)
        super().move(x, y)

    def draw(self) -> None:
        self.shadow.draw()
        super().draw()
