"""F10: the live director panel, DOCKED on the right edge of the window: while it is open the arena, the HUD,
the boss bar, the upgrade cards and the toasts lay out in the play area left of it (``GameApp.play_width``),
so the panel never covers play. It shows what the director sees and decides, refreshed every frame from
``panel_view(director, world)`` (``director_view.py``), top to bottom:

- the title and mode;
- the intensity graph with the pacing state behind it;
- the knob bars (one per row of ``game/director/knobs.py``), credits, the enemy mix;
- the last plan: pressure, event, reason, clamp notes, announcer line, and the last error (cleared by the
  director when the mode changes);
- STATUS: key/value rows from ``status_rows(panel)`` (backend, latency, trace, decision counts, next
  decision, the LLM prompt size, the guard's overrides, the reflexes in force and what the act stage
  applies, the spawner's limits, the player's skill estimate...). To show a new figure, add one row there.

On a short window the graph shrinks first; rows that still do not fit are left out from the bottom.
Text lives in one batch and bars in one cached shape list, so the panel costs a few draw calls per frame.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable

from arcade.types import Color

from game.director.director import STATIC
from game.director.knobs import KNOBS, MIX_WEIGHT
from game.director.read import HISTORY_S
from game.render import palette
from game.render.ai_panels.director_view import DirectorPanel
from game.render.ai_panels.draw import (
    CachedShapes,
    Rect,
    TextBatch,
    bar_rects,
    panel_rects,
    pulse_dot,
    rects_shape,
)
from game.render.ai_panels.graph import PACING_COLOURS, PACING_NAMES, IntensityGraph, window_start
from game.render.widgets import Label

PANEL_W = 340.0  # the dock's width on a window at least WIDE_WINDOW wide
NARROW_W = 300.0
WIDE_WINDOW = 1200.0
PAD = 14.0
GRAPH_H = 110.0
GRAPH_MIN_H = 40.0
KNOB_ROW_H = 18.0
ROW_H = 16.0
MAX_STATUS_ROWS = 13
VALUE_X = 74.0  # the STATUS value column, from the panel's inner left edge
CHAR_W = 6.8  # px per character of the value column's font (narrow, 9 pt)
VALUE_CHARS = 29  # characters of the value column on the narrow dock
# everything but the graph (on short windows the graph gives way first)
# bar colours of the knobs in game/director/knobs.py (a knob not listed gets the XP colour)
KNOB_COLOURS = {"pressure": palette.WARN, "elite_chance": palette.ELITE_TINT, "pickup_rate": palette.HEAL}
MAX_MIX_ROWS = 6
BAR_BACK = Color(40, 46, 70, 220)
PANEL_FILL = Color(14, 16, 26, 240)
PRESSURE_COLOURS = {"ease_off": palette.GOOD, "hold": palette.XP, "raise": palette.WARN, "spike": palette.HP}


def clock(seconds: float) -> str:
    return f"{seconds:4.1f}s"


def clock_mmss(seconds: float) -> str:
    s = max(0, round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def fraction(value: float, lo_hi: tuple[float, float]) -> float:
    lo, hi = lo_hi
    return (value - lo) / (hi - lo) if hi > lo else 0.0


def dock_width(window_width: float) -> float:
    return PANEL_W if window_width >= WIDE_WINDOW else NARROW_W


def value_chars(dock_w: float) -> int:
    """Characters that fit the STATUS value column of a dock ``dock_w`` wide (at ~6.8 px a character)."""
    return max(16, int((dock_w - 2 * PAD - VALUE_X) / CHAR_W))


def status_rows(panel: DirectorPanel, chars: int = VALUE_CHARS) -> list[tuple[str, str]]:
    """The STATUS section: (name, value) rows, ending with the skill estimate and the saturated knobs."""
    lat = f"{panel.latency_s * 1000:.1f} ms" if panel.latency_s is not None else "-"
    rows = [("backend", f"{panel.backend or '-'}   {lat}"), ("trace", panel.trace_id or "-")]
    counts = f"{panel.accepted} ok  {panel.rejected} rejected  {panel.failed} failed"
    rows.append(("plans", counts))
    extra = f"{panel.superseded} superseded  {panel.overridden} overridden"
    rows.append(("", extra))
    if panel.mode == STATIC:
        rows.append(("next", "static waves: no decisions (F6)"))
    elif panel.pending:
        rows.append(("next", f"thinking ({panel.backend or panel.mode}); {panel.next_decision_in:.1f}s"))
    else:
        rows.append(("next", f"decision in {panel.next_decision_in:.1f}s"))
    if panel.prompt and panel.mode != STATIC:
        rows.append(("prompt", panel.prompt.removeprefix("prompt ")))
    # director (#11): the reflexes in force and what the act stage applies, the spawner's limits, the online
    # skill estimate and what it rests on; knobs at a bound. "grace: hits x0.25  hits x0.17  speed x0.91
    # drops x1.00" and "crowd 34/76, near view 5/floor 6 prey, HOLD" are wider than the value column: each
    # wraps over two rows
    spawns = f"30s: {panel.spawns}" if panel.spawns else ""  # why enemies appeared, by cause
    for label, value in (("acting", panel.acting), ("limits", panel.limits), ("spawns", spawns)):
        for i, part in enumerate(wrap_value(value, 2, chars) if value else ()):
            rows.append((label if i == 0 else "", part))
    rows.append(("skill", panel.skill_text()))
    rows.append(("", panel.signals_text()))
    room = max(1, MAX_STATUS_ROWS - len(rows))
    for i, part in enumerate(wrap_value(panel.saturation_text(), room, chars)):
        rows.append(("saturated" if i == 0 else "", part))
    return rows[:MAX_STATUS_ROWS]


def wrap_value(text: str, max_rows: int, width: int = VALUE_CHARS) -> list[str]:
    """A long value over at most ``max_rows`` rows of the value column (the last one ends in "..." if the
    text did not fit), so nothing runs off the panel's right edge."""
    parts = textwrap.wrap(text, width) or [""]
    if len(parts) > max_rows:
        parts = parts[:max_rows]
        parts[-1] = parts[-1][: width - 3].rstrip(" ,") + "..."
    return parts


