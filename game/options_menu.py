"""The rows of the options screen, as plain logic (the view only draws them and forwards keys).

Each row shows a value and changes with Left/Right (``adjust``) or Enter (``activate``); a key row waits for
the next key press (``rebind``). Every change goes through ``GamePrefs`` (saved at once, only that key) and
``GamePrefs.apply_to`` (used at once: volume, fullscreen, bindings...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.controls import ACTIONS, LABELS, Controls
from game.director.tuning import preset_names

if TYPE_CHECKING:
    from game.ports import OptionsTarget

VOLUME_STEP = 0.1
VOLUME_LABELS = {
    "master_volume": "Master volume",
    "music_volume": "Music volume",
    "sfx_volume": "Sound effects",
}
QUALITIES = {"auto": "auto (lowers itself when slow)", "high": "high", "low": "low"}
UI_SCALES = (0.75, 0.875, 1.0, 1.125, 1.25, 1.375, 1.5)


@dataclass
class Row:
    label: str
    value: Callable[[], str]
    adjust: Callable[[int], None] | None = None  # -1 / +1
    rebind: str | None = None  # the action whose primary key Enter rebinds

    def activate(self) -> None:
        if self.adjust is not None:
            self.adjust(+1)


class OptionsMenu:
    def __init__(self, app: OptionsTarget) -> None:
        self.app = app
        self.selected = 0
        self.waiting_for: str | None = None  # the action waiting for a key
        self.message = ""
        self.rows = self._rows()

    @property
    def settings(self) -> Any:
        return self.app.prefs.settings

    def _set(self, **values: Any) -> None:
        error = self.app.prefs.change(**values)
        self.app.prefs.apply_to(self.app)
        self.message = error or "saved"

    def _volume(self, key: str) -> Row:
        def adjust(d: int) -> None:
            value = round(min(1.0, max(0.0, getattr(self.settings, key) + d * VOLUME_STEP)), 2)
            self._set(**{key: value})

        return Row(VOLUME_LABELS[key], lambda: f"{getattr(self.settings, key):.0%}", adjust)

    def _toggle(self, label: str, key: str) -> Row:
        return Row(
            label,
            lambda: "on" if getattr(self.settings, key) else "off",
            lambda d: self._set(**{key: not getattr(self.settings, key)}),
        )

    def _rows(self) -> list[Row]:
        def scale(d: int) -> None:
            now = min(range(len(UI_SCALES)), key=lambda i: abs(UI_SCALES[i] - self.settings.ui_scale))
            self._set(ui_scale=UI_SCALES[max(0, min(len(UI_SCALES) - 1, now + d))])

        def quality(d: int) -> None:
            names = list(QUALITIES)
            self._set(graphics_quality=names[(names.index(self.settings.graphics_quality) + d) % len(names)])

        def difficulty(d: int) -> None:
            names = list(preset_names())
            self._set(difficulty=names[(names.index(self.settings.difficulty) + d) % len(names)])

        rows = [
            self._volume("master_volume"),
            self._volume("music_volume"),
            self._volume("sfx_volume"),
            self._toggle("Fullscreen", "fullscreen"),
            self._toggle("Screen shake", "screen_shake"),
            self._toggle("Damage flash", "damage_flash"),
            Row("UI scale", lambda: f"{self.settings.ui_scale:.0%}", scale),
            Row("Graphics quality", lambda: QUALITIES[self.settings.graphics_quality], quality),
            Row("Difficulty", lambda: preset_names()[self.settings.difficulty], difficulty),
            self._toggle("Gamepad", "gamepad"),
            self._toggle("Pause when the window loses focus", "pause_on_focus_loss"),
        ]
        rows += [Row(LABELS[a], self._key_label(a), None, rebind=a) for a in ACTIONS]
        return rows

    def _key_label(self, action: str) -> Callable[[], str]:
        return lambda: self._controls().label(action)

    def _controls(self) -> Controls:
        return self.app.input.controls

    # ------------------------------------------------------------------ input
    def move(self, d: int) -> None:
        self.selected = (self.selected + d) % len(self.rows)

    def adjust(self, d: int) -> None:
        row = self.rows[self.selected]
        if row.adjust is not None:
            row.adjust(d)

    def activate(self) -> None:
        row = self.rows[self.selected]
        if row.rebind is not None:
            self.waiting_for = row.rebind
            self.message = f"press a key for {row.label} (Esc cancels)"
        else:
            row.activate()

    def key_for_rebind(self, code: int) -> None:
        """The key pressed while a key row waits (the view passes Esc as a cancel)."""
        action, self.waiting_for = self.waiting_for, None
        if action is None:
            return
        bindings = self._controls().rebind(action, code)
        if bindings is None:
            self.message = "that key belongs to the menus and hotkeys; pick another"
            return
        error = self.app.prefs.set_keys(bindings)
        self.app.apply_controls(bindings)
        self.message = error or f"{LABELS[action]}: {self._controls().label(action)} (saved)"

    def cancel_rebind(self) -> None:
        self.waiting_for = None
        self.message = "unchanged"
