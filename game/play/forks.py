"""Replay and fork a recorded run in the running game: ``fork(run, tick, director=...)``.

A new run starts with the recorded run's seed and director mode; its first ``tick`` ticks are played with
the recorded input (``saves/runs/<run>.inputs.jsonl``: keys, aim, picks, purchases, next wave) as fast as
the loop allows, then the game is frozen at that tick under the agent's control, with the director asked for
(``director``; default: the recorded one). ``replay`` is a fork at the recorded run's last tick. The
re-simulated events are compared with the recorded event log up to the fork tick; the answer says where
they first differ (``diverged``), or that they are ``identical``.

What replays exactly: runs whose director decided by rules (``rules`` / ``static``) and whose world was
changed only through player input. The running mods are reloaded first: their Lua state (a kill streak,
their random numbers) would otherwise carry over from the runs played before. Lua, world commands or
plans sent from outside during the recorded run are not in the input log (the divergence check names the
first tick where that shows).
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any

from coreai.errors import CoreAIError
from game.errors import PlayRefused
from game.headless_runs.trajectory_file import read_trajectory
from game.play.controller import PlayController
from game.play.inputs import InputFeed, read_rows
from game.play.runs import events_path, inputs_path, trajectories_dir

DETERMINISTIC = ("rules", "static")
MAX_DIFF_ROWS = 3


def _first_difference(
    recorded: list[dict[str, Any]], replayed: list[dict[str, Any]]
) -> dict[str, Any] | None:
    for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
        if a != b:
            return {"index": i, "tick": min(a["tick"], b["tick"]), "recorded": a, "replayed": b}
    if len(recorded) != len(replayed):
        i = min(len(recorded), len(replayed))
        rest = recorded[i:] or replayed[i:]
        return {
            "index": i,
            "tick": rest[0]["tick"],
            "recorded": recorded[i : i + 1],
            "replayed": replayed[i : i + 1],
        }
    return None


def begin_fork(
    controller: PlayController,
    run_id: str,
    tick: int | None,
    director: str | None,
    *,
    set_mode: Callable[[str], None],
    modes: Callable[[], Sequence[str]],
    live_tick: int | None = None,
    fresh: Callable[[], None] | None = None,
) -> concurrent.futures.Future[dict[str, Any]]:
    """Main thread: start the new run and the re-simulation; the future answers at the fork tick.
    ``live_tick``: the tick the recorded run has reached, when it is the run in progress; ``fresh``: puts
    back what a session carries from run to run (the mods' Lua state), as it was when the game started."""
    path = trajectories_dir() / f"{run_id}.jsonl"
    if not run_id.replace("-", "").replace("_", "").isalnum() or not path.is_file():
        raise PlayRefused("sim_control", f"unknown run '{run_id[:80]}'; see arena://runs")
    try:
        traj = read_trajectory(path)
    except CoreAIError as exc:
        raise PlayRefused("sim_control", f"run '{run_id}' cannot be read: {exc}") from None
    used = {traj.header.mode, *(m.mode for m in traj.modes)}
    if not used <= set(DETERMINISTIC):
        raise PlayRefused(
            "sim_control",
            f"run '{run_id}' was directed by {sorted(used - set(DETERMINISTIC))}: only rules/static runs "
            "replay",
        )
    if director is not None and director not in modes():
        raise PlayRefused("sim_control", f"unknown director mode '{director}'; modes: {', '.join(modes())}")
    recorded = read_rows(events_path(path))
    inputs = read_rows(inputs_path(path))
    last = max([r["tick"] for r in recorded + inputs] or [0])
    if traj.summary is not None:
        last = max(last, traj.summary.ticks)
    if live_tick is not None:  # the run in progress: it has reached this tick
        last = max(last, live_tick)
    target = last if tick is None else tick
    if not 1 <= target <= last:
        raise PlayRefused("sim_control", f"run '{run_id}' has ticks 1-{last}; cannot fork at {target}")
    if fresh is not None:
        fresh()
    controller.front.new_run(traj.header.seed)  # the old run ends (recorded); on_run_start resets the journal
    set_mode(traj.header.mode)
    controller.feed = InputFeed(inputs)
    controller.feed_diverged = ""
    future = controller.begin_step(ticks=target, command="sim_control")
    req = controller.clock.request
    assert req is not None

    def at_fork() -> None:
        controller.feed = None
        world = controller.handle.world
        reached = world.tick if world is not None else 0
        upto = min(target, reached)  # a replay cancelled or out of wall time compares what it did
        expected = [r for r in recorded if r["tick"] <= upto]
        replayed = [r for r in controller.journal.rows if r["tick"] <= upto]
        diff = _first_difference(expected, replayed)
        req.extra["forked_from"] = run_id
        req.extra["fork_tick"] = target
        if reached < target:
            req.extra["reached_tick"] = reached
        req.extra["identical"] = reached >= target and diff is None and not controller.feed_diverged
        if diff is not None:
            req.extra["diverged"] = diff
        elif controller.feed_diverged:
            req.extra["diverged"] = controller.feed_diverged
        controller.feed_diverged = ""
        mode = director or traj.header.mode
        set_mode(mode)
        req.extra["director"] = mode

    req.on_end = at_fork
    return future
