"""The windowed game: one ``GameApp`` owns the window's screens (title → arena ⇄ upgrade pick → game
over), the hotkey registry, sound, panels, toasts, screenshots and saves.

``run_window(options)`` opens the window and plays until it closes (or, with ``options.seconds``, until that
much game time has passed) and returns the last run's summary. Other parts plug in through ``on_ready``
and see the app only through its ports (``game.ports``)::

    def wire(app: ArenaHooks & Chrome) -> None:
        app.set_world_factory(lambda seed: World(seed=seed, spawner=director.spawner))
        app.on_frame(lambda world, dt: queue.drain())  # world commands, while playing
        app.on_chrome(lambda dt: queue.drain_ui())  # panel answers and notices, every screen
        app.on_run_start(lambda world: setattr(handle, "world", world))
        app.set_activity_source(lambda: orchestrator.status_line())
        app.add_panel(director_panel, arcade.key.F10, "Director panel")
        app.show_toast("Director online")

    run_window(options, on_ready=wire)

Its parts: the chrome (``game.app_chrome``), the plug-ins' hooks (``game.app_hooks``), the window's
hotkeys and key bindings (``game.app_keys``); the screens themselves are ``game.views``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import arcade
from loguru import logger

from coreai.errors import CoreAIError
from coreai.settings import GameSettings, KeyBindings
from game import hotkeys as hk
from game.app_chrome import AppChrome
from game.app_hooks import AppHooks
from game.app_keys import apply_key_bindings, bind_window_hotkeys
from game.audio import Audio
from game.controls import Gamepad
from game.headless import RunSummary, summarize
from game.meta import attach_meta
from game.options import LaunchOptions
from game.ports import Backdrop, RunAnalysisView, Screen, WorldFactory
from game.prefs import GamePrefs
from game.render import palette
from game.render.fps import FpsMeter
from game.render.overlays import HelpOverlay, OverlayStack
from game.render.quality import FrameGovernor
from game.render.toasts import Toasts
from game.run_records import RunRecords
from game.sim.config import SCREEN_H, SCREEN_W
from game.sim.prefabs import PrefabRegistry
from game.sim.world import World
from game.views.arena import ArenaView
from game.views.gameover import GameOverView
from game.views.title import TitleView
from game.views.upgrade import UpgradeView
from game.zoo import make_player

log = logger.bind(feature="game", trace_id=None)

TITLE = "Arena Director"


def default_world(seed: int) -> World:
    return World(seed=seed)


class GameApp(AppChrome, AppHooks):
    """The windowed game; implements every port of ``game.ports`` (Navigator, Chrome, ArenaHooks, ...)."""

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
        bind_window_hotkeys(
            self.hotkeys,
            help=lambda: self.overlays.toggle(self.help),
            pause=self.toggle_pause,
            screenshot=self.request_screenshot,
            restart=self.new_run,
            fullscreen=self.toggle_fullscreen,
            mute=self.toggle_mute,
            fps=self.toggle_fps,
        )
        self.pause_keys: tuple[int, ...] = hk.PAUSE_KEYS
        self._ui_camera: arcade.Camera2D | None = None
        self.input.gamepad = Gamepad(self.prefs.settings.gamepad)
        # told after the options change (the AI session follows the difficulty preset)
        self.prefs_hooks: list[Callable[[GameSettings], None]] = []
        # run every frame on every screen, paused or not (the AI panels drain the UI lane here)
        self.chrome_hooks: list[Callable[[float], None]] = []
        self.prefs.apply_to(self, fullscreen=False)  # the window was opened with the fullscreen option
        self.meta = attach_meta(
            self, self.show_toast
        )  # achievements unlock weapons for the player's later runs

    @property
    def demo_badge(self) -> str:
        return f"DEMO  -  bot: {self.options.bot}" if self.options.bot else ""

    @property
    def backdrop(self) -> Backdrop:
        return self.arena

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

    def pick_upgrade(self, index: int) -> bool:
        if self.window.current_view is not self.upgrade:
            self.show_upgrade()  # the pick opened this very frame: the screen a human would see
        return self.upgrade.pick(index)

    def showing(self) -> Screen:
        view = self.window.current_view
        if view is self.arena:
            return "arena"
        if view is self.upgrade:
            return "upgrade"
        if view is not None and view is self.title:
            return "title"
        from game.views.options import OptionsView

        return "options" if isinstance(view, OptionsView) else "other"

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
        self.pause_keys = apply_key_bindings(
            bindings, self.hotkeys, self.arena, self.pause_keys, self.toggle_pause
        )

    def toggle_pause(self) -> None:
        if self.window.current_view is self.arena:
            self.arena.toggle_pause()


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
