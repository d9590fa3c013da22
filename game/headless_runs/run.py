"""Headless directed runs for the evaluation, tests and replay: a bot plays, the director (or static
difficulty) runs, and the run's summary comes back with its flow metrics.

``run_directed(seed, seconds, bot, mode)`` builds ``Director`` + ``World(spawner=director.spawner)`` and
steps them through ``game.headless.run_headless``; with ``trajectory=True`` it writes
``saves/trajectories/<run>.jsonl`` that ``replay.replay`` reproduces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from game.director.director import STATIC, Director
from game.director.memory import DirectorMemory
from game.director.source import PlanSource
from game.director.trajectory import MAX_REPLAY_SECONDS
from game.headless import RunSummary, run_headless
from game.headless_runs.metrics import DirectedMetrics, FlowMeter
from game.headless_runs.trajectory_file import TrajectoryHeader, TrajectoryWriter, new_run_path
from game.sim.config import FINAL_WAVE, TICK_HZ
from game.sim.world import World


def build(
    seed: int,
    mode: str,
    *,
    respawn: bool = True,
    sources: tuple[PlanSource, ...] = (),
    memory: DirectorMemory | None = None,
    difficulty: str = "normal",
    final_wave: int | None = FINAL_WAVE,
) -> tuple[Director, World]:
    """A director and its world, wired together (the window game does the same)."""
    director = Director(mode, seed=seed, sources=sources, memory=memory, difficulty=lambda: difficulty)
    world = World(seed=seed, spawner=director.spawner, respawn=respawn, final_wave=final_wave)
    return director, world


def attach_trajectory(
    director: Director,
    *,
    seed: int,
    bot: str | None,
    seconds: float,
    respawn: bool,
    path: Path | None = None,
    final_wave: int | None = FINAL_WAVE,
) -> TrajectoryWriter:
    """Start recording ``director``'s decisions (call before the first tick; ``bot=None`` for a human)."""
    path = path if path is not None else new_run_path(seed, director.mode)
    # a session longer than a replay may re-simulate (a window, MCP), or with no end, is recorded as
    # open-ended (0): it is never refused for its length, it only cannot replay
    replayable = 0 < seconds <= MAX_REPLAY_SECONDS
    header = TrajectoryHeader(
        run_id=path.stem,
        seed=seed,
        bot=bot,
        mode=director.mode,
        seconds=seconds if replayable else 0.0,
        respawn=respawn,
        final_wave=final_wave,
        memory=director.memory.notes(),
        events=list(director.events.names()),
    )
    writer = TrajectoryWriter(path, header)
    director.trajectory = writer
    return writer


def run_directed(
    seed: int,
    seconds: float,
    bot: str,
    mode: str = "rules",
    *,
    respawn: bool = True,
    trajectory: bool | Path = False,
    sources: tuple[PlanSource, ...] = (),
    memory: DirectorMemory | None = None,
    on_tick: Callable[[Director, World], None] | None = None,
    on_start: Callable[[Director, World], None] | None = None,
    checkpoints: tuple[float, ...] = (),
    difficulty: str = "normal",
    lockstep_s: float | None = None,
    final_wave: int | None = FINAL_WAVE,
) -> tuple[RunSummary, DirectedMetrics]:
    """Play one run; ``checkpoints`` (seconds) also measure the run's first N seconds, in the same run: the
    director never knows the run's length, so they equal separate shorter runs (a test checks).

    ``lockstep_s``: the simulation waits (up to that many seconds of wall time each) while a plan is
    pending, so a slow model is judged on its plans, not on the machine's speed; None: no wait (a model's
    plan lands when it lands, as in a window at real time). ``on_start`` sees the director and the world
    once, before the first tick (a replayed source binds to the world there)."""
    director, world = build(
        seed,
        mode,
        respawn=respawn,
        sources=sources,
        memory=memory,
        difficulty=difficulty,
        final_wave=final_wave,
    )
    if on_start is not None:
        on_start(director, world)
    writer: TrajectoryWriter | None = None
    if trajectory:
        path = trajectory if isinstance(trajectory, Path) else None
        writer = attach_trajectory(
            director, seed=seed, bot=bot, seconds=seconds, respawn=respawn, path=path, final_wave=final_wave
        )
    meter = FlowMeter()
    pressures: Counter[str] = Counter()
    seen = 0
    marks = {round(c * TICK_HZ) for c in checkpoints if 0 < c < seconds}
    early: list[DirectedMetrics] = []

    def tick(w: World) -> None:
        nonlocal seen
        director.on_tick(w)
        if lockstep_s is not None:
            director.wait_pending(lockstep_s)
        meter.add(
            director.intensity.value,
            director.telemetry.hp_fraction,
            director.pacing.state.value,
            director.knobs.pressure if director.mode != STATIC else 1.0,
        )
        if director.accepted > seen:
            seen = director.accepted
            if director.last_plan is not None:
                pressures[director.last_plan.pressure] += 1
        if w.tick in marks:
            early.append(meter.result(mode, w.stats.deaths))
        if on_tick is not None:
            on_tick(director, w)

    summary = run_headless(seed, seconds, bot, world=world, respawn=respawn, on_tick=tick)
    if writer is not None:
        writer.summary(summary)
    metrics = meter.result(
        mode,
        summary.deaths,
        accepted=director.accepted,
        rejected=director.rejected,
        failed=director.failed,
        superseded=director.superseded,
        pressure_counts=dict(pressures),
        trajectory=str(writer.path) if writer is not None else None,
        checkpoints=tuple(early),
    )
    return summary, metrics
