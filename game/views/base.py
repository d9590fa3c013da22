"""The base of every screen: routes keys to panels first, then to the view, then to the hotkey registry;
draws the shared chrome (panels, toasts) above the view; and takes a requested screenshot after drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
from arcade.types import Color

if TYPE_CHECKING:
    from game.ports import Chrome


class AppView(arcade.View):
    # the colour the frame is cleared to; screens that draw the arena use the floor colour (the floor draws
    # no full-arena quad, game.render.floor). None: the window's background colour
    clear_color: Color | None = None

    def __init__(self, app: Chrome) -> None:
        super().__init__(app.window)
        self.app = app  # the game as this screen may use it: a port of game.ports (GameApp implements them)

    # ------------------------------------------------------------------ to override
    def draw_content(self) -> None:
        """Draw the screen (below panels and toasts)."""

    def update_content(self, dt: float) -> None:
        """Advance the screen by one frame."""

    def handle_key(self, symbol: int, modifiers: int) -> bool:
        """Screen-specific keys; return True to stop the hotkey registry from seeing the key."""
        return False

    # ------------------------------------------------------------------ arcade events
    def on_draw(self) -> None:
        self.app.fps.tick()
        self.clear(color=self.clear_color)
        self.draw_content()
        self.window.default_camera.use()
        self.app.draw_chrome()
        self.app.capture_screenshot_if_requested()

    def on_update(self, delta_time: float) -> None:
        self.update_content(delta_time)
        self.app.update_chrome(delta_time)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if self.app.overlays.on_key(symbol, modifiers):
            return
        if self.handle_key(symbol, modifiers):
            return
        self.app.hotkeys.dispatch(symbol)

    def on_text(self, text: str) -> None:
        self.app.overlays.on_text(text)
