"""The window's own hotkeys (F1 help, pause, F12 screenshot, F5 restart, fullscreen, mute, FPS) and the
player's key bindings applied live (the options screen's rebinding): the arena's input, the pause hotkey and
the labels in the F1 help."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from coreai.settings import KeyBindings
from game import hotkeys as hk
from game.controls import Controls, key_label

if TYPE_CHECKING:
    from game.app import GameApp

MOVES = ("move_up", "move_left", "move_down", "move_right")


def bind_window_hotkeys(app: GameApp) -> None:
    r = app.hotkeys
    r.set_handler(hk.HELP, lambda: app.overlays.toggle(app.help))
    for k in hk.PAUSE_KEYS:
        r.set_handler(k, app.toggle_pause)
    r.set_handler(hk.SCREENSHOT, app.request_screenshot)
    r.set_handler(hk.RESTART, app.new_run)
    r.set_handler(hk.FULLSCREEN, app.toggle_fullscreen)
    r.set_handler(hk.MUTE, app.toggle_mute)
    r.set_handler(hk.FPS, app.toggle_fps)


def apply_key_bindings(app: GameApp, bindings: KeyBindings) -> None:
    """Use these key bindings now."""
    controls = Controls(bindings)
    app.arena.input.controls = controls
    app.arena.input.clear()
    pause = (*controls.keys("pause"), arcade.key.ESCAPE)
    if pause != app.pause_keys:
        for k in app.pause_keys:
            app.hotkeys.unregister(k)
        app.hotkeys.register(pause, "Pause / resume", app.toggle_pause)
        app.pause_keys = pause
    labels = {
        "Move": " ".join(key_label((getattr(bindings, a) or ["?"])[0]) for a in MOVES),
        "Shoot (hold)": f"Left mouse / {controls.label('shoot')}",
        "Dash (brief invulnerability)": controls.label("dash"),
    }
    for entry in app.hotkeys.entries:
        if entry.kind == "control" and entry.description in labels:
            entry.label = labels[entry.description]
    app.hotkeys.version += 1
    app.arena.set_pause_label(controls.label("pause"))
