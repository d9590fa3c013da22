"""A picture of a run: one seed and one player model, static difficulty above the director, each a panel of
HP, enemies in view, pressure and danger over game time (``python -m game.eval stakes --plot FILE``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from game.eval.stakes import CLOSE_HIGH, CLOSE_LOW, StakesRun


def plot_runs(runs: Sequence[StakesRun], path: Path, title: str = "") -> Path:
    """Write a PNG with one panel per run (in the order given) and return its path."""
    import matplotlib

    matplotlib.use("Agg")  # no display: a file only
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(runs), 1, figsize=(11, 3.2 * len(runs)), sharex=True, squeeze=False)
    for ax, run in zip(axes[:, 0], runs, strict=True):
        t = [s.t / 60.0 for s in run.samples]
        ax.fill_between(t, [s.hp * 100 for s in run.samples], color="#e0505a", alpha=0.35, lw=0, label="HP %")
        ax.axhspan(0, CLOSE_LOW * 100, color="#e0505a", alpha=0.06)
        ax.axhline(CLOSE_HIGH * 100, color="#e0505a", lw=0.6, ls=":")
        ax.plot(t, [s.in_view for s in run.samples], color="#3070c0", lw=0.9, label="enemies in view")
        ax.set_ylim(0, 110)
        ax.set_ylabel("HP % / enemies")
        right = ax.twinx()
        right.plot(t, [s.pressure for s in run.samples], color="#f0a030", lw=1.4, label="pressure")
        right.plot(t, [s.danger for s in run.samples], color="#70c070", lw=1.4, label="danger")
        right.set_ylim(0, 3.2)
        right.set_ylabel("pressure / danger (x)")
        end = "WON" if run.won else "LOST" if run.died else "cut"
        ax.set_title(
            f"{run.mode}: {end} at {run.ended_s / 60:.1f} min, wave {run.wave}, "
            f"{run.close_calls} close calls",
            loc="left",
            fontsize=10,
        )
        lines = ax.get_legend_handles_labels()
        more = right.get_legend_handles_labels()
        ax.legend(lines[0] + more[0], lines[1] + more[1], loc="upper right", fontsize=8, ncol=4)
    axes[-1, 0].set_xlabel("game time (minutes)")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
