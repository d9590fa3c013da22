"""Screen-space layers drawn above the HUD: panels toggled by hotkeys (help, director, mods, console...).
Toasts live in ``game.render.toasts``.

A panel is any object with ``visible: bool`` and ``draw(width, height)``; it may also define
``on_key(symbol, modifiers) -> bool`` and ``on_text(text) -> bool`` to take keyboard input while visible
(return True to consume the key).

Modal panels: a panel with ``modal = True`` (a class or instance attribute) holds the arena while it is
visible, when ``[game] pause_on_overlay`` is on (``GameApp.pause_on_overlay``): the simulation, effects and
camera stop, frame hooks keep running (agents' answers still land), and the HUD says what holds the game.
``modal_name`` (optional) names the panel in that line ("console"). ``OverlayStack.modal()`` returns the
topmost visible modal panel. The console, F7, F1 help (and the chat panel and options screen) are modal;
the F10 director panel is not (it is a docked live view, see ``docked``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import arcade
from arcade.types import Color
from loguru import logger

from coreai.paths import saves_root
from game.hotkeys import HotkeyRegistry
from game.render import palette
from game.render.widgets import Label, ShadowLabel, draw_panel

log = logger.bind(feature="game", trace_id=None)


@runtime_checkable
class Overlay(Protocol):
    visible: bool

    def draw(self, width: float, height: float) -> None: ...


class OverlayStack:
    """Panels in draw order (last on top). Keys go to the topmost visible panel that wants them."""

    def __init__(self) -> None:
        self.items: list[Overlay] = []

    def add(self, overlay: Overlay) -> Overlay:
        if overlay not in self.items:
            self.items.append(overlay)
        return overlay

    def remove(self, overlay: Overlay) -> None:
        if overlay in self.items:
            self.items.remove(overlay)

    def toggle(self, overlay: Overlay) -> bool:
        overlay.visible = not overlay.visible
        return overlay.visible

    def any_visible(self) -> bool:
        return any(o.visible for o in self.items)

    def modal(self) -> Overlay | None:
        """The topmost visible panel that declares ``modal = True`` (None if there is none)."""
        for o in reversed(self.items):
            if o.visible and getattr(o, "modal", False):
                return o
        return None

    def draw(self, width: float, height: float, play_width: float | None = None) -> None:
        """Draw the visible panels: a docked one (with ``dock_width``) gets the window's width, every other
        one the play area's (``play_width``), so no panel is drawn over the dock."""
        for o in self.items:
            if not o.visible:
                continue
            w = width if play_width is None or callable(getattr(o, "dock_width", None)) else play_width
            try:
                o.draw(w, height)
            except Exception as exc:  # a broken panel is hidden, the game goes on
                o.visible = False
                log.opt(exception=exc).error(
                    "overlay {} failed to draw and was hidden: {}", type(o).__name__, exc
                )

    def on_key(self, symbol: int, modifiers: int) -> bool:
        for o in reversed(self.items):
            handler = getattr(o, "on_key", None)
            if o.visible and handler is not None and handler(symbol, modifiers):
                return True
        return False

    def on_text(self, text: str) -> bool:
        for o in reversed(self.items):
            handler = getattr(o, "on_text", None)
            if o.visible and handler is not None and handler(text):
                return True
        return False


class HelpOverlay:
    """F1: every hotkey and control from the registry; reserved keys without a handler read "coming".
    Groups flow into a second column when one column would not fit the window."""

    COLUMN_W = 560.0
    GROUP_GAP, ROW = 34.0, 25.0
    modal = True
    modal_name = "help"

    def __init__(self, registry: HotkeyRegistry) -> None:
        self.registry = registry
        self.visible = False
        self._layout_key: tuple[int, int] | None = None  # (registry version, window height)
        self._labels: list[tuple[Label, float, float]] = []  # label, x and y relative to the panel's top left
        self._origin: tuple[float, float] | None = None
        self._size = (0.0, 0.0)
        self._title = ShadowLabel(
            "HOTKEYS",
            0,
            0,
            font_size=22,
            anchor_x="center",
            font_name=palette.FONT_DISPLAY,
            color=palette.ACCENT,
        )
        self._foot = Label(
            f"F1 or Esc closes this help      saves: {saves_root()}",
            0,
            0,
            font_size=11,
            anchor_x="center",
            color=palette.TEXT_DIM,
        )

    def _rebuild(self, max_rows_h: float) -> None:
        self._labels = []
        x = y = 0.0
        tallest = 0.0
        for group, entries in self.registry.groups():
            block = self.GROUP_GAP + self.ROW * len(entries)
            if y < 0 and -y + block > max_rows_h:  # next column
                x += self.COLUMN_W
                y = 0.0
            y -= self.GROUP_GAP
            self._labels.append((Label(group.upper(), font_size=13, bold=True, color=palette.XP), x, y))
            for e in entries:
                y -= self.ROW
                self._labels.append(
                    (Label(e.label, font_size=12, bold=True, color=palette.ACCENT), x + 24, y)
                )
                desc = e.description + (f"   ({e.status})" if e.status else "")
                col = palette.TEXT if e.available else palette.TEXT_DIM
                self._labels.append(
                    (Label(desc, font_size=12, color=col, font_name=palette.FONT_NARROW), x + 210, y)
                )
            tallest = max(tallest, -y)
        self._size = (x + self.COLUMN_W + 40, tallest + 90)
        self._origin = None

    def draw(self, width: float, height: float) -> None:
        key = (self.registry.version, int(height))
        if key != self._layout_key:
            self._layout_key = key
            self._rebuild(max(300.0, height - 200))
        arcade.draw_lbwh_rectangle_filled(0, 0, width, height, Color(0, 0, 0, 120))
        w, h = self._size
        left, bottom = (width - w) / 2, (height - h) / 2
        draw_panel(left, bottom, w, h)
        self._title.move(width / 2, bottom + h - 44)
        self._title.draw()
        origin = (left + 36, bottom + h - 50)
        if origin != self._origin:  # first draw or the window was resized
            self._origin = origin
            for lbl, dx, dy in self._labels:
                lbl.move(origin[0] + dx, origin[1] + dy)
        for lbl, _, _ in self._labels:
            lbl.draw()
        self._foot.move(width / 2, bottom + 16)
        self._foot.draw()

    def on_key(self, symbol: int, modifiers: int) -> bool:
        if symbol == arcade.key.ESCAPE:
            self.visible = False
            return True
        return False
