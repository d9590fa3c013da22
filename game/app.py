"""The windowed game: one ``GameApp`` owns the window's screens (title → arena ⇄ upgrade pick → game
over), the hotkey registry, sound, panels, toasts, screenshots and saves.

``run_window(options)`` opens the window and plays until it closes (or, with ``options.seconds``, until that
much game time has passed) and returns the last run's summary. Other parts plug in through ``on_ready``::

    def wire(app: GameApp) -> None:
        app.world_factory = lambda seed: World(seed=seed, spawner=director.spawner)
        app.arena.frame_hooks.append(lambda world, dt: queue.drain())  # world commands, while playing
        app.chrome_hooks.append(lambda dt: queue.drain_ui())  # panel answers and notices, every screen
        app.arena.run_start_hooks.append(lambda world: setattr(handle, "world", world))
        app.arena.activity_source = lambda: orchestrator.status_line()
        app.add_panel(director_panel, arcade.key.F10, "Director panel")
        app.show_toast("Director online")

    run_window(options, on_ready=wire)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import arcade
from arcade.types import Color
from loguru import logger

from coreai.errors import CoreAIError
from coreai.settings import GameSettings, KeyBindings
from game import hotkeys as hk
from game.app_keys import apply_key_bindings, bind_window_hotkeys
from game.audio import Audio
from game.controls import Gamepad
from game.headless import RunSummary, summarize
from game.meta import attach_meta
from game.options import LaunchOptions
from game.prefs import GamePrefs
from game.render import palette
from game.render.overlays import HelpOverlay, Overlay, OverlayStack
from game.render.quality import FrameGovernor
from game.render.toasts import Toasts
from game.run_records import RunRecords
from game.screenshots import write_framebuffer_png
from game.sim.config import SCREEN_H, SCREEN_W
from game.sim.prefabs import PrefabRegistry
from game.sim.world import World
from game.views.arena import ArenaView
from game.views.base import FpsMeter
from game.views.gameover import GameOverView, RunAnalysisView
from game.views.title import TitleView
from game.views.upgrade import UpgradeView
from game.zoo import make_player

log = logger.bind(feature="game", trace_id=None)

WorldFactory = Callable[[int], World]
TITLE = "Arena Director"


def default_world(seed: int) -> World:
    return World(seed=seed)


class GameApp:
    def __init__(
        self,
        options: LaunchOptions,
        window: arcade.Window,
        *,
        world_factory: WorldFactory | None = None,
        audio: Audio | None = None,
        on_finish: Callable[[], None] | None = None,
        prefs: GamePrefs | None = None,
    ) -> None:
        self.options = options
        self.window = window
        self.prefs = prefs or GamePrefs()  # [game] settings: the options screen edits and saves them
        window.background_color = palette.BACKGROUND
        arcade.resources.load_kenney_fonts()  # the heading font (palette.FONT_DISPLAY)
        self.time_limit: float | None = options.seconds
        self.world_factory: WorldFactory = world_factory or default_world
        self.on_finish = on_finish
        self.hotkeys = hk.default_registry()
        self.hotkeys.on_error = lambda entry, exc: self.show_toast(
            f"{entry.label} failed: {exc}", 4.0, palette.WARN
        )
        self.audio = audio or Audio(muted=options.mute)
        self.overlays = OverlayStack()
        self.help = HelpOverlay(self.hotkeys)
        self.overlays.add(self.help)
        self.toasts = Toasts()
        self.fps = FpsMeter()  # frames actually drawn per second, any screen
        self.arena = ArenaView(self)
        self.upgrade = UpgradeView(self)
        self.title: TitleView | None = None
        self.summary: RunSummary | None = None  # the last finished (or time-limited) run
        self.recorded = False  # whether ``summary`` was written to the saves
        self.finished = False
        self.runs_started = 0
        self.seed: int | None = None
        self.last_screenshot: Path | None = None
        self._screenshot_requested = False
        self.show_fps = True  # F3: the HUD's FPS / enemy-count line
        self.records = RunRecords(self.show_toast)  # the saves folder and the hooks told of finished runs
        self.record_hooks = self.records.hooks
        # After the last upgrade pick of a break: may show a screen of its own (the Merchant's shop) and
        # return True; that screen calls ``resume_arena`` when it is done.
        self.after_upgrade: Callable[[], bool] | None = None
        # The game-over screen's run analysis (the AI wiring sets it; None: no analysis panel).
        self.run_analysis: Callable[[RunSummary], RunAnalysisView] | None = None
        # [game] pause_on_overlay: a visible modal panel (console, F7, help, chat, options) holds the arena.
        # The AI panels set it from the settings file; the options screen may flip it live.
        self.pause_on_overlay = True
        # [game] graphics_quality: particles, glow and vignette; "auto" lowers them on a slow machine
        self.governor = FrameGovernor(self.prefs.settings.graphics_quality)
        bind_window_hotkeys(self)
        self.pause_keys: tuple[int, ...] = hk.PAUSE_KEYS
        self._ui_camera: arcade.Camera2D | None = None
        self.arena.input.gamepad = Gamepad(self.prefs.settings.gamepad)
        # told after the options change (the AI session follows the difficulty preset)
        self.prefs_hooks: list[Callable[[GameSettings], None]] = []
        # run every frame on every screen, paused or not (the AI panels drain the UI lane here)
        self.chrome_hooks: list[Callable[[float], None]] = []
        self.prefs.apply_to(self, fullscreen=False)  # the window was opened with the fullscreen option
        self.meta = attach_meta(self)  # achievements unlock weapons for the player's later runs

    # ------------------------------------------------------------------ public API for other parts
    def show_toast(self, text: str, seconds: float = 3.0, color: Color = palette.TEXT) -> None:
        """A short notice under the HUD (announcer lines, mod notices). Safe from any thread."""
        self.toasts.show(text, seconds, color)

    def add_panel(self, panel: Overlay, key: int | None = None, description: str = "") -> Overlay:
        """Draw ``panel`` above the HUD; with ``key``, that hotkey toggles it.

        Registering a reserved key (F6, F7, F9, F10, backtick) replaces its "coming" entry in the help.
        """
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

    @property
    def demo_badge(self) -> str:
        return f"DEMO  -  bot: {self.options.bot}" if self.options.bot else ""

    @property
    def world(self) -> World | None:
        return self.arena.world

    # ------------------------------------------------------------------ flow between screens
    def start(self) -> None:
        for warning in self.saves_warnings():
            self.show_toast(warning, 8.0, palette.WARN)
        if self.prefs.warning:
            self.show_toast(self.prefs.warning, 8.0, palette.WARN)
        self.audio.start_music()
        if self.options.frozen:  # an MCP agent plays: its run starts at once, frozen until it steps
            self.new_run()
        else:
            self.show_title()

    def show_title(self) -> None:
        if self.title is None:
            try:
                sprites = [p.sprite for p in (PrefabRegistry.load().by_index(i) for i in range(5))]
            except (CoreAIError, IndexError):
                sprites = [":resources:images/enemies/slimeGreen.png"]
            self.title = TitleView(self, sprites, best_score=self.records.best_score())
        self.window.show_view(self.title)

    def _next_seed(self) -> int:
        if self.options.seed is not None:
            return self.options.seed
        return random.randrange(1_000_000)

    def new_run(self, seed: int | None = None) -> None:
        """Start a fresh run (title, game over, F5; ``seed``: an MCP agent's replay or fork)."""
        self.seed = self._next_seed() if seed is None else seed
        try:
            world = self.world_factory(self.seed)
        except Exception as exc:  # a broken plug-in factory must not end the game: fall back to the default
            log.opt(exception=exc).error("world factory failed, using the default world: {}", exc)
            self.show_toast(f"custom world failed ({exc}); playing the default arena", 6.0, palette.WARN)
            world = default_world(self.seed)
        if self.options.waves is not None:  # --waves N: a shorter run, won by surviving wave N
            world.final_wave = self.options.waves
        bot = make_player(self.options.bot, self.seed) if self.options.bot else None
        self.arena.start_run(world, bot)
        self.summary = None
        self.recorded = False
        self.runs_started += 1
        log.info("run {} started (seed {}, bot {})", self.runs_started, self.seed, self.options.bot)
        self.window.show_view(self.arena)

    def show_upgrade(self) -> None:
        if self.window.current_view is not self.upgrade:
            self.window.show_view(self.upgrade)

    def resume_arena(self) -> None:
        if self.window.current_view is self.upgrade and self.after_upgrade is not None:
            try:
                if self.after_upgrade():
                    return
            except Exception as exc:  # a broken shop must not stop the next wave
                log.opt(exception=exc).error("after-upgrade step failed: {}", exc)
        if self.window.current_view is not self.arena:
            self.window.show_view(self.arena)

    def current_summary(self) -> RunSummary | None:
        world = self.arena.world
        if world is None:
            return None
        return summarize(world, max(self.arena.wall_s, 1e-6), self.options.bot)

    def run_over(self) -> None:
        """The run ended (the player died, or survived the final wave): record it and show the game-over or
        victory screen (with ``options.seconds``, the timed session ends here instead)."""
        summary = self.current_summary()
        if summary is None:
            return
        if self.time_limit is not None:
            self.time_up()
            return
        rank = self._record(summary)
        view = GameOverView(
            self,
            summary,
            rank=rank,
            high_scores=self.records.high_scores(bots=summary.bot is not None),
            warnings=self.saves_warnings(),
            reason="won" if summary.won else "died",
            bots=summary.bot is not None,
        )
        self.window.show_view(view)

    def time_up(self) -> None:
        """The timed session (``options.seconds``) is over, by time or by death: record the run and call
        ``on_finish`` (``run_window`` closes the window there)."""
        if self.finished:
            return
        summary = self.current_summary()
        if summary is not None and not self.recorded:
            self._record(summary)
        self.finished = True
        log.info("timed session over after {:.1f}s of game time", summary.seconds if summary else 0.0)
        if self.on_finish is not None:
            self.on_finish()

    def result(self) -> RunSummary | None:
        """What ``run_window`` returns: the last run's summary (the run in progress if the window closed)."""
        if self.summary is not None:
            return self.summary
        return self.current_summary()

    # ------------------------------------------------------------------ saves (game/run_records.py)
    def _record(self, summary: RunSummary) -> int | None:
        self.summary = summary
        self.recorded, rank = self.records.record(summary)
        return rank

    def saves_warnings(self) -> list[str]:
        return self.records.warnings()

    # ------------------------------------------------------------------ options
    def show_options(self) -> None:
        """The options screen; Esc returns to the screen it was opened from (the arena stays paused)."""
        from game.views.options import OptionsView

        back = self.window.current_view
        if isinstance(back, OptionsView):
            return
        if back is self.arena:
            self.arena.set_paused(True)
        self.window.show_view(OptionsView(self, back))

    def apply_controls(self, bindings: KeyBindings) -> None:
        """Use these key bindings now (game/app_keys.py)."""
        apply_key_bindings(self, bindings)

    def set_fullscreen(self, on: bool) -> None:
        try:
            self.window.set_fullscreen(on)
        except Exception as exc:  # headless or a display that refuses: stay windowed
            self.show_toast(f"fullscreen unavailable: {exc}", 3.0, palette.WARN)

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

    def toggle_pause(self) -> None:
        if self.window.current_view is self.arena:
            self.arena.toggle_pause()

    def toggle_fullscreen(self) -> None:
        try:
            self.window.set_fullscreen(not self.window.fullscreen)
        except Exception as exc:  # headless or a display that refuses: stay windowed
            self.show_toast(f"fullscreen unavailable: {exc}", 3.0, palette.WARN)

    def toggle_fps(self) -> None:
        self.show_fps = not self.show_fps

    def toggle_mute(self) -> None:
        on = self.audio.toggle_mute()
        self.show_toast("sound on" if on else "sound off", 1.5)

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

    # ------------------------------------------------------------------ chrome (drawn by every view)
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


def run_window(
    options: LaunchOptions,
    *,
    world_factory: WorldFactory | None = None,
    on_ready: Callable[[GameApp], None] | None = None,
) -> RunSummary | None:
    """Open the game window, play, and return the last run's summary (None if no run was started)."""
    prefs = GamePrefs()
    fullscreen = options.fullscreen or prefs.settings.fullscreen
    window = arcade.Window(SCREEN_W, SCREEN_H, TITLE, fullscreen=fullscreen, resizable=True, vsync=True)
    window.set_minimum_size(960, 600)
    app = GameApp(options, window, world_factory=world_factory, on_finish=window.close, prefs=prefs)
    if on_ready is not None:
        on_ready(app)
    app.start()
    _close_on_sigterm(window)
    try:
        arcade.run()
    finally:
        if not app.finished:
            app.finished = True
    return app.result()


def _close_on_sigterm(window: arcade.Window) -> None:
    """SIGTERM closes the window as the close button does (the run in progress is saved on the way out)."""
    import signal
    import threading

    import pyglet

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: pyglet.clock.schedule_once(lambda _dt: window.close(), 0))
