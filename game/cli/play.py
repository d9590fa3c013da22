"""``arena`` with no subcommand (``python -m game [options]``): play in a window, run headless with a bot, or
replay a director trajectory."""

from __future__ import annotations

import math
import sys
import time

from loguru import logger

from game.headless import RunSummary
from game.options import LaunchOptions, parse_args

log = logger.bind(feature="game", trace_id="main")
DETERMINISTIC = ("static", "rules")  # director modes that need no model: they run as fast as the CPU allows


def run_headless_cli(options: LaunchOptions, seed: int) -> RunSummary:
    """Headless: the deterministic director modes run directly, as fast as the CPU allows; an LLM mode or MCP
    needs the AI session and runs in real time."""
    seconds = 60.0 if options.seconds is None else options.seconds or math.inf  # --seconds 0: no end
    bot = options.bot or "average"
    llm_director = options.director not in DETERMINISTIC
    if not llm_director and not options.mcp:
        from game.headless_runs.run import run_directed
        from game.sim.config import FINAL_WAVE

        summary, _ = run_directed(
            seed,
            seconds,
            bot,
            options.director,
            respawn=options.respawn,
            trajectory=True,
            final_wave=options.waves or FINAL_WAVE,
        )
        return summary
    from game.ai.session import AiSession
    from game.headless import run_headless, summarize
    from game.hook_guard import HookGuard
    from game.sim.config import DT

    session = AiSession(options, configure_logs=False)  # run() already set headless logging
    if options.mcp:  # an MCP agent may freeze, step and play it: the clock is the PlayController's
        from game.play.headless import run_play_headless

        try:
            if llm_director:
                from game.ai.warmup import wait_director_warm

                wait_director_warm(session, options.director)
            return run_play_headless(session, options, seed)
        finally:
            session.close()
    try:
        world = session.world_factory(seed, respawn=options.respawn)
        session.on_run_start(world)
        if llm_director:
            from game.ai.warmup import wait_director_warm

            wait_director_warm(session, options.director)  # before the clock: the first decision lands
        # A model answers in seconds of wall time and the director drops replies older than ~25 s of game
        # time, so with an LLM director (or MCP clients) the headless run keeps to real time.
        real_time = llm_director or options.mcp
        started = time.perf_counter()

        guard = HookGuard()  # as in the window: a faulty hook is logged, the run goes on

        def tick(w: object) -> None:
            guard.call(session.on_tick, world, world.events)
            guard.call(session.on_frame, world, DT)
            if real_time:
                ahead = world.time - (time.perf_counter() - started)
                if ahead > 0:
                    time.sleep(ahead)

        try:
            summary = run_headless(seed, seconds, bot, world=world, on_tick=tick)
        except KeyboardInterrupt:  # Ctrl+C ends a session (an endless one's only end) as its time would
            summary = summarize(world, time.perf_counter() - started, bot)
        session.run_over(summary)
        return summary
    finally:
        session.close()


def _quiet_logging() -> None:
    """Headless runs are for bots, scripts and benchmarks: warnings on the console, all else in the log."""
    from coreai.errors import SettingsError
    from coreai.logging import configure_logging
    from coreai.settings import Settings, load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:
        log.warning("settings file rejected, using defaults: {}", exc)
        settings = Settings()
    configure_logging(settings.logging.model_copy(update={"level": "WARNING"}))


def run(options: LaunchOptions) -> int:
    if options.replay is not None:
        from coreai.errors import CoreAIError
        from game.headless_runs.replay import replay

        try:
            summary = replay(options.replay)
        except CoreAIError as exc:  # one line naming the file and the problem, never a traceback
            sys.stderr.write(f"replay failed: {' '.join(str(exc).split())[:500]}\n")
            return 2
        sys.stdout.write(summary.model_dump_json() + "\n")
        return 0
    seed = options.seed if options.seed is not None else int(time.time()) % 1_000_000
    options = options.model_copy(update={"seed": seed})
    if options.headless:
        from game.saves import SaveStore

        _quiet_logging()
        summary = run_headless_cli(options, seed)
        store = SaveStore()
        for warning in store.warnings:
            log.warning(warning)
        store.record_run(summary, human=False)  # headless runs go in the bot table
    else:
        from game.ai.session import AiSession
        from game.ai.wiring import attach
        from game.app import run_window

        session = AiSession(options)
        try:
            maybe = run_window(options, on_ready=lambda app: attach(app, session))  # records its own runs
            if maybe is not None:
                session.run_over(maybe)  # the run the window closed on keeps its summary row (once)
        finally:
            session.close()
        if maybe is None:
            return 0
        summary = maybe
    if options.json_summary:
        sys.stdout.write(summary.model_dump_json() + "\n")
    return 0


def main(argv: list[str]) -> int:
    return run(parse_args(argv))
