"""Small drawing helpers: bars, panels and a text cache that re-lays-out text only when it changes.

A screen that draws many rectangles and labels every frame (the HUD) batches them: ``RectBatch`` queues
rectangles and draws them as one sprite list, ``LayeredText`` holds labels in one pyglet batch (shadows in a
group under the text), so the frame costs two draw calls instead of one per rectangle and per label. On
software GL every separate immediate-mode draw also makes the rasteriser flush, which is what made the HUD
cost as much as a crowd of sprites.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import arcade
import PIL.Image
import pyglet
from arcade import BasicSprite, Texture
from arcade.types import Color

from game.render import palette


@cache
def white_texture() -> Texture:
    from game.render.textures import _texture

    return _texture(PIL.Image.new("RGBA", (8, 8), (255, 255, 255, 255)), "arena-white-8")


class RectBatch:
    """Axis-aligned filled rectangles queued during a frame and drawn in order as one sprite list."""

    def __init__(self, capacity: int = 96) -> None:
        self.list: arcade.SpriteList[BasicSprite] = arcade.SpriteList(capacity=capacity)
        self.sprites: list[BasicSprite] = []
        self._queued: list[tuple[float, float, float, float, Color]] = []

    def begin(self) -> None:
        self._queued.clear()

    def add(self, left: float, bottom: float, width: float, height: float, color: Color) -> None:
        if width > 0 and height > 0 and (len(color) < 4 or color[3] > 0):
            self._queued.append((left, bottom, width, height, color))

    def outline(
        self, left: float, bottom: float, width: float, height: float, color: Color, border: float
    ) -> None:
        """The outline ``arcade.draw_lbwh_rectangle_outline`` draws: ``border`` wide, centred on the edge."""
        hb = border / 2
        ol, ob, ow, oh = left - hb, bottom - hb, width + border, height + border
        self.add(ol, ob + oh - border, ow, border, color)  # top
        self.add(ol, ob, ow, border, color)  # bottom
        self.add(ol, ob + border, border, oh - 2 * border, color)  # left
        self.add(ol + ow - border, ob + border, border, oh - 2 * border, color)  # right

    def draw(self) -> None:
        queued = self._queued
        while len(self.sprites) < len(queued):
            s = BasicSprite(white_texture())
            self.sprites.append(s)
            self.list.append(s)
        for s, (left, bottom, width, height, color) in zip(self.sprites, queued, strict=False):
            s.visible = True
            s.position = (left + width / 2, bottom + height / 2)
            s.size = (width, height)
            s.color = color
        for s in self.sprites[len(queued) :]:
            s.visible = False
        if queued:
            self.list.draw()


class LayeredText:
    """Labels drawn in one pyglet batch in two layers, shadows under the text (a plain pyglet batch does not
    keep that order once labels are re-laid-out). A label created with ``layer=`` is shown only in the
    frames that call its ``draw()`` between ``begin()`` and ``draw()`` here, so a screen keeps its "draw what
    shows this frame" code while the batch makes it one draw call."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.shadow_group = pyglet.graphics.Group(order=0)
        self.text_group = pyglet.graphics.Group(order=1)
        self.labels: list[Label] = []

    def begin(self) -> None:
        for label in self.labels:
            label.drawn = False

    def draw(self) -> None:
        for label in self.labels:
            want = label.drawn and bool(label.value)
            if label.text.visible != want:
                label.text.visible = want
        self.batch.draw()


def draw_bar(
    left: float,
    bottom: float,
    width: float,
    height: float,
    fraction: float,
    fill: Color,
    back: Color,
    *,
    rects: RectBatch,
    edge: Color | None = None,
) -> None:
    """Queue a horizontal progress bar in ``rects``; ``fraction`` is clamped to [0, 1]."""
    f = min(1.0, max(0.0, fraction))
    gloss = Color(255, 255, 255, 38)  # a lighter strip on top reads as a glossy bar
    rects.add(left, bottom, width, height, back)
    if f > 0.0:
        rects.add(left, bottom, width * f, height, fill)
        rects.add(left, bottom + height * 0.62, width * f, height * 0.30, gloss)
    if edge is not None:
        rects.outline(left, bottom, width, height, edge, 2)


def draw_panel(left: float, bottom: float, width: float, height: float, *, edge: Color | None = None) -> None:
    arcade.draw_lbwh_rectangle_filled(left, bottom, width, height, palette.PANEL)
    arcade.draw_lbwh_rectangle_outline(left, bottom, width, height, edge or palette.PANEL_EDGE, 2)


class Label:
    """An ``arcade.Text`` that is rebuilt by pyglet only when its string (or colour) really changes. With
    ``layer`` it belongs to that ``LayeredText`` (``draw()`` marks it shown this frame; the layer draws
    it)."""

    def __init__(
        self,
        text: str = "",
        x: float = 0,
        y: float = 0,
        *,
        layer: LayeredText | None = None,
        shadow: bool = False,
        **kw: Any,
    ) -> None:
        kw.setdefault("font_name", palette.FONT)
        kw.setdefault("color", palette.TEXT)
        self.owner = layer
        self.drawn = False
        if layer is not None:
            kw["batch"] = layer.batch
            kw["group"] = layer.shadow_group if shadow else layer.text_group
        self.text = arcade.Text(text, x, y, **kw)
        self._value = text
        if layer is not None:
            self.text.visible = False
            layer.labels.append(self)

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
        if self.owner is not None:
            self.drawn = True
        elif self._value:
            self.text.draw()


class ShadowLabel(Label):
    """A label with a dark drop shadow: readable over a busy arena."""

    def __init__(
        self,
        text: str = "",
        x: float = 0,
        y: float = 0,
        offset: float = 2,
        *,
        layer: LayeredText | None = None,
        **kw: Any,
    ) -> None:
        shadow_kw = dict(kw)
        shadow_kw["color"] = Color(0, 0, 0, 200)
        self.shadow = Label(text, x + offset, y - offset, layer=layer, shadow=True, **shadow_kw)
        self.offset = offset
        super().__init__(text, x, y, layer=layer, **kw)

    def set(self, value: str) -> None:
        self.shadow.set(value)
        super().set(value)

    def move(self, x: float, y: float) -> None:
        self.shadow.move(x + self.offset, y - self.offset)
        super().move(x, y)

    def draw(self) -> None:
        self.shadow.draw()
        super().draw()
