"""The shell's ports: what the window's screens and the game's plug-ins may ask of the windowed game.

``GameApp`` (game/app.py) implements every protocol here; nothing else imports game/app.py (the CLI opens the
window through ``run_window``). A screen (a ``View``, game/views/) gets a ``ViewHost``; the arena screen an
``ArenaHost``; a plug-in (the AI panels, MCP play, meta progression) gets the parts it needs, and registers
through ``ArenaHooks`` instead of reaching into the arena screen.

- ``Navigator``: which screen shows (new run, title, upgrade pick, back to the arena, run over, options).
- ``Chrome``: what every screen draws above itself: toasts, panels and their hotkeys, the play width.
- ``ArenaHooks``: how plug-ins take part in a run: frame / tick / run-start / pause / record hooks, the HUD's
  activity line, the world factory, the arena's input, the steps after the upgrade pick and after the run.
- ``Backdrop``: the arena as the screens drawn over it read it (upgrade pick, shop, game over).
- ``ViewHost`` / ``ArenaHost`` / ``OptionsHost``: what a screen gets (Navigator + Chrome + a few reads);
  ``OptionsTarget``: what the options apply to; ``PluginHost``: a plug-in that adds screens and panels.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from game.prefs import GamePrefs, OptionsTarget

if TYPE_CHECKING:
    import arcade
    from arcade.types import Color

    from coreai.settings import GameSettings
    from game.audio import Audio
    from game.headless import RunSummary
    from game.hotkeys import HotkeyRegistry
    from game.options import LaunchOptions
    from game.play.controller import PlayController
    from game.play.keys import ToWorld
    from game.render.fps import FpsMeter
    from game.render.overlays import Overlay, OverlayStack
    from game.render.quality import FrameGovernor
    from game.sim import events as ev
    from game.sim.world import World
    from game.views.input import HumanInput
    from game.zoo import Policy

Screen = Literal["title", "arena", "upgrade", "options", "other"]
FrameHook = Callable[["World", float], None]
TickHook = Callable[["World", "list[ev.Event]"], None]
RunStartHook = Callable[["World"], None]
WorldFactory = Callable[[int], "World"]


class RunAnalysisView(Protocol):
    """What the screen needs of a run analysis (``game.analysis.analyst.RunAnalysis``)."""

    @property
    def busy(self) -> bool: ...

    def pump(self) -> None: ...

    def text(self) -> str: ...

    def status(self) -> str: ...

    def close(self) -> None: ...


class Navigator(Protocol):
    """Which screen the window shows. Every call runs on the main thread."""

    def new_run(self, seed: int | None = None) -> None:
        """Start a fresh run and show the arena (title, game over, F5; ``seed``: an MCP agent's fork)."""

    def show_title(self) -> None: ...

    def show_upgrade(self) -> None: ...

    def pick_upgrade(self, index: int) -> bool:
        """Pick card ``index`` on the upgrade screen as the player would (False: refused)."""

    def resume_arena(self) -> None:
        """Leave the upgrade pick (or the step after it, the shop) for the arena."""

    def run_over(self) -> None: ...

    def time_up(self) -> None: ...

    def show_options(self) -> None: ...

    def showing(self) -> Screen:
        """The screen shown now ("other": a screen a plug-in showed, such as the shop)."""


class Chrome(Protocol):
    """What every screen draws above itself, and the window it lives in."""

    @property
    def window(self) -> arcade.Window: ...

    @property
    def hotkeys(self) -> HotkeyRegistry: ...

    @property
    def overlays(self) -> OverlayStack: ...

    @property
    def fps(self) -> FpsMeter: ...

    @property
    def governor(self) -> FrameGovernor: ...

    def show_toast(self, text: str, seconds: float = 3.0, color: Color = ...) -> None:
        """A short notice under the HUD. Safe from any thread."""

    def add_panel(
        self, panel: Overlay, key: int | None = None, description: str = "", *, under: bool = False
    ) -> Overlay:
        """Draw ``panel`` above the screen (``under``: below every other panel); ``key`` toggles it."""

    def play_width(self) -> float: ...

    def holding_overlay(self) -> Overlay | None: ...

    def set_pause_on_overlay(self, on: bool) -> None: ...

    def use_ui_camera(self) -> float: ...

    def owns_current_view(self) -> bool:
        """Whether the window's current view is one of this game's screens."""

    def draw_chrome(self) -> None: ...

    def update_chrome(self, dt: float) -> None: ...

    def capture_screenshot_if_requested(self) -> Path | None: ...

    def on_chrome(self, hook: Callable[[float], None]) -> None:
        """Run ``hook(dt)`` every frame on every screen, paused or not."""


class ArenaHooks(Protocol):
    """How a plug-in takes part in runs. Hooks run on the main thread; a faulty one is logged, never fatal."""

    @property
    def options(self) -> LaunchOptions: ...

    @property
    def prefs(self) -> GamePrefs: ...

    @property
    def world(self) -> World | None: ...

    @property
    def input(self) -> HumanInput:
        """The arena's input: the player's keys, and an MCP agent's held keys."""

    def to_world(self) -> ToWorld:
        """Screen to world coordinates through the arena's camera."""

    def on_frame(self, hook: FrameHook) -> None: ...

    def on_tick(self, hook: TickHook) -> None: ...

    def on_run_start(self, hook: RunStartHook) -> None: ...

    def on_pause(self, hook: Callable[[bool], None]) -> None: ...

    def on_run_recorded(self, hook: Callable[[RunSummary], None]) -> None: ...

    def on_prefs_changed(self, hook: Callable[[GameSettings], None]) -> None: ...

    def set_activity_source(self, source: Callable[[], str]) -> None:
        """The HUD's agent-activity line."""

    def set_second_winds_source(self, source: Callable[[], int | None]) -> None:
        """The HUD's second winds left (None: the director gives none, as under static)."""

    def set_world_factory(self, factory: WorldFactory) -> None: ...

    def set_agent_play(self, play: PlayController) -> None:
        """An MCP agent's clock and keys: it decides when the simulation ticks."""

    def set_after_upgrade(self, step: Callable[[], bool]) -> None:
        """After the last pick of a break: may show a screen of its own and return True; that screen calls
        ``Navigator.resume_arena`` when done."""

    def set_run_analysis(self, make: Callable[[RunSummary], RunAnalysisView]) -> None:
        """The game-over screen's run analysis panel."""


class Backdrop(Protocol):
    """The arena as the screens drawn over it (upgrade pick, shop, game over) read it."""

    @property
    def world(self) -> World | None: ...

    @property
    def bot(self) -> Policy | None: ...

    @property
    def t(self) -> float: ...

    def draw_world(self, *, with_hud: bool = True) -> None: ...

    def update_held(self) -> bool:
        """Whether a modal panel holds the arena this frame (the screen over it holds too)."""

    def animate(self, dt: float) -> None:
        """Advance render time and the HUD (the pick's backdrop moves on while the world is stopped)."""

    def run_frame_hooks(self, dt: float) -> None:
        """The plug-ins' frame hooks (the AI core keeps draining while the screen over the arena shows)."""


class ViewHost(Navigator, Chrome, Protocol):
    """What a screen asks of the game: navigation, the chrome, sound, the options and the arena behind it."""

    @property
    def audio(self) -> Audio: ...

    @property
    def prefs(self) -> GamePrefs: ...

    @property
    def demo_badge(self) -> str: ...

    @property
    def backdrop(self) -> Backdrop: ...

    def analysis_for(self, summary: RunSummary) -> RunAnalysisView | None:
        """The game-over screen's run analysis panel (None: none is installed)."""


class ArenaHost(ViewHost, Protocol):
    """The arena screen's extra needs: the session's time limit and the F3 FPS line."""

    @property
    def time_limit(self) -> float | None: ...

    @property
    def show_fps(self) -> bool: ...


class OptionsHost(ViewHost, OptionsTarget, Protocol):
    """The options screen's game."""


class PluginHost(ViewHost, ArenaHooks, Protocol):
    """What a plug-in that adds screens and panels gets (the AI wiring: its panels, shop and MCP play)."""
