"""The chat panel (T or Enter): talk to an agent role while the game holds.

A role picker (Tab / Shift+Tab or a click: Chat, Merchant, Creator, Analyzer, Programmer), the role's
transcript, the reply streaming in as it arrives, a busy line, and the input with a Send / Stop button.
Esc or the Stop button cancels a reply that is coming (the panel then says "stopped"); Esc with nothing
coming closes the panel. While it is open it takes every key but F1..F12, and as a modal panel it holds
the arena (``[game] pause_on_overlay``). State and turns live in ``ChatModel``.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable

import arcade
from arcade.types import Color

from game.ai.chat import ROLES
from game.render import palette
from game.render.ai_panels.chat_model import ChatModel, Speaker
from game.render.ai_panels.draw import TextBatch
from game.render.widgets import Label

FONT_SIZE = 11
ROW_H = 18.0
MAX_ROWS = 18
TAB_GAP = 6.0
BUTTON_W = 78.0
FUNCTION_KEYS = {getattr(arcade.key, f"F{i}") for i in range(1, 13)}
SPEAKER_COLOURS: dict[Speaker, Color] = {
    "you": palette.ACCENT,
    "agent": palette.TEXT,
    "info": palette.TEXT_DIM,
    "error": Color(255, 110, 110),
}
STOP_RED = Color(200, 50, 60)
SEND_BLUE = Color(50, 90, 170)


class ChatPanel:
    modal = True  # holds the arena while open ([game] pause_on_overlay)
    modal_name = "chat"

    def __init__(
        self,
        model: ChatModel,
        on_open: Callable[[], None] | None = None,
        is_current: Callable[[], bool] = lambda: True,
    ) -> None:
        self.model = model
        self.on_open = on_open
        self.is_current = is_current  # whether its game's screen is showing (mouse clicks are window-wide)
        self.visible = False
        self._swallow = ""  # the character of the key that opened the panel (its on_text follows)
        self.text = TextBatch()
        self.tabs = [self.text.label(r, font_size=11, anchor_x="center", bold=True) for r in ROLES]
        self.rows = [self.text.label("", font_size=FONT_SIZE) for _ in range(MAX_ROWS)]
        self.status = self.text.label("", font_size=10, color=palette.TEXT_DIM)
        self.prompt = self.text.label("", font_size=FONT_SIZE + 1, color=palette.ACCENT)
        self.button = self.text.label("", font_size=11, anchor_x="center", anchor_y="center", bold=True)
        self.hint = self.text.label(
            "Tab role   Enter send   Esc stop / close", font_size=9, anchor_x="right", color=palette.TEXT_DIM
        )
        probe = Label("abcdefghij" * 4, font_size=FONT_SIZE)
        self.char_w = max(4.0, probe.text.content_width / 40)
        self.rect = (0.0, 0.0, 0.0, 0.0)
        self._layout: tuple[object, ...] | None = None

    # ------------------------------------------------------------------ open / close
    def open(self, role: str | None = None, swallow: str = "") -> None:
        if role is not None:
            self.model.pick(role)
        if not self.visible:
            self.visible = True
            self._swallow = swallow
            if self.on_open is not None:
                self.on_open()

    def close(self) -> None:
        self.visible = False

    # ------------------------------------------------------------------ input
    def on_key(self, symbol: int, modifiers: int) -> bool:
        k = arcade.key
        if symbol in FUNCTION_KEYS:
            return False
        m = self.model
        if symbol == k.ESCAPE:
            if not m.stop():
                self.close()
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
            m.submit()
        elif symbol == k.BACKSPACE:
            m.backspace()
        elif symbol == k.TAB:
            m.cycle(-1 if modifiers & k.MOD_SHIFT else 1)
        return True  # typing never reaches the game

    def on_text(self, text: str) -> bool:
        if self._swallow and text.lower() == self._swallow:
            self._swallow = ""
            return True
        self._swallow = ""
        self.model.type(text.replace("\r", "").replace("\t", ""))
        return True

    def button_rect(self) -> tuple[float, float, float, float]:
        left, bottom, w, _ = self.rect
        return (left + w - BUTTON_W - 12, bottom + 10, BUTTON_W, 26)

    def tab_rect(self, i: int) -> tuple[float, float, float, float]:
        left, bottom, w, h = self.rect
        tab_w = (w - 24 - TAB_GAP * (len(ROLES) - 1)) / len(ROLES)
        return (left + 12 + i * (tab_w + TAB_GAP), bottom + h - 36, tab_w, 26)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """Stop / Send and the role tabs; True when the click was the panel's."""
        if not self.visible or not self.is_current():
            return False

        def inside(r: tuple[float, float, float, float]) -> bool:
            return r[0] <= x <= r[0] + r[2] and r[1] <= y <= r[1] + r[3]

        if inside(self.button_rect()):
            if not self.model.stop():
                self.model.submit()
            return True
        for i, role in enumerate(ROLES):
            if inside(self.tab_rect(i)):
                self.model.pick(role)
                return True
        left, bottom, w, h = self.rect
        return left <= x <= left + w and bottom <= y <= bottom + h

    # ------------------------------------------------------------------ drawing
    def _lines(self, cols: int) -> list[tuple[str, Speaker]]:
        out: list[tuple[str, Speaker]] = []
        m = self.model
        shown = [(line.speaker, line.text) for line in m.transcript()]
        live = m.live_text()
        if m.busy:
            shown.append(("agent", live + ("_" if int(time.monotonic() * 3) % 2 else "")))
        for speaker, text in shown:
            who = "you: " if speaker == "you" else f"{m.role}: " if speaker == "agent" else ""
            for i, para in enumerate((who + text).split("\n")):
                indent = "    " if i or speaker != "info" else ""
                parts = textwrap.wrap(para, cols, subsequent_indent="    ") or [""]
                out += [((indent if j == 0 and i else "") + p, speaker) for j, p in enumerate(parts)]
        return out

    def draw(self, width: float, height: float) -> None:
        m = self.model
        m.poll()
        pw = min(640.0, width - 32)
        ph = min(MAX_ROWS * ROW_H + 110, height * 0.7)
        left, bottom = (width - pw) / 2, 64.0
        self.rect = (left, bottom, pw, ph)
        arcade.draw_lbwh_rectangle_filled(left, bottom, pw, ph, Color(8, 10, 18, 242))
        arcade.draw_lbwh_rectangle_outline(left, bottom, pw, ph, palette.PANEL_EDGE, 2)
        for i, role in enumerate(ROLES):
            tl, tb, tw, th = self.tab_rect(i)
            on = role == m.role
            arcade.draw_lbwh_rectangle_filled(tl, tb, tw, th, palette.ACCENT if on else Color(30, 34, 52))
            self.tabs[i].set_color(Color(20, 20, 30) if on else palette.TEXT_DIM)
            self.tabs[i].move(tl + tw / 2, tb + 8)
        cols = max(20, int((pw - 32) / self.char_w))
        rows = min(MAX_ROWS, int((ph - 110) / ROW_H))
        lines = self._lines(cols)[-rows:]
        top = bottom + ph - 58
        for i, lbl in enumerate(self.rows):
            if i < len(lines):
                text, speaker = lines[i]
                lbl.set(text)
                lbl.set_color(SPEAKER_COLOURS[speaker])
                lbl.move(left + 16, top - ROW_H * i)
            else:
                lbl.set("")
        self.status.set(self._status_text())
        self.status.move(left + 16, bottom + 46)
        caret = "_" if int(time.monotonic() * 2) % 2 == 0 else " "
        self.prompt.set(f"> {m.input[-(cols - 16) :]}{caret}")
        self.prompt.move(left + 16, bottom + 16)
        bl, bb, bw, bh = self.button_rect()
        arcade.draw_lbwh_rectangle_filled(bl, bb, bw, bh, STOP_RED if m.busy else SEND_BLUE)
        self.button.set("Stop" if m.busy else "Send")
        self.button.move(bl + bw / 2, bb + bh / 2)
        arcade.draw_lbwh_rectangle_filled(left + 2, bottom + 40, pw - 4, 1, palette.PANEL_EDGE)
        self.hint.move(left + pw - BUTTON_W - 28, bottom + 46)
        self.text.draw()

    def _status_text(self) -> str:
        status = self.model.status()
        if self.model.busy:
            return status + "." * (1 + int(time.monotonic() * 3) % 3)
        return status

    def texts(self) -> list[str]:
        """What the panel shows (tests read it)."""
        return self.text.texts()
