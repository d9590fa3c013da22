"""F7: the mods panel. One row per mod: name, version, state (loaded / faulted / quarantined / disabled ...),
the enabled toggle, fault count and last error; below, the selected mod's details and latest log lines.
Keys while open: Up/Down select, Enter/Space toggle enabled, R reload, Esc close. A quarantined mod is shown
in red with a banner saying so; enabling it again takes it out of quarantine."""

from __future__ import annotations

import time
from collections.abc import Callable

import arcade
from arcade.types import Color
from loguru import logger

from coreai.errors import CoreAIError
from coreai.lua import ModManager, ModState, ModStatus
from game.render import palette
from game.render.ai_panels.draw import CachedShapes, Rect, TextBatch, panel_rects, rects_shape

log = logger.bind(feature="game", trace_id="mods-panel")

PANEL_W = 860.0
ROW_H = 24.0
MAX_ROWS = 12
LOG_LINES = 5
REFRESH_S = 0.5
STATE_COLOURS: dict[ModState, Color] = {
    ModState.LOADED: palette.GOOD,
    ModState.FAULTED: palette.WARN,
    ModState.QUARANTINED: Color(255, 70, 90),
    ModState.DISABLED: palette.TEXT_DIM,
    ModState.UNLOADED: palette.TEXT_DIM,
    ModState.INVALID: Color(255, 70, 90),
}
SELECTED = Color(60, 80, 140, 200)
PANEL_FILL = Color(14, 16, 26, 246)
COLUMNS = (0.0, 24.0, 230.0, 300.0, 430.0, 500.0)  # marker, name, version, state, enabled, faults+error
Toast = Callable[[str, float, Color], None]


def clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


