"""Run history + high scores as one logical save (issue 12 item 4), the human/bot tables and zero scores.

runs.json is the journal; the tables in highscores.json are derived and repaired at load. A bounded kill -9
loop in a subprocess shows no corrupt file and no lost record.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from game.headless import RunSummary
from game.saves import MAX_HIGH_SCORES, SaveStore


def _summary(score: int, seed: int = 1, bot: str | None = None) -> RunSummary:
    return RunSummary(seed=seed, seconds=60, waves_reached=2, kills=10, deaths=1, damage_taken=100,
                      final_score=score, ticks=3600, ticks_per_second=5000, bot=bot)  # fmt: skip


def test_human_and_bot_runs_have_their_own_tables_and_zero_never_shows(saves_dir: Path) -> None:
    store = SaveStore()
    assert store.record_run(_summary(100)) == 1
    assert store.record_run(_summary(900, bot="greedy")) == 1  # first in the bot table
    assert store.record_run(_summary(500), human=False) == 2  # a headless run without a bot: bot table
    assert store.record_run(_summary(0)) is None and store.record_run(_summary(0, bot="greedy")) is None
    again = SaveStore()
    assert [h.score for h in again.high_scores()] == [100]
    assert [h.score for h in again.high_scores(bots=True)] == [900, 500]
    assert again.best_score() == 100 and len(again.history.runs) == 5  # zero-score runs stay in the history
    raw = json.loads((saves_dir / "highscores.json").read_text())
    assert all(e["score"] > 0 for e in raw["entries"] + raw["bot_entries"])


def test_a_version_1_file_is_split_and_loses_its_zero_scores(saves_dir: Path) -> None:
    old = [{"score": s, "wave": 1, "seconds": 1.0, "seed": 1, "bot": b, "finished_at": 1.0}
           for s, b in ((300, None), (200, "greedy"), (0, None))]  # fmt: skip
    (saves_dir / "highscores.json").write_text(json.dumps({"version": 1, "entries": old}))
    store = SaveStore()
    assert [h.score for h in store.high_scores()] == [300]
    assert [h.score for h in store.high_scores(bots=True)] == [200]


def test_a_run_missing_from_the_tables_is_repaired_at_load(saves_dir: Path) -> None:
    store = SaveStore()
    store.record_run(_summary(100))
    good = (saves_dir / "highscores.json").read_text()
    store.record_run(_summary(300))
    (saves_dir / "highscores.json").write_text(good)  # as if killed between the two writes
    (saves_dir / ".highscores.json.abc123.tmp").write_text('{"half')  # and a torn temp file
    again = SaveStore()
    assert [h.score for h in again.high_scores()] == [300, 100]
    assert not list(saves_dir.glob(".*.tmp")), "stale temp files are cleaned at startup"
    assert json.loads((saves_dir / "highscores.json").read_text())["applied_seq"] == 2


def test_a_corrupt_or_deep_table_file_is_quarantined_and_rebuilt_from_the_runs(saves_dir: Path) -> None:
    store = SaveStore()
    for score in (10, 30, 20):
        store.record_run(_summary(score))
    (saves_dir / "highscores.json").write_text("[" * 100_000)
    again = SaveStore()
    assert [h.score for h in again.high_scores()] == [30, 20, 10]
    assert list(saves_dir.glob("highscores.json.corrupt-*")) and "moved aside" in again.warnings[0]
    (saves_dir / "runs.json").write_text("[" * 100_000)  # deep runs.json: quarantined, no RecursionError
    third = SaveStore()
    assert third.history.runs == [] and [h.score for h in third.high_scores()] == [30, 20, 10]
    assert third.record_run(_summary(40)) == 1 and SaveStore().history.runs[-1].summary.final_score == 40


CHILD = r"""
import sys
from pathlib import Path
from game.headless import RunSummary
from game.saves import SaveStore
root, start, count = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
store = SaveStore(root)
for i in range(start, start + count):
    s = RunSummary(seed=i, seconds=60, waves_reached=2, kills=10, deaths=1, damage_taken=1.0,
                   final_score=(i * 7919) % 1000 + 1, ticks=1, ticks_per_second=1.0,
                   bot=None if i % 3 else "greedy")
    store.record_run(s)
    print(i, flush=True)
"""


def test_kill_9_loop_leaves_no_corrupt_file_and_loses_no_record(tmp_path: Path) -> None:
    """N child processes each record runs and are killed with SIGKILL at a random moment; after each kill
    the files load without quarantine, hold every run the child reported saved, and the tables equal
    the tables recomputed from runs.json."""
    root = tmp_path / "saves"
    root.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    rng = random.Random(12)
    kills, next_seed, confirmed = 0, 0, set()
    n_runs = 12
    for _ in range(n_runs):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), str(next_seed), "6"],
                                 stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
        assert child.stdout is not None
        first = child.stdout.readline()  # the store is loaded and one run is in
        assert first.strip(), "the child failed before its first record"
        confirmed.add(int(first))
        time.sleep(rng.uniform(0.0, 0.08))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        kills += child.returncode == -signal.SIGKILL
        confirmed |= {int(line) for line in out.split()}
        next_seed += 6
        store = SaveStore(root)
        assert store.warnings == [] and not list(root.glob("*.corrupt-*")), store.warnings
        seeds = {r.summary.seed for r in store.history.runs}
        assert confirmed <= seeds, f"lost records: {sorted(confirmed - seeds)}"
        for bots in (False, True):
            runs = [r for r in store.history.runs if r.by_human != bots and r.summary.final_score > 0]
            want = sorted((-r.summary.final_score, r.finished_at) for r in runs)[:MAX_HIGH_SCORES]
            got = [(-h.score, h.finished_at) for h in store.high_scores(bots=bots)]
            assert got == want
    assert not list(root.glob(".*.tmp"))
    print(f"kill -9 loop: {n_runs} runs, {kills} killed mid-run, {len(confirmed)} confirmed records, "
          f"0 corrupt files, 0 lost records")  # fmt: skip
