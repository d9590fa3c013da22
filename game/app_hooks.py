"""``GameApp``'s hooks for plug-ins (``game.ports.ArenaHooks``): the AI session, its panels, MCP play and meta
progression take part in runs through these, never by reaching into the arena screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from loguru import logger

from game.ports import FrameHook, RunStartHook, TickHook, WorldFactory

if TYPE_CHECKING:
    from coreai.settings import GameSettings
    from game.headless import RunSummary
    from game.play.controller import PlayController
    from game.play.keys import ToWorld
    from game.ports import RunAnalysisView
    from game.sim.world import World
    from game.views.arena import ArenaView
    from game.views.input import HumanInput

log = logger.bind(feature="game", trace_id="prefs")


class AppHooks:
    """Mixed into ``GameApp``, which sets these attributes in its ``__init__``."""

    arena: ArenaView
    world_factory: WorldFactory
    record_hooks: list[Callable[[RunSummary], None]]
    prefs_hooks: list[Callable[[GameSettings], None]]
    after_upgrade: Callable[[], bool] | None
    run_analysis: Callable[[RunSummary], RunAnalysisView] | None

    @property
    def world(self) -> World | None:
        return self.arena.world

    @property
    def input(self) -> HumanInput:
        return self.arena.input

    def to_world(self) -> ToWorld:
        return self.arena.rig.to_world

    def on_frame(self, hook: FrameHook) -> None:
        """Once per frame after the simulation stepped, while a run is live (see game/views/arena.py)."""
        self.arena.frame_hooks.append(hook)

    def on_tick(self, hook: TickHook) -> None:
        """After every simulation tick, with that tick's events."""
        self.arena.tick_hooks.append(hook)

    def on_run_start(self, hook: RunStartHook) -> None:
        """When a new World starts (the first run and every restart)."""
        self.arena.run_start_hooks.append(hook)

    def on_pause(self, hook: Callable[[bool], None]) -> None:
        self.arena.pause_hooks.append(hook)

    def on_run_recorded(self, hook: Callable[[RunSummary], None]) -> None:
        """A finished run was written to the saves."""
        self.record_hooks.append(hook)

    def on_prefs_changed(self, hook: Callable[[GameSettings], None]) -> None:
        self.prefs_hooks.append(hook)

    def prefs_changed(self, settings: GameSettings) -> None:
        for hook in list(self.prefs_hooks):
            try:
                hook(settings)
            except Exception as exc:  # a broken listener must not break the options screen
                log.opt(exception=exc).error("options hook failed: {}", exc)

    def set_activity_source(self, source: Callable[[], str]) -> None:
        self.arena.activity_source = source

    def set_second_winds_source(self, source: Callable[[], int | None]) -> None:
        self.arena.second_winds_source = source

    def set_world_factory(self, factory: WorldFactory) -> None:
        self.world_factory = factory

    def set_agent_play(self, play: PlayController) -> None:
        self.arena.play = play

    def set_after_upgrade(self, step: Callable[[], bool]) -> None:
        self.after_upgrade = step

    def set_run_analysis(self, make: Callable[[RunSummary], RunAnalysisView]) -> None:
        self.run_analysis = make

    def analysis_for(self, summary: RunSummary) -> RunAnalysisView | None:
        return self.run_analysis(summary) if self.run_analysis is not None else None