class ModsPanel:
    modal = True  # holds the arena while open ([game] pause_on_overlay)
    modal_name = "mods panel"

    def __init__(self, mods: ModManager, toast: Toast) -> None:
        self.mods = mods
        self.toast = toast
        self.visible = False
        self.rows: list[ModStatus] = []
        self.log_lines: list[str] = []  # the selected mod's latest log entries
        self.selected = 0
        self._refreshed = -1e9
        self.text = TextBatch()
        self.shapes = CachedShapes()
        t, narrow = self.text, palette.FONT_NARROW
        self.title = t.label("MODS", font_size=18, font_name=palette.FONT_DISPLAY, color=palette.ACCENT)
        self.summary = t.label("", font_size=11, anchor_x="right", color=palette.TEXT_DIM)
        heads = ("", "mod", "version", "state", "enabled", "faults / last error")
        self.heads = [t.label(h, font_size=10, bold=True, color=palette.XP) for h in heads]
        self.cells = [[t.label("", font_size=11, font_name=narrow) for _ in COLUMNS] for _ in range(MAX_ROWS)]
        self.banner = t.label("", font_size=11, bold=True, color=STATE_COLOURS[ModState.QUARANTINED])
        self.detail = t.label("", font_size=10, font_name=narrow, color=palette.TEXT)
        self.error = t.label(
            "",
            font_size=10,
            font_name=narrow,
            color=palette.WARN,
            multiline=True,
            width=int(PANEL_W - 48),
            anchor_y="top",
        )
        self.logs = [
            t.label("", font_size=9, font_name=palette.FONT_MONO, color=palette.TEXT_DIM)
            for _ in range(LOG_LINES)
        ]
        self.foot = t.label(
            "Up/Down select    Enter/Space enable or disable    R reload    Esc close",
            font_size=10,
            anchor_x="center",
            color=palette.TEXT_DIM,
        )

    # ------------------------------------------------------------------ data and actions
    def refresh(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._refreshed < REFRESH_S:
            return
        self._refreshed = now
        try:
            self.rows = self.mods.status()
        except CoreAIError as exc:
            log.error("mod status failed: {}", exc)
        self.selected = min(self.selected, max(0, len(self.rows) - 1))
        row = self.current()
        try:
            self.log_lines = [str(e) for e in self.mods.logs(row.name, limit=LOG_LINES)] if row else []
        except CoreAIError:
            self.log_lines = []

    def current(self) -> ModStatus | None:
        return self.rows[self.selected] if 0 <= self.selected < len(self.rows) else None

    def toggle(self) -> None:
        row = self.current()
        if row is None:
            return
        if row.enabled and row.state is not ModState.QUARANTINED:
            self._act(row, "disabled", self.mods.disable)
        else:  # off, or quarantined: enabling starts it again
            self._act(row, "enabled", self.mods.enable)

    def reload(self) -> None:
        row = self.current()
        if row is not None:
            self._act(row, "reloaded", self.mods.reload)

    def _act(self, row: ModStatus, done: str, action: Callable[[str], ModStatus]) -> None:
        try:
            status = action(row.name)
        except CoreAIError as exc:
            self.toast(f"mod {row.name}: {exc}", 4.0, palette.WARN)
        else:
            ok = status.state not in (ModState.FAULTED, ModState.QUARANTINED, ModState.INVALID)
            extra = "" if ok else f" ({status.state.value}: {status.last_error or 'see its log'})"
            self.toast(f"mod {row.name} {done}{extra}", 3.0, palette.GOOD if ok else palette.WARN)
        self.refresh(force=True)

    def on_key(self, symbol: int, modifiers: int) -> bool:
        k = arcade.key
        if symbol == k.ESCAPE:
            self.visible = False
        elif symbol in (k.UP, k.DOWN):
            step = -1 if symbol == k.UP else 1
            self.selected = min(max(0, len(self.rows) - 1), max(0, self.selected + step))
            self.refresh(force=True)
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER, k.SPACE):
            self.toggle()
        elif symbol == k.R:
            self.reload()
        else:
            return False
        return True

    # ------------------------------------------------------------------ drawing
    def draw(self, width: float, height: float) -> None:
        self.refresh()
        shown = self.rows[:MAX_ROWS]
        panel_h = 150 + ROW_H * max(1, len(shown)) + 40 + 18 * LOG_LINES
        left, bottom = (width - PANEL_W) / 2, (height - panel_h) / 2
        top = bottom + panel_h
        rects: list[Rect] = [(0, 0, width, height, Color(0, 0, 0, 110))]
        rects += panel_rects(left, bottom, PANEL_W, panel_h, PANEL_FILL, palette.PANEL_EDGE)
        x0 = left + 24
        self.title.move(x0, top - 40)
        n_q = sum(r.state is ModState.QUARANTINED for r in self.rows)
        n_on = sum(r.running for r in self.rows)
        self.summary.set(f"{len(self.rows)} mods, {n_on} running" + (f", {n_q} quarantined" if n_q else ""))
        self.summary.move(left + PANEL_W - 24, top - 36)
        y = top - 72
        for lbl, dx in zip(self.heads, COLUMNS, strict=True):
            lbl.move(x0 + dx, y)
        for i, cells in enumerate(self.cells):
            row = shown[i] if i < len(shown) else None
            ry = y - ROW_H * (i + 1)
            if row is None:
                for c in cells:
                    c.set("")
                continue
            if i == self.selected:
                rects.append((left + 12, ry - 6, PANEL_W - 24, ROW_H, SELECTED))
            colour = STATE_COLOURS.get(row.state, palette.TEXT)
            faults = f"{row.faults}  " + (clip(row.last_error, 40) if row.last_error else "-")
            values = (
                "\u25b6" if i == self.selected else "",
                clip(f"{row.name} ({'shipped' if row.shipped else 'user'})", 28),
                row.version or "-",
                row.state.value.upper(),
                "[x] on" if row.enabled else "[ ] off",
                faults,
            )
            for c, dx, v in zip(cells, COLUMNS, values, strict=True):
                c.set(v)
                c.move(x0 + dx, ry)
            cells[3].set_color(colour)
            cells[4].set_color(palette.GOOD if row.enabled else palette.TEXT_DIM)
            cells[5].set_color(palette.WARN if row.last_error else palette.TEXT_DIM)
        if not shown:
            self.cells[0][1].set("no mods found (assets/mods/ and saves/mods/)")
            self.cells[0][1].move(x0 + COLUMNS[1], y - ROW_H)
        y -= ROW_H * (max(1, len(shown)) + 1) + 14
        self._draw_detail(x0, y)
        self.foot.move(width / 2, bottom + 14)
        key = tuple((round(a), round(b), round(c), round(d), tuple(e)) for a, b, c, d, e in rects)
        self.shapes.draw(key, lambda: [s for s in [rects_shape(rects)] if s])
        self.text.draw()

    def _draw_detail(self, x0: float, y: float) -> None:
        row = self.current()
        if row is None:
            for lbl in (self.banner, self.detail, self.error, *self.logs):
                lbl.set("")
            return
        if row.state is ModState.QUARANTINED:
            self.banner.set(f"{row.name} is QUARANTINED after {row.faults} faults: Enter starts it again")
        else:
            self.banner.set("")
        self.banner.move(x0, y)
        y -= 18 if self.banner.value else 0
        active = f"v{row.active_version}" if row.active_version is not None else "-"
        self.detail.set(
            clip(
                f"{row.title or row.name} {row.version} by {row.author or '?'}: {row.description}   "
                f"({'shipped with the game' if row.shipped else 'your mod: ' + row.path}; "
                f"running: {'yes' if row.running else 'no'}, active version {active})",
                130,
            )
        )
        self.detail.move(x0, y)
        y -= 8
        self.error.set(clip(f"last error: {row.last_error}", 220) if row.last_error else "")
        self.error.move(x0, y)
        y -= (self.error.text.content_height + 4) if row.last_error else 0
        entries = self.log_lines
        for i, lbl in enumerate(self.logs):
            lbl.set(clip(entries[i], 120) if i < len(entries) else "")
            lbl.move(x0, y - 16 * (i + 1))
