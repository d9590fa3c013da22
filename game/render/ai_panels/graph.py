"""The director panel's intensity graph: the last two minutes of intensity as a line over a soft fill, with
the pacing state shaded behind it (one colour per state), guide lines at the pacing thresholds, and the
legend. The geometry is rebuilt only when a new sample arrives (4 per second), then drawn as one batch."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from arcade.shape_list import (
    Shape,
    create_line_strip,
    create_lines,
    create_triangles_filled_with_colors,
)
from arcade.types import Color

from game.director.pacing import PacingState
from game.director.read import HISTORY_S, IntensitySample
from game.director.tuning import TUNING
from game.render.ai_panels.draw import CachedShapes, Rect, rects_shape

PACING_COLOURS: dict[PacingState, Color] = {
    PacingState.BUILD_UP: Color(70, 130, 255),
    PacingState.SUSTAIN_PEAK: Color(255, 70, 90),
    PacingState.PEAK_FADE: Color(255, 170, 50),
    PacingState.RELAX: Color(70, 210, 140),
}
PACING_NAMES: dict[PacingState, str] = {
    PacingState.BUILD_UP: "build up",
    PacingState.SUSTAIN_PEAK: "sustain peak",
    PacingState.PEAK_FADE: "peak fade",
    PacingState.RELAX: "relax",
}
BAND_ALPHA = 70
LINE = Color(255, 236, 150)
GUIDE = Color(255, 255, 255, 55)
BACK = Color(8, 10, 18, 230)


def window_start(history: Sequence[IntensitySample]) -> float:
    """The graph spans [start, start + HISTORY_S]: it fills from the left, then scrolls."""
    return max(0.0, history[-1].time - HISTORY_S) if history else 0.0


def pacing_segments(history: Sequence[IntensitySample]) -> list[tuple[float, float, PacingState]]:
    """(start time, end time, state) runs of the same pacing state, oldest first."""
    out: list[tuple[float, float, PacingState]] = []
    for i, s in enumerate(history):
        end = history[i + 1].time if i + 1 < len(history) else s.time
        if out and out[-1][2] is s.pacing:
            out[-1] = (out[-1][0], end, s.pacing)
        else:
            out.append((s.time, end, s.pacing))
    return out


class IntensityGraph:
    def __init__(self) -> None:
        self.shapes = CachedShapes()

    def draw(
        self, left: float, bottom: float, width: float, height: float, history: Sequence[IntensitySample]
    ) -> None:
        last = history[-1] if history else None
        key = (left, bottom, width, height, len(history), last)
        self.shapes.draw(key, lambda: self._build(left, bottom, width, height, history))

    @staticmethod
    def _build(
        left: float, bottom: float, width: float, height: float, history: Sequence[IntensitySample]
    ) -> list[Shape]:
        t0 = window_start(history)

        def x_of(t: float) -> float:
            return left + min(1.0, max(0.0, (t - t0) / HISTORY_S)) * width

        def y_of(v: float) -> float:
            return bottom + min(1.0, max(0.0, v)) * (height - 2) + 1

        rects: list[Rect] = [(left, bottom, width, height, BACK)]
        for start, end, state in pacing_segments(history):
            c = PACING_COLOURS[state]
            x0, x1 = x_of(start), x_of(end)
            rects.append((x0, bottom, max(1.0, x1 - x0), height, Color(c.r, c.g, c.b, BAND_ALPHA)))
        shapes: list[Shape] = []
        back = rects_shape(rects)
        if back is not None:
            shapes.append(back)
        guides: list[tuple[float, float]] = []
        for level in (TUNING.pacing.peak_intensity, TUNING.pacing.fade_exit):
            guides += [(left, y_of(level)), (left + width, y_of(level))]
        for k in range(1, 4):  # every 30 s
            gx = left + width * k / 4
            guides += [(gx, bottom), (gx, bottom + height)]
        shapes.append(create_lines(guides, GUIDE))
        points = [(x_of(s.time), y_of(s.intensity)) for s in history]
        if len(points) >= 2:
            tri: list[tuple[float, float]] = []
            cols: list[Color] = []
            top_c, base_c = Color(255, 236, 150, 120), Color(255, 236, 150, 8)
            for (xa, ya), (xb, yb) in itertools.pairwise(points):
                tri += [(xa, bottom), (xb, bottom), (xb, yb), (xa, bottom), (xb, yb), (xa, ya)]
                cols += [base_c, base_c, top_c, base_c, top_c, top_c]
            shapes.append(create_triangles_filled_with_colors(tri, cols))
            shapes.append(create_line_strip(points, LINE, 2))
        return shapes
