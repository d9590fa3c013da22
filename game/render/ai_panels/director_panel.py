"""F10: the live director panel. It shows what the director sees and decides, refreshed every frame from
``Director.panel(world)``: the intensity graph with the pacing state behind it, the knobs (pressure, enemy
mix, elite chance, pickup rate, credits), the last plan with its reason and clamp notes, the backend, mode,
latency, trace id, the accepted / overridden / rejected / failed counts, a pending indicator, the countdown to
the next decision, the LLM request's size ("prompt N tok / n_ctx") and the last error.

Text lives in one batch and bars in one cached shape list, so the panel costs a few draw calls per frame.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from arcade.types import Color

from game.director.director import STATIC
from game.director.knobs import KNOBS, MIX_WEIGHT
from game.director.panel import HISTORY_S, DirectorPanel
from game.render import palette
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

PANEL_W = 440.0
PAD = 16.0
TOP_GAP = 78.0  # below the HUD's score and time
BOTTOM_GAP = 44.0  # above the level and FPS line
GRAPH_H = 110.0
GRAPH_MIN_H = 48.0
KNOB_ROW_H = 19.0
# everything but the graph (on short windows the graph gives way); one bar row per knob in the table
CONTENT_H = 403.0 + KNOB_ROW_H * len(KNOBS)
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


class DirectorPanelOverlay:
    """The F10 overlay; ``source`` returns the current run's panel data (None when no run is on)."""

    def __init__(self, source: Callable[[], DirectorPanel | None]) -> None:
        self.source = source
        self.visible = False
        self.last: DirectorPanel | None = None
        self.text = TextBatch()
        self.shapes = CachedShapes()
        self.graph = IntensityGraph()
        t = self.text
        small, narrow = 10, palette.FONT_NARROW
        self.title = t.label("DIRECTOR", font_size=15, font_name=palette.FONT_DISPLAY, color=palette.ACCENT)
        self.mode = t.label("", font_size=12, bold=True, anchor_x="right", color=palette.GOOD)
        self.backend = t.label("", font_size=small, font_name=narrow, color=palette.TEXT_DIM)
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
        self.mix_names = [t.label("", font_size=small, font_name=narrow) for _ in range(MAX_MIX_ROWS)]
        self.mix_values = [
            t.label("", font_size=9, anchor_x="right", color=palette.TEXT_DIM) for _ in range(MAX_MIX_ROWS)
        ]
        self.plan_head = t.label("LAST PLAN", font_size=10, bold=True, color=palette.XP)
        self.plan_pressure = t.label("", font_size=12, bold=True)
        self.plan_event = t.label("", font_size=small, font_name=narrow, anchor_x="right", color=palette.BOSS)
        width = int(PANEL_W - 2 * PAD)
        self.reason = t.label("", font_size=small, multiline=True, width=width, anchor_y="top")
        self.clamped = t.label(
            "", font_size=9, font_name=narrow, color=palette.WARN, multiline=True, width=width, anchor_y="top"
        )
        self.announcer = t.label("", font_size=small, italic=True, font_name=narrow, color=palette.ACCENT)
        self.counts = t.label("", font_size=small, font_name=narrow)
        self.next = t.label("", font_size=small, font_name=narrow, color=palette.TEXT_DIM)
        self.error = t.label(
            "", font_size=9, font_name=narrow, color=palette.WARN, multiline=True, width=width, anchor_y="top"
        )
        # shown instead of the batch when no run is on
        self.empty_title = Label(
            "DIRECTOR", font_size=15, font_name=palette.FONT_DISPLAY, color=palette.ACCENT
        )
        self.empty = Label(
            "No run in progress: the director starts with a run.", font_size=12, color=palette.TEXT_DIM
        )
        self._pending_at: tuple[float, float] | None = None

    # ------------------------------------------------------------------ drawing
    def draw(self, width: float, height: float) -> None:
        panel = self.source()
        left = width - PANEL_W - 14
        top = height - TOP_GAP
        bottom = BOTTOM_GAP if height >= 700 else 8.0  # short window: cover the FPS line, not the text
        rects: list[Rect] = []
        if panel is None:
            rects = panel_rects(left, top - 100, PANEL_W, 100, PANEL_FILL, palette.PANEL_EDGE)
            self.last = None
            self.empty_title.move(left + PAD, top - PAD - 16)
            self.empty.move(left + PAD, top - 60)
            self.shapes.draw(("empty", left, top), lambda: [s for s in [rects_shape(rects)] if s])
            self.empty_title.draw()
            self.empty.draw()
            return
        self.last = panel
        x0, x1 = left + PAD, left + PANEL_W - PAD
        inner = x1 - x0
        y = top - PAD - 16
        self.title.move(x0, y)
        self.mode.set(f"mode: {panel.mode}")
        self.mode.set_color(palette.TEXT_DIM if panel.mode == STATIC else palette.GOOD)
        self.mode.move(x1, y)
        y -= 22
        lat = f"{panel.latency_s * 1000:.1f} ms" if panel.latency_s is not None else "-"
        self.backend.set(f"backend {panel.backend or '-'}   latency {lat}   trace {panel.trace_id or '-'}")
        self.backend.move(x0, y)
        # ---- intensity and pacing
        y -= 24
        self.intensity.set(f"INTENSITY  {panel.intensity:.2f}")
        self.intensity.move(x0, y)
        colour = PACING_COLOURS[panel.pacing]
        self.pacing.set(f"{PACING_NAMES[panel.pacing].upper()}  {clock(panel.pacing_s)}")
        self.pacing.set_color(
            Color(min(255, colour.r + 60), min(255, colour.g + 60), min(255, colour.b + 60))
        )
        self.pacing.move(x1, y)
        graph_h = max(GRAPH_MIN_H, min(GRAPH_H, top - bottom - CONTENT_H))
        y -= 8 + graph_h
        graph_y = y
        y -= 14
        t0 = window_start(panel.history)
        for lbl, frac in zip(self.axis, (0.0, 0.5, 1.0), strict=True):
            lbl.set(clock_mmss(t0 + HISTORY_S * frac))
            lbl.move(x0 + inner * frac, y)
        y -= 18
        slot = inner / len(self.legend)
        for i, (lbl, state) in enumerate(zip(self.legend, PACING_COLOURS, strict=True)):
            lx = x0 + slot * i
            rects.append((lx, y + 1, 10, 10, PACING_COLOURS[state]))
            lbl.move(lx + 14, y)
        # ---- knobs
        y -= 26
        self.knobs_head.move(x0, y)
        k = panel.knobs
        rows = [
            (v, knob.range, knob.shown(v), KNOB_COLOURS.get(knob.name, palette.XP))
            for knob in KNOBS
            for v in (float(getattr(k, knob.name)),)
        ]
        name_w, bar_x = 92.0, x0 + 92.0
        bar_w = inner - name_w - 58
        for i, (value, rng, shown, fill) in enumerate(rows):
            y -= KNOB_ROW_H
            self.knob_names[i].move(x0, y)
            self.knob_values[i].set(shown)
            self.knob_values[i].move(x1, y)
            rects += bar_rects(bar_x, y + 1, bar_w, 9, fraction(value, rng), fill, BAR_BACK)
        y -= 19
        credit_line = f"credits {panel.credits:5.1f}   income {panel.credits_per_s:4.2f}/s"
        self.credits.set(credit_line if panel.mode != STATIC else "credits: static waves (director off)")
        self.credits.move(x0, y)
        # enemy mix: two columns of small bars
        y -= 19
        self.mix_head.move(x0, y)
        y -= 17
        mix = sorted(k.mix.items(), key=lambda kv: -kv[1])[:MAX_MIX_ROWS]
        col_w = inner / 2
        for i in range(MAX_MIX_ROWS):
            name_lbl, val_lbl = self.mix_names[i], self.mix_values[i]
            if i >= len(mix):
                name_lbl.set("")
                val_lbl.set("")
                continue
            name, weight = mix[i]
            cx = x0 + (i % 2) * (col_w + 8)
            cy = y - (i // 2) * 17
            name_lbl.set(name)
            name_lbl.move(cx + 8, cy)
            val_lbl.set(f"{weight:.1f}")
            val_lbl.move(cx + col_w - 8, cy)
            rects += bar_rects(
                cx + 64, cy + 2, col_w - 104, 7, fraction(weight, MIX_WEIGHT.range), palette.XP, BAR_BACK
            )
        y -= 17 * max(0, (len(mix) + 1) // 2 - 1) + 30
        # ---- last plan
        self.plan_head.set(f"LAST PLAN   {panel.accepted} accepted")
        self.plan_head.move(x0, y)
        y -= 20
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
        y -= 8
        self.reason.set(panel.last_reason)
        self.reason.move(x0, y)
        y -= max(16.0, float(self.reason.text.content_height)) + 2 if panel.last_reason else 0
        self.clamped.set("clamped: " + "; ".join(panel.last_clamped) if panel.last_clamped else "")
        self.clamped.move(x0, y)
        if panel.last_clamped:
            y -= float(self.clamped.text.content_height) + 2
        y -= 14
        self.announcer.set(f"\u201c{panel.last_announcer}\u201d" if panel.last_announcer else "")
        self.announcer.move(x0, y)
        # ---- counters, pending, next decision, last error
        y -= 24
        self.counts.set(
            f"accepted {panel.accepted}  overridden {panel.overridden}  rejected {panel.rejected}"
            f"  failed {panel.failed}  superseded {panel.superseded}"
        )
        self.counts.move(x0, y)
        y -= 18
        if panel.mode == STATIC:
            line = "static difficulty: no decisions (F6 cycles the mode)"
        elif panel.pending:
            line = f"thinking... (asked {panel.backend or panel.mode}); next in {panel.next_decision_in:.1f}s"
        else:
            line = f"next decision in {panel.next_decision_in:.1f}s"
        self.next.set(f"{line}   {panel.prompt}" if panel.prompt and panel.mode != STATIC else line)
        self.next.set_color(palette.ACCENT if panel.pending else palette.TEXT_DIM)
        self.next.move(x0 + (14 if panel.pending else 0), y)
        self._pending_at = (x0 + 4, y + 5) if panel.pending else None
        y -= 8
        self.error.set(f"last error: {panel.last_error}" if panel.last_error else "")
        self.error.move(x0, y)
        if panel.last_error:
            y -= float(self.error.text.content_height)
        panel_bottom = max(bottom, y - PAD)
        rects[:0] = panel_rects(
            left, panel_bottom, PANEL_W, top - panel_bottom, PANEL_FILL, palette.PANEL_EDGE
        )
        # ---- draw: geometry (cached), graph (cached), indicator, text (one batch)
        key = tuple((round(a, 1), round(b, 1), round(c, 1), round(d, 1), tuple(e)) for a, b, c, d, e in rects)
        self.shapes.draw(key, lambda: [s for s in [rects_shape(rects)] if s])
        self.graph.draw(x0, graph_y, inner, graph_h, panel.history)
        if self._pending_at is not None:
            pulse_dot(*self._pending_at, 4.0, palette.ACCENT, time.monotonic())
        self.text.draw()

    def texts(self) -> list[str]:
        return self.text.texts()