class DirectorPanelOverlay:
    """The F10 panel, docked right; ``source`` returns the current run's panel data (None when no run)."""

    modal = False  # a live view: the game runs while it is open

    def __init__(self, source: Callable[[], DirectorPanel | None]) -> None:
        self.source = source
        self.visible = False
        self.last: DirectorPanel | None = None
        self.text = TextBatch()
        self.shapes = CachedShapes()
        self.graph = IntensityGraph()
        self.rect = (0.0, 0.0, 0.0, 0.0)  # where it was last drawn: left, bottom, width, height
        t = self.text
        small, narrow = 10, palette.FONT_NARROW
        self.title = t.label("DIRECTOR", font_size=15, font_name=palette.FONT_DISPLAY, color=palette.ACCENT)
        self.mode = t.label("", font_size=12, bold=True, anchor_x="right", color=palette.GOOD)
        self.intensity = t.label("", font_size=12, bold=True)
        self.pacing = t.label("", font_size=11, anchor_x="right")
        self.axis = [
            t.label("", font_size=9, anchor_x=anchor, color=palette.TEXT_DIM)
            for anchor in ("left", "center", "right")
        ]
        self.legend = [
            t.label(PACING_NAMES[s], font_size=small, font_name=narrow, color=palette.TEXT_DIM)
            for s in PACING_COLOURS
        ]
        self.knobs_head = t.label("KNOBS", font_size=10, bold=True, color=palette.XP)
        self.knob_names = [t.label(k.label, font_size=small, font_name=narrow) for k in KNOBS]
        self.knob_values = [t.label("", font_size=small, anchor_x="right") for _ in KNOBS]
        self.credits = t.label("", font_size=small, font_name=narrow)
        self.mix_head = t.label("enemy mix", font_size=small, font_name=narrow, color=palette.TEXT_DIM)
        self.mix_names = [t.label("", font_size=9, font_name=narrow) for _ in range(MAX_MIX_ROWS)]
        self.mix_values = [
            t.label("", font_size=9, anchor_x="right", color=palette.TEXT_DIM) for _ in range(MAX_MIX_ROWS)
        ]
        self.plan_head = t.label("LAST PLAN", font_size=10, bold=True, color=palette.XP)
        self.plan_pressure = t.label("", font_size=12, bold=True)
        self.plan_event = t.label("", font_size=small, font_name=narrow, anchor_x="right", color=palette.BOSS)
        width = int(NARROW_W - 2 * PAD)  # wraps the same on every dock width
        self.reason = t.label("", font_size=small, multiline=True, width=width, anchor_y="top")
        self.clamped = t.label(
            "", font_size=9, font_name=narrow, color=palette.WARN, multiline=True, width=width, anchor_y="top"
        )
        self.announcer = t.label(
            "",
            font_size=small,
            italic=True,
            font_name=narrow,
            color=palette.ACCENT,
            multiline=True,
            width=width,
            anchor_y="top",
        )
        self.status_head = t.label("STATUS", font_size=10, bold=True, color=palette.XP)
        self.status_names = [
            t.label("", font_size=9, font_name=narrow, color=palette.TEXT_DIM) for _ in range(MAX_STATUS_ROWS)
        ]
        self.status_values = [t.label("", font_size=small, font_name=narrow) for _ in range(MAX_STATUS_ROWS)]
        self.error = t.label(
            "", font_size=9, font_name=narrow, color=palette.WARN, multiline=True, width=width, anchor_y="top"
        )
        # shown instead of the batch when no run is on
        self.empty_title = Label(
            "DIRECTOR", font_size=15, font_name=palette.FONT_DISPLAY, color=palette.ACCENT
        )
        self.empty = Label(
            "No run in progress: the director\nstarts with a run.",
            font_size=11,
            color=palette.TEXT_DIM,
            multiline=True,
            width=int(NARROW_W - 2 * PAD),
        )
        self._pending_at: tuple[float, float] | None = None

    def dock_width(self, window_width: float) -> float:
        """The strip it takes on the right while visible (``GameApp.play_width`` subtracts it)."""
        return dock_width(window_width)

    # ------------------------------------------------------------------ drawing
    def draw(self, width: float, height: float) -> None:
        panel = self.source()
        w = dock_width(width)
        left, bottom, top = width - w, 0.0, height
        self.rect = (left, bottom, w, height)
        base: list[Rect] = panel_rects(left, bottom, w, height, PANEL_FILL, palette.PANEL_EDGE)
        rects = list(base)
        if panel is None:
            self.last = None
            self.empty_title.move(left + PAD, top - PAD - 16)
            self.empty.move(left + PAD, top - 60)
            self.shapes.draw(("empty", left, top), lambda: [s for s in [rects_shape(rects)] if s])
            self.empty_title.draw()
            self.empty.draw()
            return
        self.last = panel
        # lay out with the full graph; on a short window shrink the graph by the overflow and lay out again
        rects, graph_y, x0, inner, end = self._layout(panel, left, w, height, top, GRAPH_H, list(rects))
        graph_h = GRAPH_H
        if end < PAD:
            graph_h = max(GRAPH_MIN_H, GRAPH_H - (PAD - end))
            rects, graph_y, x0, inner, end = self._layout(panel, left, w, height, top, graph_h, list(base))
        self._clip(PAD)
        # ---- draw: geometry (cached), graph (cached), indicator, text (one batch)
        key = tuple((round(a, 1), round(b, 1), round(c, 1), round(d, 1), tuple(e)) for a, b, c, d, e in rects)
        self.shapes.draw(key, lambda: [s for s in [rects_shape(rects)] if s])
        self.graph.draw(x0, graph_y, inner, graph_h, panel.history)
        if self._pending_at is not None:
            pulse_dot(*self._pending_at, 4.0, palette.ACCENT, time.monotonic())
        self.text.draw()

    def _layout(
        self,
        panel: DirectorPanel,
        left: float,
        w: float,
        height: float,
        top: float,
        graph_h: float,
        rects: list[Rect],
    ) -> tuple[list[Rect], float, float, float, float]:
        """Place every label and bar for ``panel`` (top down); returns the rects, the graph's y, the left
        x and inner width, and the y under the last line (below ``PAD``: the content overflows)."""
        x0, x1 = left + PAD, left + w - PAD
        inner = x1 - x0
        y = top - PAD - 16
        self.title.move(x0, y)
        self.mode.set(f"mode: {panel.mode}")
        self.mode.set_color(palette.TEXT_DIM if panel.mode == STATIC else palette.GOOD)
        self.mode.move(x1, y)
        # ---- intensity and pacing
        y -= 26
        self.intensity.set(f"INTENSITY  {panel.intensity:.2f}")
        self.intensity.move(x0, y)
        colour = PACING_COLOURS[panel.pacing]
        self.pacing.set(f"{PACING_NAMES[panel.pacing].upper()}  {clock(panel.pacing_s)}")
        self.pacing.set_color(
            Color(min(255, colour.r + 60), min(255, colour.g + 60), min(255, colour.b + 60))
        )
        self.pacing.move(x1, y)
        y -= 8 + graph_h
        graph_y = y
        y -= 13
        t0 = window_start(panel.history)
        for lbl, frac in zip(self.axis, (0.0, 0.5, 1.0), strict=True):
            lbl.set(clock_mmss(t0 + HISTORY_S * frac))
            lbl.move(x0 + inner * frac, y)
        for i, (lbl, state) in enumerate(zip(self.legend, PACING_COLOURS, strict=True)):
            lx, ly = x0 + (inner / 2) * (i % 2), y - 16 - 15 * (i // 2)
            rects.append((lx, ly + 1, 9, 9, PACING_COLOURS[state]))
            lbl.move(lx + 13, ly)
        y -= 16 + 15
        # ---- knobs
        y -= 24
        self.knobs_head.move(x0, y)
        k = panel.knobs
        name_w = 84.0
        bar_x, bar_w = x0 + name_w, inner - name_w - 50
        for i, knob in enumerate(KNOBS):
            value = float(getattr(k, knob.name))
            y -= KNOB_ROW_H
            self.knob_names[i].move(x0, y)
            self.knob_values[i].set(knob.shown(value))
            self.knob_values[i].move(x1, y)
            fill = KNOB_COLOURS.get(knob.name, palette.XP)
            rects += bar_rects(bar_x, y + 1, bar_w, 9, fraction(value, knob.range), fill, BAR_BACK)
        y -= KNOB_ROW_H
        credit_line = f"credits {panel.credits:5.1f}   income {panel.credits_per_s:4.2f}/s"
        self.credits.set(credit_line if panel.mode != STATIC else "credits: static waves (director off)")
        self.credits.move(x0, y)
        # enemy mix: two columns of small bars
        y -= 18
        self.mix_head.move(x0, y)
        y -= 16
        mix = sorted(k.mix.items(), key=lambda kv: -kv[1])[:MAX_MIX_ROWS]
        col_w = (inner - 8) / 2
        for i in range(MAX_MIX_ROWS):
            name_lbl, val_lbl = self.mix_names[i], self.mix_values[i]
            if i >= len(mix):
                name_lbl.set("")
                val_lbl.set("")
                continue
            name, weight = mix[i]
            cx = x0 + (i % 2) * (col_w + 8)
            cy = y - (i // 2) * 16
            name_lbl.set(name[:9])
            name_lbl.move(cx, cy)
            val_lbl.set(f"{weight:.1f}")
            val_lbl.move(cx + col_w, cy)
            rects += bar_rects(
                cx + 58, cy + 2, col_w - 86, 7, fraction(weight, MIX_WEIGHT.range), palette.XP, BAR_BACK
            )
        y -= 16 * max(0, (len(mix) + 1) // 2 - 1) + 26
        # ---- last plan
        self.plan_head.set(f"LAST PLAN   {panel.accepted} accepted")
        self.plan_head.move(x0, y)
        y -= 19
        plan = panel.last_plan
        if plan is None:
            self.plan_pressure.set("none yet" if panel.mode != STATIC else "director off")
            self.plan_pressure.set_color(palette.TEXT_DIM)
            self.plan_event.set("")
        else:
            self.plan_pressure.set(plan.pressure.replace("_", " ").upper())
            self.plan_pressure.set_color(PRESSURE_COLOURS.get(plan.pressure, palette.TEXT))
            self.plan_event.set(f"event: {plan.event}" if plan.event else "")
        self.plan_pressure.move(x0, y)
        self.plan_event.move(x1, y)
        y -= 6
        y = self._block(self.reason, panel.last_reason, x0, y)
        y = self._block(
            self.clamped, "clamped: " + "; ".join(panel.last_clamped) if panel.last_clamped else "", x0, y
        )
        y = self._block(
            self.announcer, f"\u201c{panel.last_announcer}\u201d" if panel.last_announcer else "", x0, y
        )
        # the last error sits with the plan it is about, above STATUS: a short window leaves out STATUS rows
        # from the bottom, never the error
        y = self._block(self.error, f"last error: {panel.last_error}" if panel.last_error else "", x0, y)
        # ---- status rows, pending dot
        y -= 18
        self.status_head.move(x0, y)
        rows = status_rows(panel, value_chars(w))
        self._pending_at = None
        for i, (name_lbl, val_lbl) in enumerate(zip(self.status_names, self.status_values, strict=True)):
            if i >= len(rows):
                name_lbl.set("")
                val_lbl.set("")
                continue
            y -= ROW_H
            name, shown = rows[i]
            name_lbl.set(name)
            name_lbl.move(x0, y)
            val_lbl.set(shown)
            val_lbl.set_color(palette.ACCENT if name == "next" and panel.pending else palette.TEXT)
            val_lbl.move(x0 + VALUE_X, y)
            if name == "next" and panel.pending:
                self._pending_at = (x0 + 66, y + 5)
        return rects, graph_y, x0, inner, y

    @staticmethod
    def _block(label: Label, text: str, x: float, y: float) -> float:
        """A wrapped text block whose top is at ``y``; returns the y under it."""
        label.set(text)
        label.move(x, y)
        return y - (float(label.text.content_height) + 4 if text else 0.0)

    def _clip(self, bottom: float) -> None:
        """Leave out what would fall below the panel's bottom edge on a short window."""
        for lbl in self.text.labels:
            tx = lbl.text
            low = tx.y - (tx.content_height if tx.anchor_y == "top" else 0)
            if lbl.value and low < bottom:
                lbl.set("")

    def texts(self) -> list[str]:
        return self.text.texts()
