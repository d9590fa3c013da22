"""Trajectories record every decision; replay reproduces the run without any model and catches divergence."""

from __future__ import annotations

import json
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from coreai.errors import CorruptSaveError, PersistenceError
from game.director.director import Director
from game.director.rules import decide
from game.director.source import PlanReply, PlanRequest
from game.headless_runs.replay import comparable, replay
from game.headless_runs.run import run_directed
from game.headless_runs.trajectory_file import read_trajectory
from game.sim.world import World


def test_rules_run_is_recorded_and_replays_to_the_same_summary(saves_dir: Path) -> None:
    summary, metrics = run_directed(3, 45.0, "weak", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    assert path.parent == saves_dir / "trajectories" and path.suffix == ".jsonl"
    traj = read_trajectory(path)
    assert (traj.header.seed, traj.header.bot, traj.header.mode, traj.header.seconds) == (
        3,
        "weak",
        "rules",
        45.0,
    )
    assert len(traj.decisions) == metrics.accepted + metrics.rejected + metrics.failed >= 4
    d = traj.decisions[0]
    assert d.status == "accepted" and d.plan is not None and d.commands[0]["op"] == "set_knobs"
    assert len(d.prompt_hash) == 16 and d.raw and d.snapshot.tick == d.request_tick
    assert traj.summary is not None and comparable(traj.summary) == comparable(summary)
    again = replay(path)
    assert comparable(again) == comparable(summary)


class ThreadedRules:
    """The rules policy answered on a worker thread after a real delay: reply ticks depend on wall time."""

    name = "threaded"

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.calls = 0

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        self.calls += 1
        delay = 0.004 * (1 + req.seq % 3)

        def work() -> PlanReply:
            time.sleep(delay)
            data = decide(req.situation)
            if req.seq % 4 == 0:
                data = {**data, "mix": {"dragon": 1.0}}  # a hallucination now and then: rejected
            return PlanReply(json.dumps(data), data, self.name, delay, req.trace_id)

        return self.pool.submit(work)


def test_slow_threaded_source_with_mode_switches_replays_exactly(saves_dir: Path) -> None:
    src = ThreadedRules()

    def switch(d: Director, w: World) -> None:
        if w.tick == 1500:
            d.set_mode("static", w)
        elif w.tick == 2100:
            d.set_mode("threaded", w)

    try:
        summary, metrics = run_directed(
            5, 70.0, "average", "threaded", trajectory=True, sources=(src,), on_tick=switch
        )
    finally:
        src.pool.shutdown(wait=True)
    traj = read_trajectory(Path(metrics.trajectory or ""))
    assert [(m.tick, m.mode) for m in traj.modes] == [(1500, "static"), (2100, "threaded")]
    assert metrics.rejected >= 1 and metrics.accepted >= 3
    assert any(d.applied_tick > d.request_tick for d in traj.decisions)  # replies really arrived later
    again = replay(Path(metrics.trajectory or ""))
    assert comparable(again) == comparable(summary)


def test_a_tampered_trajectory_is_caught(saves_dir: Path) -> None:
    _, metrics = run_directed(4, 30.0, "strong", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"type":"decision"' in line and '"accepted"' in line)
    rec = json.loads(lines[i])
    rec["raw"] = json.dumps({"pressure": "spike", "reason": "tampered", "event": "swarm"})
    rec["reply_plan"] = None
    lines[i] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PersistenceError, match="diverged"):
        replay(path)
    replay(path, strict=False)  # a lenient replay still runs to the end


def test_reader_skips_a_torn_last_line_and_rejects_a_corrupt_middle(saves_dir: Path) -> None:
    _, metrics = run_directed(6, 20.0, "weak", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    text = path.read_text(encoding="utf-8")
    path.write_text(text + '{"type": "decision", "seq": 9', encoding="utf-8")  # a crash mid-write
    assert read_trajectory(path).summary is not None
    lines = text.splitlines()
    lines[1] = "{oops"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CorruptSaveError, match="line 2"):
        read_trajectory(path)
    assert path.exists()  # left in place for a human to look at


def test_human_runs_and_missing_files_give_clear_errors(saves_dir: Path) -> None:
    _, metrics = run_directed(7, 5.0, "weak", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["bot"] = None
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(PersistenceError, match="human"):
        replay(path)
    with pytest.raises(PersistenceError, match="cannot read"):
        read_trajectory(saves_dir / "nope.jsonl")
