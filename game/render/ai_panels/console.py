"""The backtick console overlay: a drop-down panel at the top of the screen with the scrollback and an input
line. While it is open it takes every key except the function keys (F1..F12 still reach the hotkeys, so F9
works from the console), so typing WASD never moves the player. Esc or backtick closes it.

The state and commands live in ``ConsoleModel``; this module only draws it and routes keys and text.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable

import arcade
from arcade.types import Color

from game.render import palette
from game.render.ai_panels.console_model import ConsoleModel, LineKind
from game.render.ai_panels.draw import CachedShapes, TextBatch, panel_rects, rects_shape
from game.render.widgets import Label

HEIGHT_FRACTION = 0.46
ROW_H = 17.0
FONT_SIZE = 10
MAX_ROWS = 40
KIND_COLOURS: dict[LineKind, Color] = {
    "input": palette.ACCENT,
    "output": palette.TEXT,
    "value": palette.GOOD,
    "error": Color(255, 100, 110),
    "agent": palette.XP,
    "info": palette.TEXT_DIM,
    "good": palette.GOOD,
    "warn": palette.WARN,
}
FUNCTION_KEYS = {getattr(arcade.key, f"F{i}") for i in range(1, 13)}


class ConsoleOverlay:
    modal = True  # holds the arena while open ([game] pause_on_overlay)
    modal_name = "console"

    def __init__(self, model: ConsoleModel, on_open: Callable[[], None] | None = None) -> None:
        self.model = model
        self.on_open = on_open
        self.visible = False
        self.text = TextBatch()
        self.shapes = CachedShapes()
        self.rows = [
            self.text.label("", font_size=FONT_SIZE, font_name=palette.FONT_MONO) for _ in range(MAX_ROWS)
        ]
        self.prompt = self.text.label(
            "", font_size=FONT_SIZE + 1, font_name=palette.FONT_MONO, color=palette.ACCENT
        )
        self.hint = self.text.label(
            "` or Esc closes   Enter runs   /help", font_size=9, anchor_x="right", color=palette.TEXT_DIM
        )
        probe = Label("M" * 20, font_size=FONT_SIZE, font_name=palette.FONT_MONO)
        self.char_w = max(4.0, probe.text.content_width / 20)
        self._layout: tuple[object, ...] | None = None
        self.visible_rows = 1

    # ------------------------------------------------------------------ open / close
    def toggle(self) -> None:
        self.visible = not self.visible
        if self.visible and self.on_open is not None:
            self.on_open()

    # ------------------------------------------------------------------ input
    def on_key(self, symbol: int, modifiers: int) -> bool:
        k = arcade.key
        if symbol in FUNCTION_KEYS:
            return False  # hotkeys (F9 Programmer, F10 panel...) still work
        m = self.model
        if symbol in (k.ESCAPE, k.GRAVE):
            self.visible = False
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
            m.submit()
        elif symbol == k.BACKSPACE:
            m.backspace()
        elif symbol == k.UP:
            m.history_prev()
        elif symbol == k.DOWN:
            m.history_next()
        elif symbol == k.PAGEUP:
            m.scroll_by(max(1, self.visible_rows - 2), self.visible_rows)
        elif symbol == k.PAGEDOWN:
            m.scroll_by(-max(1, self.visible_rows - 2), self.visible_rows)
        return True  # everything else is typing: never let it reach the game

    def on_text(self, text: str) -> bool:
        self.model.type(text)
        return True

    # ------------------------------------------------------------------ drawing
    def wrapped(self, cols: int) -> list[tuple[str, LineKind]]:
        out: list[tuple[str, LineKind]] = []
        for line in self.model.lines:
            parts = textwrap.wrap(line.text, cols, subsequent_indent="  ", drop_whitespace=False) or [""]
            out += [(p, line.kind) for p in parts]
        return out

    def draw(self, width: float, height: float) -> None:
        h = max(160.0, height * HEIGHT_FRACTION)
        left, bottom = 8.0, height - h - 8
        cols = max(20, int((width - 40) / self.char_w))
        self.visible_rows = min(MAX_ROWS, int((h - 46) / ROW_H))
        layout = (self.model.version, width, height)
        if layout != self._layout:
            self._layout = layout
            lines = self.wrapped(cols)
            end = len(lines) - min(self.model.scroll, max(0, len(lines) - self.visible_rows))
            shown = lines[max(0, end - self.visible_rows) : end]
            for i, lbl in enumerate(self.rows):
                if i < len(shown):
                    text, kind = shown[i]
                    lbl.set(text)
                    lbl.set_color(KIND_COLOURS[kind])
                    lbl.move(left + 16, bottom + h - 22 - ROW_H * i)
                else:
                    lbl.set("")
            self.hint.move(left + width - 32, bottom + 12)
        caret = "_" if int(time.monotonic() * 2) % 2 == 0 else " "
        visible_input = self.model.input[-(cols - 4) :]
        self.prompt.set(f"> {visible_input}{caret}")
        self.prompt.move(left + 16, bottom + 12)
        w = width - 16
        rects = panel_rects(left, bottom, w, h, Color(8, 10, 18, 246), palette.PANEL_EDGE)
        rects.append((left + 2, bottom + 32, w - 4, 1, palette.PANEL_EDGE))
        self.shapes.draw((left, bottom, w, h), lambda: [s for s in [rects_shape(rects)] if s])
        self.text.draw()

    def texts(self) -> list[str]:
        """Every scrollback line (not only the visible ones)."""
        return self.model.texts()
