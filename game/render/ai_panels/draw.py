"""Drawing helpers for the AI panels: text in one pyglet batch per panel, and geometry kept in a
``ShapeElementList`` that is rebuilt only when what it shows changes, so a panel costs a handful of draw
calls per frame however many bars, bands and points it has."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import arcade
import pyglet
from arcade.shape_list import Shape, ShapeElementList, create_rectangles_filled_with_colors
from arcade.types import Color

from game.render.widgets import Label

Rect = tuple[float, float, float, float, Color]  # left, bottom, width, height, colour


class TextBatch:
    """Labels that draw together: ``label(...)`` once, ``set``/``move`` them, ``draw()`` once per frame."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.labels: list[Label] = []

    def label(self, text: str = "", **kw: Any) -> Label:
        lbl = Label(text, 0, 0, batch=self.batch, **kw)
        self.labels.append(lbl)
        return lbl

    def draw(self) -> None:
        self.batch.draw()

    def texts(self) -> list[str]:
        """Every non-empty string the batch shows (what a test or a screen reader would read)."""
        return [lbl.value for lbl in self.labels if lbl.value]


class CachedShapes:
    """One ``ShapeElementList``, rebuilt by ``build`` only when ``key`` changes; drawn every frame."""

    def __init__(self) -> None:
        self._key: Hashable = object()
        self._list: ShapeElementList[Shape] | None = None
        self.rebuilds = 0

    def draw(self, key: Hashable, build: Callable[[], Sequence[Shape]]) -> None:
        if self._list is None or key != self._key:
            shapes: ShapeElementList[Shape] = ShapeElementList()
            for shape in build():
                shapes.append(shape)
            self._list = shapes
            self._key = key
            self.rebuilds += 1
        self._list.draw()


def rects_shape(rects: Sequence[Rect]) -> Shape | None:
    """Many filled rectangles as one shape (None for none)."""
    if not rects:
        return None
    points: list[tuple[float, float]] = []
    colours: list[Color] = []
    for left, bottom, width, height, colour in rects:
        points += [
            (left, bottom),
            (left + width, bottom),
            (left + width, bottom + height),
            (left, bottom + height),
        ]
        colours += [colour] * 4
    return create_rectangles_filled_with_colors(points, colours)


def bar_rects(
    left: float, bottom: float, width: float, height: float, fraction: float, fill: Color, back: Color
) -> list[Rect]:
    """A progress bar (back, fill, a glossy strip) as rectangles for ``rects_shape``."""
    f = min(1.0, max(0.0, fraction))
    out: list[Rect] = [(left, bottom, width, height, back)]
    if f > 0.0:
        out.append((left, bottom, width * f, height, fill))
        out.append((left, bottom + height * 0.6, width * f, height * 0.3, Color(255, 255, 255, 40)))
    return out


def panel_rects(
    left: float, bottom: float, width: float, height: float, fill: Color, edge: Color
) -> list[Rect]:
    """A filled panel with a 2 px edge, as rectangles."""
    e = 2.0
    return [
        (left, bottom, width, height, fill),
        (left, bottom, width, e, edge),
        (left, bottom + height - e, width, e, edge),
        (left, bottom, e, height, edge),
        (left + width - e, bottom, e, height, edge),
    ]


def pulse_dot(x: float, y: float, radius: float, colour: Color, t: float) -> None:
    """A small pulsing dot (the "request in flight" indicator)."""
    a = int(140 + 115 * (0.5 + 0.5 * math.sin(t * 8.0)))
    arcade.draw_circle_filled(x, y, radius, Color(colour[0], colour[1], colour[2], a))
