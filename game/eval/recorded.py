"""A recorded director as the evaluation's plan source: ``--mode replay:PATH`` (a trajectory file, or a
folder of them).

Each recording is one bot's run on one seed: ``python -m game.eval ab|stakes --mode MODE --record FOLDER``
keeps one per director run, and ``python -m game --headless --bot NAME --director rules`` writes one under
``saves/trajectories/``. The evaluation runs exactly the recorded (seed, model) cells:
static on the same cell beside the recorded plans, which land at the ticks they landed at when recorded, as
``python -m game --replay`` does. No model is called, so a slow model's run can be judged again at the
machine's full speed, in worker processes.

A recording the game cannot reproduce any more (the director or the balance changed since) still runs, but
the report says so: each replayed run is compared with its recording, and the first difference is named.
Files that cannot be used are refused before any worker starts (``load``), naming the file and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from coreai.errors import CoreAIError, PersistenceError
from game.director.director import STATIC, Director
from game.director.events import EventRegistry
from game.director.memory import DirectorMemory
from game.headless import RunSummary
from game.headless_runs.replay import ReplaySource, comparable, decision_differences
from game.headless_runs.trajectory_file import MemoryTrajectory, Trajectory, read_trajectory
from game.sim.config import FINAL_WAVE
from game.sim.world import World

PREFIX = "replay:"
IDENTICAL = "identical"  # a replayed run that reproduced its recording


class RecordingError(ValueError):
    """A ``replay:`` mode the evaluation cannot run; the message names the file and what to do."""


@dataclass(frozen=True)
class Recording:
    path: Path
    seed: int
    bot: str
    mode: str  # the mode that made the recording (rules, local, ...)
    seconds: float  # the run length it was recorded for
    respawn: bool
    ended: bool  # the run ended (a death or a win) before its time ran out

    @property
    def cell(self) -> tuple[str, int]:
        return (self.bot, self.seed)


def is_replay(mode: str) -> bool:
    return mode.startswith(PREFIX)


def _files(mode: str) -> list[Path]:
    raw = mode[len(PREFIX) :].strip()
    if not raw:
        raise RecordingError(
            "replay: needs a trajectory file or folder, e.g. replay:saves/trajectories/RUN.jsonl"
        )
    path = Path(raw).expanduser()
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise RecordingError(f"{path}: the folder holds no trajectory files (*.jsonl)")
        return files
    if not path.exists():
        raise RecordingError(f"{path}: no such trajectory file")
    return [path]


def _recording(path: Path) -> Recording:
    try:
        traj = read_trajectory(path)
    except CoreAIError as exc:
        raise RecordingError(" ".join(str(exc).split())) from None
    h = traj.header
    why = None
    if h.bot is None:
        why = "played by a human: inputs are not recorded, so it cannot replay"
    elif h.seconds <= 0:
        why = "recorded as open-ended (seconds = 0): it cannot replay"
    elif h.mode == STATIC or not traj.decisions:
        why = f"recorded with the director '{h.mode}' and holds no plans to replay"
    elif h.final_wave != FINAL_WAVE:
        why = f"a shorter run (--waves {h.final_wave}); the evaluation plays full runs of {FINAL_WAVE} waves"
    elif traj.modes:
        why = "switches director modes (F6) during the run; the evaluation replays one mode"
    elif missing := sorted(set(h.events) - set(EventRegistry().names())):
        why = (
            f"needs the events {missing} registered: it was made with mods, which the evaluation does not "
            "load; record runs for it with `python -m game.eval ab|stakes --mode MODE --record FOLDER`"
        )
    if why is not None:
        raise RecordingError(f"{path}: {why}")
    assert h.bot is not None
    ended = traj.summary is not None and (traj.summary.died or traj.summary.won)
    return Recording(path, h.seed, h.bot, h.mode, h.seconds, h.respawn, ended)


@cache
def load(mode: str) -> tuple[Recording, ...]:
    """The recordings ``mode`` names, checked; ``RecordingError`` for a file or folder that cannot run."""
    recs = tuple(_recording(p) for p in _files(mode))
    seen: dict[tuple[str, int], Path] = {}
    for r in recs:
        if r.cell in seen:
            raise RecordingError(
                f"{seen[r.cell]} and {r.path} both record {r.bot} on seed {r.seed}; keep one per cell"
            )
        seen[r.cell] = r.path
    return recs


def check(mode: str, *, respawn: bool, to_end_s: float | None = None) -> str | None:
    """None when the recordings fit the report (respawn on for ``ab``; off, and played to the run's end or
    to ``to_end_s``, for ``stakes``), else why not."""
    try:
        recs = load(mode)
    except RecordingError as exc:
        return f"cannot replay: {exc}"
    for r in recs:
        if r.respawn != respawn:
            flag = "with --respawn" if respawn else "without --respawn"
            return (
                f"cannot replay {r.path}: recorded with respawn {'on' if r.respawn else 'off'}, and this "
                f"report plays with it {'on' if respawn else 'off'}; record the run {flag}"
            )
        if to_end_s is not None and not r.ended and r.seconds < to_end_s:
            return (
                f"cannot replay {r.path}: the recording stops at {r.seconds:g} s before the run ended (no "
                f"death, no win); the stakes report plays to the run's end or {to_end_s:g} s: record a "
                "longer run"
            )
    return None


class ReplayedRun:
    """One recording replayed in the evaluation: its plan source, the hook that binds it to the run's
    world, and afterwards whether the run reproduced the recording."""

    def __init__(self, mode: str, seed: int, skill: str) -> None:
        rec = next((r for r in load(mode) if r.cell == (skill, seed)), None)
        if rec is None:
            raise PersistenceError(mode, f"no recording of {skill} on seed {seed}")
        self.recording = rec
        self.trajectory: Trajectory = read_trajectory(rec.path)
        self.memory = DirectorMemory(list(self.trajectory.header.memory))
        self._world: list[World] = []
        decisions = {d.seq: d for d in self.trajectory.decisions}
        self.source = ReplaySource(mode, decisions, self._world)
        self._sink = MemoryTrajectory()

    def start(self, director: Director, world: World) -> None:
        self._world.append(world)
        director.trajectory = self._sink

    def verdict(self, summary: RunSummary) -> str:
        """``IDENTICAL``, or the first difference from the recording (within the ticks both runs cover)."""
        last = summary.ticks
        recorded = [d for d in self.trajectory.decisions if d.applied_tick <= last]
        for rec, mine in zip(recorded, self._sink.decisions, strict=False):
            diff = decision_differences(rec, mine)
            if diff:
                return f"diverged at decision {rec.seq} (tick {rec.applied_tick}): {diff[0]}"
        if len(self._sink.decisions) != len(recorded):
            return f"diverged: {len(self._sink.decisions)} decisions replayed, {len(recorded)} recorded"
        if self.source.divergences:
            return f"diverged: {self.source.divergences[0]}"
        want = self.trajectory.summary
        covered = want is not None and (summary.ticks >= want.ticks or summary.died or summary.won)
        if want is not None and covered and comparable(want) != comparable(summary):
            exp, got = comparable(want), comparable(summary)
            key = next(k for k in exp if exp.get(k) != got.get(k))
            return (
                f"diverged: the summary's {key} was {exp.get(key)!r} when recorded, {got.get(key)!r} replayed"
            )
        return IDENTICAL


def replay_lines(runs: list[tuple[str, int, str]]) -> list[str]:
    """The report's lines on the replayed runs, from (model, seed, verdict) of each: how many reproduced
    their recording, and where each other one diverged (empty when nothing was replayed)."""
    replayed = [r for r in runs if r[2]]
    if not replayed:
        return []
    same = sum(v == IDENTICAL for _, _, v in replayed)
    lines = [
        "",
        f"Replay: {same} of {len(replayed)} replayed runs reproduced their recording"
        + (
            "."
            if same == len(replayed)
            else "; the others ran the recorded plans on a game that changed since:"
        ),
    ]
    lines += [f"  - {sk} seed {sd}: {v}" for sk, sd, v in replayed if v != IDENTICAL]
    return lines
