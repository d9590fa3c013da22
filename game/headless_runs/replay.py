"""Replay a director trajectory without calling any model, and check it reproduces the recorded run.

The run is rebuilt from the header (seed, bot, mode, seconds, respawn, the director's starting memory).
Every plan source, rules included, is replaced by a ``ReplaySource`` that answers request N with the reply
recorded for decision N, and only from the tick that reply was applied at (the replayed future is "done"
from that tick on), so a slow LLM's timing is reproduced exactly. Mode switches happen at their recorded
ticks. Each request's prompt hash and each decision's commands are compared with the recording; a mismatch,
or a final summary that differs, raises ``PersistenceError`` naming the first divergence.

Only bot-played runs replay: a human's inputs are not recorded. Runs that used mod events need the same
events registered (pass ``events=``).
"""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from loguru import logger

from coreai.errors import CoreAIError, PersistenceError
from game.director.director import STATIC, Director
from game.director.events import EventRegistry
from game.director.memory import DirectorMemory
from game.director.source import PlanReply, PlanRequest
from game.director.trajectory import DecisionRecord
from game.headless import RunSummary, run_headless
from game.headless_runs.trajectory_file import MemoryTrajectory, Trajectory, read_trajectory
from game.sim.world import World

_log = logger.bind(feature="director", trace_id="-")
VOLATILE = {"ticks_per_second"}  # wall-clock fields a replay cannot (and need not) reproduce


def comparable(summary: RunSummary) -> dict[str, Any]:
    """A summary without its wall-clock fields: two runs are the same run when these are equal."""
    return summary.model_dump(exclude=VOLATILE)


class _TickFuture:
    """Done once the world reaches ``tick``; then yields the recorded reply or failure."""

    def __init__(self, world: World, tick: int, inner: Future[PlanReply]) -> None:
        self._world, self._tick, self._inner = world, tick, inner

    def done(self) -> bool:
        return self._world.tick >= self._tick

    def result(self, timeout: float | None = None) -> Any:
        return self._inner.result(timeout=0)

    def cancel(self) -> bool:
        return True


class _Never:
    """A request the original run superseded before it answered."""

    def done(self) -> bool:
        return False

    def result(self, timeout: float | None = None) -> Any:
        raise TimeoutError("superseded request has no reply")

    def cancel(self) -> bool:
        return True


class ReplaySource:
    def __init__(self, name: str, decisions: dict[int, DecisionRecord], world_ref: list[World]) -> None:
        self.name = name
        self._decisions = decisions
        self._world_ref = world_ref
        self.divergences: list[str] = []

    def request(self, req: PlanRequest) -> _TickFuture | _Never:
        rec = self._decisions.get(req.seq)
        if rec is None:
            return _Never()
        got = req.situation.prompt_hash()
        if got != rec.prompt_hash or req.tick != rec.request_tick:
            self.divergences.append(
                f"request {req.seq}: tick {req.tick} hash {got}, "
                f"recorded tick {rec.request_tick} hash {rec.prompt_hash}"
            )
        inner: Future[PlanReply] = Future()
        if rec.status == "failed":
            inner.set_exception(CoreAIError(rec.error or "recorded failure", trace_id=rec.trace_id))
        else:
            inner.set_result(PlanReply(rec.raw, rec.reply_plan, rec.backend, rec.latency_s, rec.trace_id))
        return _TickFuture(self._world_ref[0], rec.applied_tick, inner)


def replay(path: Path, *, strict: bool = True, events: EventRegistry | None = None) -> RunSummary:
    """Replay ``path`` and return the replayed summary; ``PersistenceError`` if it diverged (and strict).

    Every bad file is a ``PersistenceError`` (or ``CorruptSaveError``) naming the file and the problem:
    unreadable, not a trajectory, header fields out of bounds, a divergence."""
    try:
        return _replay(path, strict=strict, events=events)
    except CoreAIError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError, RecursionError, MemoryError) as exc:
        raise PersistenceError(str(path), f"cannot replay: {type(exc).__name__}: {exc}") from exc


