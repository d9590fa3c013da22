"""The arena floor: checkered plates, a grid, scattered studs and a glowing border, built once into two
``ShapeElementList``s (one draw call each per frame).

The grid is drawn as 1 px GL lines (a major line is two adjacent ones), not as thin quads: on software GL
(llvmpipe) a long 1 px wide quad costs far more to rasterise than the line it looks like (measured in the
render benchmark: the grid went from about a full-screen fill to a few percent of the frame).

The floor colour itself is the clear colour of the screens that show the arena (``palette.FLOOR``, see
``AppView.clear_color``), so no full-arena quad is filled every frame (on software GL each full-screen fill
costs as much as a thousand sprites); dark strips outside the rim keep the space past the arena dark. At low
graphics quality only the grid and the rim are drawn (``draw(detailed=False)``)."""

from __future__ import annotations

import numpy as np
from arcade.shape_list import (
    Shape,
    ShapeElementList,
    create_lines_with_colors,
    create_rectangles_filled_with_colors,
)
from arcade.types import Color

from game.render import palette

Rect = tuple[float, float, float, float]  # left, bottom, right, top


def _quads(rects: list[Rect], colors: list[Color]) -> Shape:
    points: list[tuple[float, float]] = []
    cols: list[Color] = []
    for (left, bottom, right, top), c in zip(rects, colors, strict=True):
        points += [(left, bottom), (right, bottom), (right, top), (left, top)]
        cols += [c, c, c, c]
    return create_rectangles_filled_with_colors(points, cols)


def _gradient(
    rect: Rect, inner: Color, outer: Color, side: str
) -> tuple[list[tuple[float, float]], list[Color]]:
    left, bottom, right, top = rect
    pts = [(left, bottom), (right, bottom), (right, top), (left, top)]
    # which vertices touch the arena (inner colour) depends on the side of the border strip
    inner_at = {"left": (1, 2), "right": (0, 3), "bottom": (2, 3), "top": (0, 1)}[side]
    return pts, [inner if i in inner_at else outer for i in range(4)]


class Floor:
    PLATE = 320.0
    CELL = 64.0
    BORDER = 6.0
    GLOW = 70.0

    def __init__(self, width: float, height: float, seed: int = 7) -> None:
        self.width, self.height = width, height
        self.shapes: ShapeElementList[Shape] = ShapeElementList()  # grid, rim, glow, outside
        self.detail: ShapeElementList[Shape] = ShapeElementList()  # plates, studs, scuffs
        self._build(seed)

    def _build(self, seed: int) -> None:
        w, h = self.width, self.height
        rects: list[Rect] = []
        colors: list[Color] = []
        nx, ny = int(np.ceil(w / self.PLATE)), int(np.ceil(h / self.PLATE))
        for i in range(nx):
            for j in range(ny):
                if (i + j) % 2:
                    x0, y0 = i * self.PLATE, j * self.PLATE
                    rects.append((x0, y0, min(w, x0 + self.PLATE), min(h, y0 + self.PLATE)))
                    colors.append(palette.FLOOR_ALT)
        line_pts: list[tuple[float, float]] = []
        line_colors: list[Color] = []
        x = self.CELL
        while x < w:
            major = x % self.PLATE == 0
            for off in (-0.5, 0.5) if major else (0.0,):
                line_pts += [(x + off, 0.0), (x + off, h)]
                line_colors += [palette.GRID_MAJOR if major else palette.GRID] * 2
            x += self.CELL
        y = self.CELL
        while y < h:
            major = y % self.PLATE == 0
            for off in (-0.5, 0.5) if major else (0.0,):
                line_pts += [(0.0, y + off), (w, y + off)]
                line_colors += [palette.GRID_MAJOR if major else palette.GRID] * 2
            y += self.CELL
        # studs where major lines cross, and a sprinkle of floor scuffs to read motion against
        for i in range(1, nx):
            for j in range(1, ny):
                cx, cy = i * self.PLATE, j * self.PLATE
                rects.append((cx - 5, cy - 5, cx + 5, cy + 5))
                colors.append(Color(70, 80, 112))
        rng = np.random.default_rng(seed)
        for _ in range(420):
            cx, cy = float(rng.uniform(10, w - 10)), float(rng.uniform(10, h - 10))
            s = float(rng.uniform(2, 5))
            rects.append((cx - s, cy - s, cx + s, cy + s))
            colors.append(Color(36, 41, 58) if rng.random() < 0.7 else Color(44, 50, 70))
        self.detail.append(_quads(rects, colors))
        self.shapes.append(create_lines_with_colors(line_pts, line_colors))
        # outside the arena: the background colour (the screen is cleared to the floor colour)
        b, g, far = self.BORDER, self.GLOW, 4000.0
        outside = [
            (-far, -far, w + far, 0.0),
            (-far, h, w + far, h + far),
            (-far, 0.0, 0.0, h),
            (w, 0.0, w + far, h),
        ]
        self.shapes.append(_quads(outside, [palette.BACKGROUND] * 4))
        # the border: a solid rim plus an outward glow
        rim = [(-b, -b, w + b, 0.0), (-b, h, w + b, h + b), (-b, 0.0, 0.0, h), (w, 0.0, w + b, h)]
        self.shapes.append(_quads(rim, [palette.BORDER] * 4))
        inner = Color(palette.BORDER.r, palette.BORDER.g, palette.BORDER.b, 90)
        outer = Color(palette.BORDER.r, palette.BORDER.g, palette.BORDER.b, 0)
        pts: list[tuple[float, float]] = []
        cols: list[Color] = []
        for rect, side in (
            ((-b - g, -b - g, w + b + g, -b), "bottom"),
            ((-b - g, h + b, w + b + g, h + b + g), "top"),
            ((-b - g, -b, -b, h + b), "left"),
            ((w + b, -b, w + b + g, h + b), "right"),
        ):
            p, c = _gradient(rect, inner, outer, side)
            pts += p
            cols += c
        self.shapes.append(create_rectangles_filled_with_colors(pts, cols))

    def draw(self, detailed: bool = True) -> None:
        if detailed:
            self.detail.draw()
        self.shapes.draw()
