"""The evaluation's one runner: worker processes and one-at-a-time runs give the same results, in the
report's order, for ``ab`` and ``stakes`` alike."""

from __future__ import annotations

from game.eval.ab import run_ab
from game.eval.runner import run_jobs, seed_text
from game.eval.stakes import run_stakes


def _square(x: int) -> int:
    return x * x


def test_run_jobs_runs_every_job_in_workers_or_here() -> None:
    here = run_jobs(list(range(6)), _square, label="t", describe=str, workers=1, progress=False)
    pool = run_jobs(list(range(6)), _square, label="t", describe=str, workers=2, progress=False)
    assert here == [0, 1, 4, 9, 16, 25] and sorted(pool) == here
    forced = run_jobs([3, 1], _square, label="t", describe=str, workers=2, in_process=True, progress=False)
    assert forced == [9, 1]  # an LLM source's runs: here, in the jobs' order


def test_workers_and_one_at_a_time_give_the_same_reports() -> None:
    kw = {"seeds": [2, 3], "skills": ("idle",), "progress": False}
    assert run_stakes(workers=1, **kw) == run_stakes(workers=2, **kw)  # type: ignore[arg-type]
    ab = {"seeds": [1], "seconds": 12.0, "skills": ("weak",), "progress": False}
    assert run_ab(workers=1, **ab) == run_ab(workers=2, **ab)  # type: ignore[arg-type]


def test_seed_text() -> None:
    assert (seed_text([4, 5, 6]), seed_text([2, 7]), seed_text([9])) == ("4-6", "2,7", "9")
