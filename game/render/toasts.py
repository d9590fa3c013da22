"""Toasts: short player notices (announcer lines, mod reports, level-ups) in ONE queue, drawn in the bottom
right corner of the play area (away from the player, who is centred, and from the console, which drops
from the top), newest at the bottom.

- Repeats merge: a notice whose text matches a shown one once its numbers are ignored ("Kill streak 5!",
  "Kill streak 10!") refreshes that toast, takes its newest text and counts up: "Kill streak 15!  x3".
- Rate limit: at most ``MAX_SHOWN`` on screen; a new toast enters at most every ``ENTER_GAP_S``; the others
  wait in order (at most ``MAX_WAITING``; beyond that the oldest waiting one is dropped to the log). While
  toasts wait, the shown ones leave sooner.
- ``show`` is safe from any thread; text objects are made on the main thread in ``update``.

Developer notices (model load times, backend routing) never come here: they go to the log and the console.
"""

from __future__ import annotations

import re
import threading
from collections import deque
from dataclasses import dataclass

import arcade
from arcade.types import Color
from loguru import logger

from game.render import palette
from game.render.widgets import ShadowLabel

log = logger.bind(feature="toasts", trace_id=None)

MAX_SHOWN = 3
MAX_WAITING = 8
ENTER_GAP_S = 0.45
MAX_CHARS = 96
ROW_H = 32.0
RIGHT_MARGIN = 20.0
BOTTOM_Y = 64.0  # above the XP bar, the level and the FPS line
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def merge_key(text: str) -> str:
    """What makes two notices "the same": the text with its numbers blanked, case and spaces folded."""
    return " ".join(_NUMBER.sub("#", text).lower().split())


def clip(text: str, n: int = MAX_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


@dataclass
class _Toast:
    text: str
    seconds: float
    color: Color
    key: str = ""
    count: int = 1
    label: ShadowLabel | None = None
    age: float = 0.0

    @property
    def shown(self) -> str:
        return self.text if self.count <= 1 else f"{self.text}  \u00d7{self.count}"


class Toasts:
    """The one toast queue. ``active`` is what is on screen, oldest first."""

    MAX_SHOWN = MAX_SHOWN

    def __init__(self) -> None:
        self._incoming: deque[_Toast] = deque(maxlen=64)
        self._lock = threading.Lock()
        self.waiting: deque[_Toast] = deque()
        self.active: list[_Toast] = []
        self._since_enter = ENTER_GAP_S
        self.dropped = 0
        self.right = 0.0  # the play area's right edge (0: the window's); the app sets it when F10 docks

    def show(self, text: str, seconds: float = 3.0, color: Color = palette.TEXT) -> None:
        """Queue a notice; callable from any thread."""
        t = clip(text)
        with self._lock:
            self._incoming.append(_Toast(t, max(0.3, float(seconds)), color, merge_key(t)))

    # ------------------------------------------------------------------ per frame (main thread)
    def update(self, dt: float) -> None:
        with self._lock:
            incoming = list(self._incoming)
            self._incoming.clear()
        for t in incoming:
            self._admit(t)
        hurry = 2.0 if self.waiting else 1.0  # a backlog: the shown toasts make room sooner
        for t in self.active:
            t.age += dt * hurry
        self.active = [t for t in self.active if t.age < t.seconds]
        self._since_enter += dt
        while self.waiting and len(self.active) < MAX_SHOWN and self._since_enter >= ENTER_GAP_S:
            self._enter(self.waiting.popleft())
            self._since_enter = 0.0

    def _admit(self, t: _Toast) -> None:
        for other in [*self.active, *self.waiting]:
            if other.key == t.key:
                other.count += 1
                other.text, other.color = t.text, t.color
                other.seconds = max(other.seconds, t.seconds)
                if other.label is not None:
                    other.age = min(other.age, 0.15)  # refreshed: stays fully visible
                    other.label.set(other.shown)
                    other.label.set_color(other.color)
                return
        self.waiting.append(t)
        while len(self.waiting) > MAX_WAITING:
            gone = self.waiting.popleft()
            self.dropped += 1
            log.info("toast dropped (queue full): {}", gone.text)

    def _enter(self, t: _Toast) -> None:
        t.label = ShadowLabel(
            t.shown, 0, 0, font_size=13, anchor_x="right", color=t.color, font_name=palette.FONT_NARROW
        )
        t.age = 0.0
        self.active.append(t)

    @property
    def texts(self) -> list[str]:
        """What is on screen, waiting or just posted, newest first (merged ones with their count)."""
        with self._lock:
            queued = [t.text for t in reversed(self._incoming)]
        return queued + [t.shown for t in reversed(self.waiting)] + [t.shown for t in reversed(self.active)]

    def rects(self, width: float) -> list[tuple[float, float, float, float]]:
        """(left, bottom, width, height) of each shown toast, oldest first (tests check where they are)."""
        right = (self.right or width) - RIGHT_MARGIN
        out = []
        n = len(self.active)
        for i, t in enumerate(self.active):
            w = (t.label.text.content_width if t.label is not None else 0.0) + 24
            bottom = BOTTOM_Y + (n - 1 - i) * ROW_H
            out.append((right - w + 12, bottom - 8, w, ROW_H - 4))
        return out

    def draw(self, width: float, height: float) -> None:
        for t, (left, bottom, w, h) in zip(self.active, self.rects(width), strict=True):
            if t.label is None:
                continue
            fade = min(1.0, t.age / 0.15, (t.seconds - t.age) / 0.4)
            a = int(255 * max(0.0, fade))
            c = t.color
            t.label.text.color = Color(c[0], c[1], c[2], a)
            t.label.shadow.text.color = Color(0, 0, 0, int(a * 0.8))
            arcade.draw_lbwh_rectangle_filled(left, bottom, w, h, Color(10, 12, 20, int(a * 0.78)))
            arcade.draw_lbwh_rectangle_filled(left, bottom, 3, h, Color(c[0], c[1], c[2], a))
            t.label.move(left + w - 12, bottom + 8)
            t.label.draw()
