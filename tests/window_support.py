"""Shared by the window tests: ONE arcade window for the whole session (creating GL windows is slow and
fragile), a fresh ``GameApp`` per test, and helpers to drive frames, send input through the window's event
dispatch and read pixels back. The fixtures (``window``, ``make_app``, ``session``) are in
tests/conftest.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np
from PIL import Image

from game.app import GameApp
from game.audio import Audio
from game.options import LaunchOptions
from game.sim.config import DT

_WINDOW: list[arcade.Window] = []


def shared_window() -> arcade.Window:
    """The session's window, created on first use (several test modules import the fixture)."""
    if not _WINDOW:
        _WINDOW.append(arcade.Window(1280, 720, "Arena Director tests"))
    return _WINDOW[0]


W, H = 1280, 720


class Recorder:
    """Stands in for the speakers: records which cues would play."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def __call__(self, name: str, volume: float) -> None:
        self.played.append(name)


FINISHED: list[GameApp] = []  # apps whose on_finish callback ran (run_window closes the window there)


def app_factory(window: arcade.Window) -> Iterator[Callable[..., GameApp]]:
    """Body of the ``make_app`` fixture (tests/conftest.py): a fresh ``GameApp`` per call on ``window``."""
    FINISHED.clear()

    def make(**options: Any) -> GameApp:
        app = GameApp(
            LaunchOptions(**options),
            window,
            audio=Audio(player=Recorder()),
            on_finish=lambda: FINISHED.append(app),
        )
        app.start()
        return app

    yield make
    window.hide_view()
    window.default_camera.use()


def sounds(app: GameApp) -> list[str]:
    player = app.audio.player
    assert isinstance(player, Recorder)
    return player.played


def frames(app: GameApp, n: int, dt: float = DT) -> None:
    for _ in range(n):
        view = app.window.current_view
        assert view is not None
        view.on_update(dt)


def render(app: GameApp) -> Image.Image:
    view = app.window.current_view
    assert view is not None
    view.on_draw()
    return arcade.get_image().convert("RGB")


def px(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    """The pixel at window coordinates (origin bottom left, like arcade)."""
    r, g, b = img.getpixel((int(x), H - 1 - int(y)))  # type: ignore[misc]
    return int(r), int(g), int(b)


def region(img: Image.Image, x: float, y: float, half: int) -> np.ndarray:
    arr = np.asarray(img)
    cx, cy = int(x), H - 1 - int(y)
    return arr[cy - half : cy + half, cx - half : cx + half].reshape(-1, 3).astype(int)


def close(c: tuple[int, int, int], want: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, want, strict=True))


def send(app: GameApp, event: str, *args: Any) -> None:
    """Queue a window event the way pyglet's platform layer does, then let the window dispatch it."""
    app.window.dispatch_event(event, *args)
    app.window.dispatch_events()


def press(app: GameApp, symbol: int) -> None:
    send(app, "on_key_press", symbol, 0)
    send(app, "on_key_release", symbol, 0)


def start_arena(make_app: Callable[..., GameApp], **options: Any) -> GameApp:
    app = make_app(seed=options.pop("seed", 1), **options)
    app.new_run()
    frames(app, 2)
    return app


def force_upgrade(app: GameApp) -> None:
    world = app.world
    assert world is not None
    world.wave_time_left = DT / 2  # the wave ends on the next tick
    frames(app, 3)
