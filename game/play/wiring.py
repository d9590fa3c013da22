"""Join agent play to an ``AiSession``: the controller, its two tools, the run resources and the log tail.

``install_play(session)`` runs while the session is built, before the MCP server starts (so the tools and
resources are served from the first request). The front (what "pick", "buy" and "next wave" mean) is
headless at first; ``use_window(session, app)`` switches it to the window's screens once the window exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coreai.mcp.resources import UpdateHub
from game.errors import PlayRefused
from game.play.agent_input import AgentInput
from game.play.controller import Condition, PlayController
from game.play.forks import begin_fork
from game.play.fronts import HeadlessFront, WindowFront
from game.play.keys import AgentKeys
from game.play.parts import Play
from game.play.runs import RunResources
from game.play.tools import player_input_tool, sim_control_tool

if TYPE_CHECKING:
    from game.ai.port import SessionParts
    from game.play.fronts import WindowGame

CONDITION_SANDBOX = "step_until"


def lua_condition(session: SessionParts) -> Any:
    """``until_lua`` as a check: the expression runs in its own scratch sandbox every tick."""

    def compile_condition(expr: str) -> Condition:
        code = f"return ({expr})"
        first = session.mods.execute(code, CONDITION_SANDBOX)
        if not first.ok:
            raise PlayRefused("sim_control", f"until_lua does not run: {first.error}")

        def check() -> bool:
            session.mods.state_changed()  # checked after every tick: game.state() is that tick's
            result = session.mods.execute(code, CONDITION_SANDBOX)
            if not result.ok:  # it ran once: a later failure ends the step rather than running on blind
                return True
            value = result.values[0] if result.values else None
            return value is not None and value is not False  # Lua truth: only nil and false are false

        return check

    return compile_condition


def install_play(session: SessionParts) -> Play:
    options = session.options
    controller = PlayController(
        session.handle,
        HeadlessFront(session.shop, options.bot, starter=lambda seed: headless_new_run(session, seed)),
        AgentKeys(),
        frozen=options.frozen,
        headless=options.headless,
        compile_condition=lua_condition(session),
    )
    hub = UpdateHub()

    def live_summary() -> dict[str, Any] | None:
        world = session.handle.world
        if world is None:
            return None
        from game.headless import summarize

        return summarize(world, 1.0, options.bot).model_dump(mode="json", exclude={"ticks_per_second"})

    mcp = options.mcp or session.settings.mcp.enabled  # only an MCP client replays or forks runs
    runs = RunResources(controller, session.runtime.mainloop, hub, live_summary, record_inputs=mcp)

    # MCP only: no in-game role plays the game. Time control also serves modding and directing.
    def fork(run: str, tick: int | None, director: str | None) -> Any:
        def set_mode(mode: str) -> None:
            if mode != session.director.mode:
                session.director.set_mode(mode, session.handle.world)

        runs = session.play.runs
        runs.frame()  # the current run's last rows reach its files first
        world = session.handle.world
        live = (
            world.tick
            if world is not None and runs.current is not None and runs.current.stem == run
            else None
        )

        def fresh_mods() -> None:
            for status in session.mods.status():
                if status.running:
                    session.mods.reload(status.name)

        return begin_fork(
            controller,
            run,
            tick,
            director,
            set_mode=set_mode,
            modes=session.director.modes,
            live_tick=live,
            fresh=fresh_mods,
        )

    session.add_tool(sim_control_tool(controller, fork), mcp=("play", "mod", "direct"))
    session.add_tool(player_input_tool(AgentInput(controller)), mcp=("play",))
    return Play(controller, hub, runs)


def end_run(session: SessionParts) -> None:
    """The run in progress ends because another starts (a fork or replay): its summary row is written, so
    it keeps its length (a later replay of it goes to its very last tick)."""
    from game.headless import summarize

    old = session.handle.world
    if old is not None:
        session.run_over(summarize(old, 1.0, session.options.bot))


def headless_new_run(session: SessionParts, seed: int) -> None:
    """Headless: end the current run (its summary is recorded) and start another with ``seed``."""
    end_run(session)
    world = session.world_factory(seed, respawn=session.options.respawn)
    session.on_run_start(world)


def use_window(session: SessionParts, app: WindowGame) -> None:
    """The window exists: the agent now works its screens and holds keys in the arena's own input."""
    play = session.play
    play.controller.front = WindowFront(app, session.shop, before_new_run=lambda: end_run(session))
    play.controller.keys = AgentKeys(app.input)
    app.set_agent_play(play.controller)
