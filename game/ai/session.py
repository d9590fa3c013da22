"""``AiSession``: the composition root that joins a running game to the AI core.

It builds, from the settings file: the LLM backends and per-role routing, the ``CoreAiRuntime`` (task queue,
orchestrator, main-loop command queue), the Lua mod manager (with the game as its ``ModHost``), the Programmer
loop, the director with one plan source per chat backend, and (with ``--mcp``) the MCP server.

Two faces (``game.ai.port``): the game calls its ``AiPort`` on the main thread (``world_factory(seed)``,
``on_run_start(world)``, ``on_tick(world, events)`` after every simulation tick, ``on_frame(world, dt)`` once
per frame, ``set_paused``, ``run_over``, ``close``); the parts wired into it (the agents, the warm-up,
server discovery, MCP play) read it as ``SessionParts`` and never import this module. The F6 and ``/backend``
switches live in ``game.ai.director_switch``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from loguru import logger

from coreai.errors import CommandRejected, CoreAIError, SettingsError
from coreai.llm.discovery import servers_from_env
from coreai.llm.registry import BACKENDS
from coreai.logging import configure_logging
from coreai.lua import LuaExecutionEvent, LuaExecutionFailed, LuaExecutionSucceeded, ModManager
from coreai.mcp import McpServerThread
from coreai.mcp.images import ShotStore
from coreai.paths import logs_dir
from coreai.requests import AgentResult, AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings, load_settings
from coreai.taskqueue import TaskHandle
from coreai.tools.base import Tool
from game.agents.wiring import install_agents
from game.ai import director_switch
from game.ai.backends import BackendSetup, add_backend, build_backends
from game.ai.director_agent import AgentPlanSource, PlanCapture, install_director_tools
from game.ai.lua_bridge import MainThreadLuaRunner
from game.ai.mcp_services import exposed, no_window, session_tools, set_director_plan, start_mcp_server
from game.ai.mod_events import dispatch_events
from game.ai.mod_upgrades import ModUpgrades
from game.ai.modhost import GameModHost
from game.ai.warmup import start_background
from game.analysis.ledger import RunLedger
from game.bindings import GameWorldExecutor, WorldHandle
from game.director.director import Director
from game.director.memory import DirectorMemory
from game.director.rules import RulesSource
from game.director.source import PlanSource
from game.headless_runs.run import attach_trajectory
from game.headless_runs.trajectory_file import TrajectoryWriter
from game.options import LaunchOptions
from game.play.runs import NotifyingTrajectory
from game.play.wiring import install_play
from game.shop import install_shop
from game.sim import events as ev
from game.sim.config import DT
from game.sim.prefabs import PrefabRegistry
from game.sim.world import World

log = logger.bind(feature="game", trace_id="session")
Notice = tuple[str, str]  # (kind, text): kind is info / warn / good / dev


def _log_notice(kind: str, text: str) -> None:
    """Where notices go with no window (the AI panels replace it with toasts)."""
    log.log("WARNING" if kind == "warn" else "INFO", "notice [{}] {}", kind, text)


class AiSession:
    def __init__(
        self,
        options: LaunchOptions,
        *,
        settings: Settings | None = None,
        setup: BackendSetup | None = None,
        configure_logs: bool = True,
    ) -> None:
        self.options = options
        # Notices reach the main thread through the main-loop queue's UI lane, where ``on_notice`` shows
        # them (the AI panels make it a toast; headless, the log). Those raised while the session is still
        # being built wait here until the queue exists.
        self.on_notice: Callable[[str, str], None] = _log_notice
        self._early_notices: list[Notice] = []
        self._notice_lock = threading.Lock()
        self.settings = settings if settings is not None else self._load_settings()
        if configure_logs:
            configure_logging(self.settings.logging, log_dir=logs_dir())
        self.backends = (
            setup if setup is not None else build_backends(self.settings, on_progress=self._loading)
        )
        wanted = options.director  # --director <backend>: build it even when no role routes to it
        if setup is None and wanted not in self.backends.registry and wanted in BACKENDS.names():
            add_backend(self.backends, wanted, self.settings, on_progress=self._loading)
        for role, asked in sorted(self.settings.llm.backends.items()):
            got = self.backends.routes.get(role, asked)
            if got != asked:
                why = self.backends.reasons.get(asked, "not configured")
                self.notify("warn", f"{role} uses the offline stub: {asked} unavailable ({why})")
        prefabs = PrefabRegistry.load()
        # facts the prompts name by placeholder ({{prefabs}}), from the game's own data
        variables = {"prefabs": ", ".join(prefabs.names)}
        self.runtime = CoreAiRuntime(
            self.settings, backends=self.backends.registry, prompt_variables=variables
        )
        with self._notice_lock:
            early, self._early_notices = self._early_notices, []
        for kind, text in early:
            self.notify(kind, text)
        for role, backend in self.backends.routes.items():
            self.runtime.router.set_backend(role, backend)
        self.handle = WorldHandle()  # its world is set by on_run_start
        executor = GameWorldExecutor(self.handle)
        self.runtime.bindings.register_world(executor)
        self.runtime.bindings.register_state(executor)
        # Lua
        self._mod_events: dict[str, tuple[str, float, str]] = {}  # name -> (description, cooldown, source)
        self.mod_upgrades = ModUpgrades(self.handle)  # mod passives offered in the upgrade picks
        host = GameModHost(
            self.handle, self.runtime.mainloop, on_event=self.register_mod_event, upgrades=self.mod_upgrades
        )
        self.mods = ModManager(host, settings=self.settings.lua)
        self.lua = MainThreadLuaRunner(self.runtime.mainloop, self.mods)

        # the grounded Programmer (F9) and Creator (chat panel): game.agents
        self.programmer, self.creator = install_agents(self, on_lua_event=self._on_lua_event)
        self._mods_loaded = False
        self.mods_ready = threading.Event()  # the startup mods are loaded (their director events offered)
        self._mod_time = 0.0  # game seconds stepped since the mods last ticked
        # An agent-driven game (--frozen) ticks the mods after every tick, not every frame: what a mod does
        # then never depends on how ticks fell into frames, so a recorded run replays exactly.
        self._mods_every_tick = options.frozen
        self.mods.wall_budget = not options.frozen  # nor does the machine's load decide when a mod ticks
        self._game_time = 0.0  # game seconds of every run so far: mods' rate limit and fault windows
        self.runtime.mainloop.set_game_clock(lambda: self._game_time)
        self.mods.set_game_clock(lambda: self._game_time)
        # director: static, rules, and one mode per chat backend
        self.capture = PlanCapture()
        self.difficulty = self.settings.game.difficulty  # the options screen updates it (wiring.attach)
        self.plan_sources: tuple[PlanSource, ...] = (
            RulesSource(lambda: self.difficulty),
            *(AgentPlanSource(self.runtime, n, self.capture) for n in self.backends.registry),
        )
        self.director = Director(
            "rules",
            sources=self.plan_sources,
            memory=DirectorMemory.persistent(),
            difficulty=lambda: self.difficulty,
        )
        if options.director in self.director.modes():
            self.director.set_mode(options.director)
        else:
            self.notify("warn", f"director mode '{options.director}' is unavailable; using rules")
        self.prefabs = prefabs
        self._refresh_plan_tool()
        self.screenshot: Callable[[int], bytes] | None = None  # set by the window
        shot = lambda res: (self.screenshot or no_window)(res)  # noqa: E731
        resolution = self.settings.mcp.max_resolution

        self.shots = ShotStore()  # screenshots an MCP client asked for as links (arena://screenshots/N)
        for reg in session_tools(self.mods, self.director, self.handle, shot, resolution, self.shots):
            self.add_tool(reg.tool, roles=reg.roles, mcp=reg.mcp)

        self.shop = install_shop(self.runtime, self.handle)  # the Merchant: stock, coins, its tools

        # off the main thread: loopback model servers (offered in F6 / /backend), then the local warm-up;
        # director_warm is set once the director's prefix is evaluated (or there is none to warm)
        self.director_warm = threading.Event()
        self.startup = start_background(self, servers_from_env())
        self.ledger = RunLedger()  # what the game-over Analyzer reads
        self.trajectory: TrajectoryWriter | None = None

        self.play = install_play(self)  # an MCP agent's game time and input (sim_control, player_input)
        self.mcp: McpServerThread | None = None
        if options.mcp or self.settings.mcp.enabled:
            self.start_mcp()

    def add_tool(self, tool: Tool, roles: Iterable[str] = (), mcp: bool | Iterable[str] = False) -> None:
        """The one place a tool is registered: the in-game ``roles`` that may call it, and whether MCP
        serves it (``True``, or the profiles it belongs to: play / mod / direct). Before ``start_mcp``."""
        self.runtime.orchestrator.add_tool(tool, roles=tuple(roles), mcp=mcp)

    # ------------------------------------------------------------------ construction helpers
    def _load_settings(self) -> Settings:
        try:
            return load_settings()
        except SettingsError as exc:
            self.notify("warn", f"settings: {exc}; using defaults")
            log.error("settings file rejected: {}", exc)
            return Settings()

    def _loading(self, fraction: float, stage: str) -> None:
        """Model loading progress (from the model's loader thread): the detail to the log and console (kind
        "dev"), and a player-worded notice when loading starts and when the model is ready."""
        if fraction <= 0.0 or fraction >= 1.0 or stage.startswith("loading"):
            self.notify("dev", f"local model: {stage}")
        if fraction <= 0.0:
            self.notify("info", "Loading the AI model...")
        elif fraction >= 1.0:
            self.notify("good", "AI model ready")

    def notify(self, kind: str, text: str) -> None:
        """A notice for the player (kind info / warn / good; "dev" goes to the log and console only).
        Safe from any thread: it is shown on the main thread, through the UI lane."""
        with self._notice_lock:
            if not hasattr(self, "runtime"):  # still being built: flushed once the queue exists
                self._early_notices.append((kind, text))
                return
        self.runtime.mainloop.post_ui(lambda: self.on_notice(kind, text), label=f"notice:{kind}")

    # ------------------------------------------------------------------ the game's calls (main thread)
    def world_factory(self, seed: int, respawn: bool = False) -> World:
        """A new run: the session's one director starts fresh (telemetry, pacing) in the current mode.
        ``respawn`` (headless ``--respawn``): a death is counted and the run goes on."""
        self.director.reset(seed)
        world = World(seed=seed, spawner=self.director.spawner, respawn=respawn)
        if self.options.waves is not None:  # --waves N: a shorter run, won by surviving wave N
            world.final_wave = self.options.waves
        return world

    def on_run_start(self, world: World) -> None:
        self.handle.world = world
        self.ledger = RunLedger()
        if self.shop is not None:
            self.shop.shop.reset()
        if not self._mods_loaded:  # first, so the trajectory header lists the events mods offer
            self._mods_loaded = True
            for status in self.mods.load_all():
                if status.last_error:
                    self.notify("warn", f"mod {status.name}: {status.last_error}")
            self.mods_ready.set()  # the warm-up may now build the director's prefix, events included
        self.mod_upgrades.apply(world)
        self.trajectory = attach_trajectory(
            self.director,
            seed=world.seed,
            bot=self.options.bot,
            seconds=self.options.seconds or 0.0,
            respawn=world.respawn,
            final_wave=world.final_wave,
        )

        self.director.trajectory = NotifyingTrajectory(self.trajectory, self.play.runs.run_changed)
        self.play.runs.start_run(self.trajectory)
        self.play.controller.on_run_start(world)

    def on_tick(self, world: World, events: list[ev.Event]) -> None:
        self.director.on_tick(world)
        self.ledger.collect(events)
        self.ledger.step(world.player.x, world.player.y)
        if self.shop is not None:
            self.shop.shop.purse.collect(events)
        self._mod_time += DT
        self._game_time += DT
        if self._mods_loaded:
            dispatch_events(self.mods, events)
            if self._mods_every_tick:
                self.mods.tick(self._mod_time)
                self._mod_time = 0.0
        self.play.controller.after_tick(world, events)

    def on_frame(self, world: World, dt: float) -> None:
        """Once per frame. Mods' ``on_tick`` and timers advance by the game time of this frame's ticks
        (``after(5, f)`` means five seconds of play), within one per-frame Lua budget."""
        self.runtime.drain()
        self.runtime.mainloop.drain_ui()  # headless too: notices reach ``on_notice`` (the log)
        self.play.controller.after_frame(world)  # a step the world can take no further ends here
        self.play.runs.frame()
        if self._mods_loaded:
            self.mods.tick(self._mod_time)
            self._mod_time = 0.0
            for notice in self.mods.drain_notices():
                kind = "warn" if notice.kind in ("revert", "quarantine", "load_failed") else "info"
                self.notify(kind, f"[{notice.mod}] {notice.text}")
        for line in self.director.pop_announcements():
            self.notify("good", line)

    def set_paused(self, paused: bool) -> None:
        self.runtime.mainloop.set_paused(paused)

    def run_over(self, summary: Any) -> None:
        if self.trajectory is not None:
            self.trajectory.summary(summary)
            self.trajectory = None
            self.play.runs.run_changed()

    # ------------------------------------------------------------------ player-facing actions
    def cycle_director(self) -> str:
        """F6: the next director mode (an LLM mode is health-probed first; ``game.ai.director_switch``)."""
        return director_switch.cycle_director(self)

    def ask(self, role: str, text: str, on_done: Callable[[str], None] | None = None) -> TaskHandle:
        handle = self.runtime.submit(AiTaskRequest(role=role, hint=text, cancellation_scope=f"ask:{role}"))
        self._report_when_done(handle, role, on_done)
        return handle

    def programmer_task(self, task: str, on_done: Callable[[str], None] | None = None) -> TaskHandle:
        handle = self.programmer.submit(
            AiTaskRequest(role="Programmer", hint=task, cancellation_scope="programmer")
        )
        self._report_when_done(handle, "Programmer", on_done)
        return handle

    def _report_when_done(self, handle: TaskHandle, role: str, on_done: Callable[[str], None] | None) -> None:
        def done(h: TaskHandle) -> None:
            try:
                result: AgentResult = h.result(0)
                text = f"{role}: {result.content}"
            except CoreAIError as exc:
                text = f"{role} failed: {exc}"
            if on_done is not None:
                on_done(text)
            else:
                self.notify("info", text[:160])

        handle.add_done_callback(done)

    def _on_lua_event(self, event: LuaExecutionEvent) -> None:
        if isinstance(event, LuaExecutionSucceeded):
            self.notify("good", f"Programmer: script ran on attempt {event.attempt} [trace {event.trace_id}]")
        elif isinstance(event, LuaExecutionFailed) and event.error_kind == "behaviour":
            self.notify("warn", "Programmer: the mod did not do what was asked in its test run")
        elif isinstance(event, LuaExecutionFailed):
            more = "repairing" if event.will_retry else "giving up"
            self.notify("warn", f"Programmer attempt {event.attempt} failed ({event.error[:80]}); {more}")

    def switch_backend(self, role: str, name: str) -> str:
        """Console ``/backend <role> <name>``: probe first, switch only if it answers."""
        return director_switch.switch_backend(self, role, name)

    # ------------------------------------------------------------------ mod events for the director
    def register_mod_event(self, name: str, description: str, cooldown_s: float, source: str) -> None:
        """A mod's ``game.director_event``: the director may now fire ``name`` (plans name it in ``event``);
        firing it dispatches ``on_director_event(name)`` to the mods. Built-in events cannot be replaced."""
        if name in self._mod_events:
            if self._mod_events[name][2] != source:
                raise CommandRejected(
                    "director_event", f"event '{name}' belongs to {self._mod_events[name][2]}"
                )
        elif name in self.director.events.names():
            raise CommandRejected("director_event", f"'{name}' is a built-in director event")
        self._mod_events[name] = (description, cooldown_s, source)
        self._register_on_director(name, description, cooldown_s)
        self._refresh_plan_tool()
        log.info("{} offers the director event '{}'", source, name)

    def _register_on_director(self, name: str, description: str, cooldown_s: float) -> None:
        def fire(world: World, placer: object) -> None:
            self.mods.dispatch("on_director_event", name)

        self.director.events.register(name, fire, cooldown_s=cooldown_s, description=description)

    def _refresh_plan_tool(self) -> None:
        """The LLM's plan schema lists the events by name: rebuild the tool when the list changes."""
        events = self.director.events.names()
        apply = lambda plan: set_director_plan(self.director, self.handle, plan)  # noqa: E731
        install_director_tools(self.runtime, self.prefabs.regular, events, self.capture, apply)
        mcp: McpServerThread | None = getattr(self, "mcp", None)
        if mcp is not None:  # MCP serves the same tool: the new schema too
            mcp.update_tool(self.runtime.orchestrator.tools["set_director_plan"])

    # ------------------------------------------------------------------ MCP
    def start_mcp(self) -> None:

        tools, profiles = exposed(self.runtime.orchestrator)
        port = self.options.mcp_port
        queue = self.runtime.mainloop
        self.play.runs.tail.install()
        self.mcp = start_mcp_server(
            self.settings.mcp,
            tools,
            queue,
            port=port,
            notify=self.notify,
            resources=[*self.play.runs.specs(), self.shots.spec()],
            prompts=self.play.prompts,
            hub=self.play.hub,
            profiles=profiles,
        )

    def close(self) -> None:
        self.mods_ready.set()  # a warm-up still waiting gives up (the backends close below)
        if self.mcp is not None:
            self.mcp.stop()
        self.play.runs.tail.remove()
        self.play.runs.frame()  # the last event-log lines
        self.programmer.shutdown(wait=False)
        self.creator.shutdown(wait=False)
        self.runtime.close(wait=False)
        self.mods.close()
        for client in self.backends.registry.values():
            close = getattr(client, "close", None)
            if callable(close):
                try:
                    close()
                except Exception as exc:  # closing must never block shutdown
                    log.warning("closing backend {} failed: {}", getattr(client, "name", "?"), exc)
