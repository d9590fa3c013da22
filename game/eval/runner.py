"""The evaluation's one worker pool: run jobs in worker processes (or one at a time in this process), with
a progress bar on stderr. ``ab`` and ``stakes`` both go through ``run_jobs``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

from game.eval.progress import ProgressBar

J = TypeVar("J")
R = TypeVar("R")


def seed_text(seeds: list[int]) -> str:
    """Seeds for a report's header: ``3000-3004`` when they run without a gap, else listed."""
    contiguous = bool(seeds) and seeds == list(range(seeds[0], seeds[-1] + 1))
    return f"{seeds[0]}-{seeds[-1]}" if contiguous and len(seeds) > 1 else ",".join(map(str, seeds))


def run_jobs(
    jobs: Sequence[J],
    run: Callable[[J], R],
    *,
    label: str,
    describe: Callable[[R], str],
    workers: int = 2,
    in_process: bool = False,
    progress: bool = True,
) -> list[R]:
    """``run(job)`` for every job, in completion order. ``run`` must be a module-level function (it is sent to
    worker processes). ``in_process`` (or ``workers <= 1``): one at a time here, in the jobs' order, as an
    LLM plan source needs (its model has one owner)."""
    bar = ProgressBar(len(jobs), label) if progress else None
    out: list[R] = []

    def done(i: int, result: R) -> None:
        out.append(result)
        if bar:
            bar.update(i, describe(result))

    try:
        if workers <= 1 or in_process:
            for i, job in enumerate(jobs, start=1):
                done(i, run(job))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [pool.submit(run, job) for job in jobs]
                for i, fut in enumerate(as_completed(futures), start=1):
                    done(i, fut.result())
    finally:
        if bar:
            bar.close()
    return out
