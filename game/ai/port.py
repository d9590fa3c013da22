"""The AI session's two faces, as protocols (``game.ai.session.AiSession`` implements both):

- ``AiPort``: what the game asks of it while it plays, all on the main thread: a world for a new run, the
  run's start, every tick, every frame, pause, the run's end, and closing. The window (``game.ai.wiring``)
  and the headless loops (``game.cli.play``) call only these.
- ``SessionParts``: what the wiring that builds the session reads of it: the runtime, the backends, the
  director, the mods, the world handle, the shop and MCP play. The agents (``game.agents.wiring``), the
  warm-up (``game.ai.warmup``), server discovery (``game.ai.discovered``) and MCP play
  (``game.play.wiring``) take a ``SessionParts`` and never import the session, so no import circle runs
  through it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import threading

    from coreai.lua import ModManager
    from coreai.runtime import CoreAiRuntime
    from coreai.settings import Settings
    from coreai.tools.base import Tool
    from game.ai.backends import BackendSetup
    from game.ai.director_agent import PlanCapture
    from game.ai.lua_bridge import MainThreadLuaRunner
    from game.bindings import WorldHandle
    from game.director.director import Director
    from game.director.source import PlanSource
    from game.options import LaunchOptions
    from game.play.parts import Play
    from game.shop.service import ShopService
    from game.sim import events as ev
    from game.sim.prefabs import PrefabRegistry
    from game.sim.world import World


class AiPort(Protocol):
    """The game's calls into the AI session (main thread)."""

    def world_factory(self, seed: int, respawn: bool = False) -> World: ...

    def on_run_start(self, world: World) -> None: ...

    def on_tick(self, world: World, events: list[ev.Event]) -> None: ...

    def on_frame(self, world: World, dt: float) -> None: ...

    def set_paused(self, paused: bool) -> None: ...

    def run_over(self, summary: Any) -> None: ...

    def close(self) -> None: ...


class SessionParts(AiPort, Protocol):
    """The session as the parts wired into it read it."""

    @property
    def options(self) -> LaunchOptions: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def runtime(self) -> CoreAiRuntime: ...

    @property
    def backends(self) -> BackendSetup: ...

    @property
    def handle(self) -> WorldHandle: ...

    @property
    def director(self) -> Director: ...

    plan_sources: tuple[PlanSource, ...]  # server discovery adds one per model it finds

    @property
    def capture(self) -> PlanCapture: ...

    @property
    def prefabs(self) -> PrefabRegistry: ...

    @property
    def mods(self) -> ModManager: ...

    @property
    def lua(self) -> MainThreadLuaRunner: ...

    @property
    def mods_ready(self) -> threading.Event: ...

    @property
    def director_warm(self) -> threading.Event: ...

    @property
    def shop(self) -> ShopService | None: ...

    @property
    def play(self) -> Play: ...

    def notify(self, kind: str, text: str) -> None:
        """A notice for the player (info / warn / good; "dev": the log and console). Any thread."""

    def add_tool(self, tool: Tool, roles: Iterable[str] = (), mcp: bool | Iterable[str] = False) -> None:
        """The one place a tool is registered (in-game roles, MCP profiles)."""