def _replay(path: Path, *, strict: bool, events: EventRegistry | None) -> RunSummary:
    if path.is_dir():
        raise PersistenceError(str(path), "is a folder, not a trajectory file")
    traj = read_trajectory(path)
    h = traj.header
    if h.bot is None:
        raise PersistenceError(
            str(path), "this run was played by a human; inputs are not recorded, so it cannot replay"
        )
    if h.seconds <= 0:
        raise PersistenceError(str(path), "the header records no run length (seconds = 0); cannot replay")
    registry = events if events is not None else EventRegistry()
    missing = sorted(set(h.events) - set(registry.names()))
    if missing:
        raise PersistenceError(str(path), f"replay needs the events {missing} registered (mods not loaded?)")
    world_ref: list[World] = []
    decisions = {d.seq: d for d in traj.decisions}
    modes = {m.mode for m in traj.modes} | {h.mode}
    sources = [ReplaySource(name, decisions, world_ref) for name in sorted(modes - {STATIC})]
    sink = MemoryTrajectory()
    director = Director(
        h.mode, seed=h.seed, sources=tuple(sources), memory=DirectorMemory(list(h.memory)), events=registry
    )
    director.trajectory = sink
    world = World(seed=h.seed, spawner=director.spawner, respawn=h.respawn, final_wave=h.final_wave)
    world_ref.append(world)
    switches = {m.tick: m.mode for m in traj.modes}

    def tick(w: World) -> None:
        director.on_tick(w)
        if w.tick in switches:
            director.set_mode(switches[w.tick], w)

    summary = run_headless(h.seed, h.seconds, h.bot, world=world, respawn=h.respawn, on_tick=tick)
    # the recorded decisions first: a changed decision is the cause, later requests that differ its effect
    problems = _compare(traj, sink)
    problems += [d for s in sources for d in s.divergences]
    if traj.summary is not None and comparable(traj.summary) != comparable(summary):
        problems.append(
            f"summary differs: recorded {comparable(traj.summary)}, replayed {comparable(summary)}"
        )
    if problems:
        msg = f"replay diverged ({len(problems)} differences); first: {problems[0]}"
        if strict:
            raise PersistenceError(str(path), msg)
        _log.warning("{}: {}", path, msg)
    return summary


def _compare(traj: Trajectory, sink: MemoryTrajectory) -> list[str]:
    out = []
    for rec, got in zip(traj.decisions, sink.decisions, strict=False):
        if (rec.seq, rec.status, rec.applied_tick, rec.commands) != (
            got.seq,
            got.status,
            got.applied_tick,
            got.commands,
        ) or (rec.spawns and rec.spawns != got.spawns):  # older files recorded no spawns
            out.append(f"decision {rec.seq}: " + "; ".join(decision_differences(rec, got)))
            break
    if len(sink.decisions) != len(traj.decisions):
        out.append(f"{len(sink.decisions)} decisions replayed, {len(traj.decisions)} recorded")
    return out


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _dict_differences(what: str, a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [
        f"{what}{key} recorded {_shown(a.get(key))}, replayed {_shown(b.get(key))}"
        for key in sorted(set(a) | set(b))
        if a.get(key) != b.get(key)
    ]


def decision_differences(rec: DecisionRecord, got: DecisionRecord) -> list[str]:
    """What differs between a recorded decision and its replay, field by field (empty: they agree): the
    status and tick, then the plan's fields, then (when the plans agree) the commands."""
    out = []
    if rec.seq != got.seq:
        out.append(f"sequence recorded {rec.seq}, replayed {got.seq}")
    if rec.status != got.status:
        out.append(f"status recorded {rec.status}, replayed {got.status}")
    if rec.applied_tick != got.applied_tick:
        out.append(f"applied at tick {rec.applied_tick} when recorded, {got.applied_tick} in the replay")
    plans = _dict_differences("plan field ", rec.plan or {}, got.plan or {})
    out += plans
    if rec.commands != got.commands and not plans:
        for i, (a, b) in enumerate(zip(rec.commands, got.commands, strict=False)):
            if a != b:
                out += _dict_differences(f"command {i + 1} ({a.get('op', '?')}) ", a, b)
                break
        else:
            out.append(f"{len(rec.commands)} commands recorded, {len(got.commands)} replayed")
    if rec.spawns and rec.spawns != got.spawns:
        out += _dict_differences("spawns by ", rec.spawns, got.spawns)
    return out
