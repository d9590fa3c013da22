"""The headless main loop for ``--headless --mcp``: the AI session, the MCP server and a world stepped under
the ``PlayController``'s clock.

Each pass: drain the main-loop queue (MCP calls run here, between ticks), then step as many ticks as the
clock allows - none while frozen (the loop then naps ~2 ms, so a call is answered within milliseconds), as
many as fit in a 20 ms slice while a step is in progress (steps go as fast as possible headless), and
real time x speed while running (speed 0: as fast as possible). A bot (``--bot``) plays when given;
otherwise the agent's keys do. The run ends at ``--seconds`` of game time (0, or none with ``--frozen``:
no end), on SIGINT/SIGTERM, or - when not frozen at start - at the player's death; a frozen
(agent-driven) game keeps serving after a death so the agent can read the run. Hooks run under the
``HookGuard`` (a faulty one is logged, play goes on).
"""

from __future__ import annotations

import signal
import threading
import time
from typing import TYPE_CHECKING

from loguru import logger

from game.headless import RunSummary, summarize
from game.hook_guard import HookGuard
from game.sim.config import DT, TICK_HZ
from game.zoo import make_player

if TYPE_CHECKING:
    from game.ai.session import AiSession
    from game.options import LaunchOptions

log = logger.bind(feature="play", trace_id="headless")
SLICE_S = 0.02  # at most this long stepping before the queue is drained again
IDLE_NAP_S = 0.002
MAX_CATCH_UP_TICKS = 8


def _stop_on_signals(stop: threading.Event) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())


def run_play_headless(
    session: AiSession, options: LaunchOptions, seed: int, stop: threading.Event | None = None
) -> RunSummary:
    stop = stop if stop is not None else threading.Event()
    _stop_on_signals(stop)
    world = session.world_factory(seed, respawn=options.respawn)
    session.on_run_start(world)
    play = session.play.controller
    bot = make_player(options.bot, seed) if options.bot else None
    # none: an agent-driven game has no end, a bot's session lasts a minute; --seconds 0: no end
    default = None if options.frozen else 60.0
    seconds = default if options.seconds is None else (options.seconds or None)
    limit = None if seconds is None else round(seconds / DT)
    guard = HookGuard()  # as in the window: a faulty hook is logged, the run goes on
    started = last = time.perf_counter()
    owed = 0.0  # ticks owed to real time x speed while running
    log.info(
        "headless MCP run (seed {}, frozen {}, bot {}, seconds {})",
        seed,
        options.frozen,
        options.bot,
        seconds,
    )
    while not stop.is_set():
        world = session.handle.require()
        now = time.perf_counter()
        dt, last = now - last, now
        guard.call(session.on_frame, world, dt)  # MCP calls run here, between ticks
        world = session.handle.require()  # ...and a fork or replay may have started a new run
        if limit is not None and world.tick >= limit:
            break
        if world.over and not options.frozen:
            break
        if bot is not None and world.phase == "upgrade":
            world.choose_upgrade(bot.choose_upgrade(world))
            continue
        if not play.may_tick(world):
            owed = 0.0
            time.sleep(IDLE_NAP_S)
            continue
        speed = play.clock.speed
        fast = play.stepping() or speed == 0.0
        if fast:
            owed, budget = 0.0, 1 << 30
        else:
            owed = min(owed + dt * speed * TICK_HZ, MAX_CATCH_UP_TICKS * max(1.0, speed))
            budget = int(owed)
        stepped = 0
        deadline = time.perf_counter() + SLICE_S
        while stepped < budget and play.may_tick(world) and (limit is None or world.tick < limit):
            inp = bot.act(world) if bot is not None else play.sample(world, None)
            events = world.step(inp)
            guard.call(session.on_tick, world, events)
            stepped += 1
            if time.perf_counter() > deadline:
                break
        if not fast:
            owed -= stepped
            if stepped == 0:
                time.sleep(IDLE_NAP_S)
    world = session.handle.require()
    summary = summarize(world, max(time.perf_counter() - started, 1e-6), options.bot)
    session.run_over(summary)
    return summary
