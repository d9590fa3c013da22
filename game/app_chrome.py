"""``GameApp``'s chrome (``game.ports.Chrome``): toasts, panels and their hotkeys, the docked panels' width,
the UI camera, screenshots, and the window toggles (fullscreen, mute, FPS line) the hotkeys call."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import arcade
from arcade.types import Color
from loguru import logger

from coreai.errors import CoreAIError
from game.audio import Audio
from game.hotkeys import HotkeyRegistry
from game.prefs import GamePrefs
from game.render import palette
from game.render.overlays import Overlay, OverlayStack
from game.render.toasts import Toasts
from game.screenshots import write_framebuffer_png

log = logger.bind(feature="game", trace_id=None)


class AppChrome:
    """Mixed into ``GameApp``, which sets these attributes in its ``__init__``."""

    window: arcade.Window
    prefs: GamePrefs
    audio: Audio
    hotkeys: HotkeyRegistry
    overlays: OverlayStack
    toasts: Toasts
    pause_on_overlay: bool
    show_fps: bool
    chrome_hooks: list[Callable[[float], None]]
    last_screenshot: Path | None
    _screenshot_requested: bool
    _ui_camera: arcade.Camera2D | None

    def show_toast(self, text: str, seconds: float = 3.0, color: Color = palette.TEXT) -> None:
        """A short notice under the HUD (announcer lines, mod notices). Safe from any thread."""
        self.toasts.show(text, seconds, color)

    def add_panel(
        self, panel: Overlay, key: int | None = None, description: str = "", *, under: bool = False
    ) -> Overlay:
        """Draw ``panel`` above the screen (``under``: below every other panel); with ``key``, that hotkey
        toggles it. Registering a reserved key (F6, F7, F9, F10, backtick) replaces its help's "coming"."""
        if under:
            self.overlays.items.insert(0, panel)
        else:
            self.overlays.add(panel)
        if key is not None:
            self.hotkeys.register(
                key, description or type(panel).__name__, lambda: self.overlays.toggle(panel)
            )
        return panel

    def dock_width(self) -> float:
        """Pixels the docked panels (F10) take on the right edge now; a panel docks by defining
        ``dock_width(window_width) -> float``."""
        w = float(self.window.width)
        docked = 0.0
        for o in self.overlays.items:
            fn = getattr(o, "dock_width", None)
            if o.visible and callable(fn):
                docked += float(fn(w))
        return min(docked, w * 0.5)

    def play_width(self) -> float:
        """The width of the play area (arena, HUD, upgrade cards, toasts): the window less the dock."""
        return float(self.window.width) - self.dock_width()

    def holding_overlay(self) -> Overlay | None:
        """The modal panel that holds the arena now (None: the game runs). See ``game.render.overlays``."""
        return self.overlays.modal() if self.pause_on_overlay else None

    def set_pause_on_overlay(self, on: bool) -> None:
        """[game] pause_on_overlay: a visible modal panel holds the arena."""
        self.pause_on_overlay = on

    def owns_current_view(self) -> bool:
        return getattr(self.window.current_view, "app", None) is self

    def on_chrome(self, hook: Callable[[float], None]) -> None:
        self.chrome_hooks.append(hook)

    def use_ui_camera(self) -> float:
        """Switch to the camera that draws the HUD at the player's UI scale; returns the scale (the HUD lays
        itself out in window size / scale)."""
        scale = self.prefs.settings.ui_scale
        if abs(scale - 1.0) < 1e-3:
            return 1.0
        cam = self._ui_camera
        if cam is None:
            cam = self._ui_camera = arcade.Camera2D()
        cam.match_window()
        w, h = self.window.width, self.window.height
        cam.zoom = scale
        cam.position = (w / (2 * scale), h / (2 * scale))
        cam.use()
        return scale

    # ------------------------------------------------------------------ window toggles (hotkeys, options)
    def set_fullscreen(self, on: bool) -> None:
        try:
            self.window.set_fullscreen(on)
        except Exception as exc:  # headless or a display that refuses: stay windowed
            self.show_toast(f"fullscreen unavailable: {exc}", 3.0, palette.WARN)

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.window.fullscreen)

    def toggle_fps(self) -> None:
        self.show_fps = not self.show_fps

    def toggle_mute(self) -> None:
        on = self.audio.toggle_mute()
        self.show_toast("sound on" if on else "sound off", 1.5)

    # ------------------------------------------------------------------ screenshots
    def request_screenshot(self) -> None:
        """Save the next drawn frame to ``saves/screenshots/`` (taken right after drawing, main thread)."""
        self._screenshot_requested = True

    def capture_screenshot_if_requested(self) -> Path | None:
        if not self._screenshot_requested:
            return None
        self._screenshot_requested = False
        try:
            path = self.save_screenshot()
        except (CoreAIError, OSError, ValueError) as exc:
            log.error("screenshot failed: {}", exc)
            self.show_toast(f"screenshot failed: {exc}", 4.0, palette.WARN)
            return None
        self.show_toast(f"screenshot saved: {path.name}", 2.5, palette.GOOD)
        return path

    def save_screenshot(self, path: Path | None = None) -> Path:
        """Write the current framebuffer as a PNG; call after drawing a frame."""
        self.last_screenshot = write_framebuffer_png(path)
        return self.last_screenshot

    # ------------------------------------------------------------------ drawn by every view
    def draw_chrome(self) -> None:
        w, h = self.window.width, self.window.height
        play = self.play_width()
        self.toasts.right = play
        self.overlays.draw(w, h, play)  # panels other than the docked F10 stay in the play area
        self.toasts.draw(w, h)  # above the panels: a notice is never hidden by an open console

    def update_chrome(self, dt: float) -> None:
        for hook in list(self.chrome_hooks):
            try:
                hook(dt)
            except Exception as exc:  # a faulty hook is logged, never fatal to the frame
                log.opt(exception=exc).error("chrome hook failed: {}", exc)
        self.toasts.update(dt)
