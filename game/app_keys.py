"""The window's own hotkeys (F1 help, pause, F12 screenshot, F5 restart, fullscreen, mute, FPS) and the
player's key bindings applied live (the options screen's rebinding): the arena's input, the pause hotkey and
the labels in the F1 help."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import arcade

from coreai.settings import KeyBindings
from game import hotkeys as hk
from game.controls import Controls, key_label
from game.hotkeys import HotkeyRegistry
from game.views.input import HumanInput

MOVES = ("move_up", "move_left", "move_down", "move_right")


class KeyedArena(Protocol):
    """The arena as the key bindings reach it: its input and the pause screen's key label."""

    @property
    def input(self) -> HumanInput: ...

    def set_pause_label(self, keys: str) -> None: ...


def bind_window_hotkeys(
    r: HotkeyRegistry,
    *,
    help: Callable[[], object],
    pause: Callable[[], None],
    screenshot: Callable[[], None],
    restart: Callable[[], None],
    fullscreen: Callable[[], None],
    mute: Callable[[], None],
    fps: Callable[[], None],
) -> None:
    r.set_handler(hk.HELP, help)
    for k in hk.PAUSE_KEYS:
        r.set_handler(k, pause)
    r.set_handler(hk.SCREENSHOT, screenshot)
    r.set_handler(hk.RESTART, restart)
    r.set_handler(hk.FULLSCREEN, fullscreen)
    r.set_handler(hk.MUTE, mute)
    r.set_handler(hk.FPS, fps)


def apply_key_bindings(
    bindings: KeyBindings,
    hotkeys: HotkeyRegistry,
    arena: KeyedArena,
    pause_keys: tuple[int, ...],
    toggle_pause: Callable[[], None],
) -> tuple[int, ...]:
    """Use these key bindings now; returns the pause keys in use."""
    controls = Controls(bindings)
    arena.input.controls = controls
    arena.input.clear()
    pause = (*controls.keys("pause"), arcade.key.ESCAPE)
    if pause != pause_keys:
        for k in pause_keys:
            hotkeys.unregister(k)
        hotkeys.register(pause, "Pause / resume", toggle_pause)
    labels = {
        "Move": " ".join(key_label((getattr(bindings, a) or ["?"])[0]) for a in MOVES),
        "Shoot (hold)": f"Left mouse / {controls.label('shoot')}",
        "Dash (brief invulnerability)": controls.label("dash"),
    }
    for entry in hotkeys.entries:
        if entry.kind == "control" and entry.description in labels:
            entry.label = labels[entry.description]
    hotkeys.version += 1
    arena.set_pause_label(controls.label("pause"))
    return pause
