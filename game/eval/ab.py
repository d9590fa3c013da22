"""Bot A/B: the same bots and seeds under static difficulty and under the director.

For each skill (weak, average, strong) and seed, one run of ``seconds`` game time in respawn mode (deaths
are counted and play goes on, so every run lasts the full time) with the director off (``static``) and one
with it on (``rules`` or a registered source). Both are measured by the same ``FlowMeter``: share of ticks
with intensity in the flow band, deaths, and bored time. Runs are headless and spread over worker processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from game.bot import SkillName
from game.director.director import STATIC
from game.director.metrics import BORED_HP, BORED_INTENSITY, FLOW_BAND
from game.director.runner import run_directed
from game.eval.progress import ProgressBar

SKILLS: tuple[SkillName, ...] = ("weak", "average", "strong")


@dataclass(frozen=True)
class RunResult:
    skill: str
    seed: int
    mode: str
    flow: float
    bored: float
    over: float
    deaths: int
    mean_pressure: float
    kills: int


def run_one(job: tuple[SkillName, int, str, float]) -> RunResult:
    skill, seed, mode, seconds = job
    summary, m = run_directed(seed, seconds, skill, mode, respawn=True)
    return RunResult(
        skill, seed, mode, m.flow_share, m.bored_share, m.over_share, m.deaths, m.mean_pressure, summary.kills
    )


def run_ab(
    *,
    seeds: Sequence[int] = range(5),
    seconds: float = 180.0,
    skills: Sequence[SkillName] = SKILLS,
    mode: str = "rules",
    workers: int = 2,
    progress: bool = True,
) -> list[RunResult]:
    jobs = [(sk, sd, md, seconds) for sk in skills for sd in seeds for md in (STATIC, mode)]
    bar = ProgressBar(len(jobs), "bot A/B") if progress else None
    results: list[RunResult] = []
    if workers <= 1:
        for job in jobs:
            results.append(run_one(job))
            if bar:
                bar.update(len(results), f"{job[0]} seed {job[1]} {job[2]}")
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_one, job) for job in jobs]
            for fut in as_completed(futures):
                r = fut.result()
                results.append(r)
                if bar:
                    bar.update(len(results), f"{r.skill} seed {r.seed} {r.mode}")
    if bar:
        bar.close()
    return sorted(results, key=lambda r: (SKILLS.index(r.skill) if r.skill in SKILLS else 9, r.seed, r.mode))


def _ratio(director: float, static: float) -> str:
    if static == 0:
        return "  n/a" if director == 0 else "  inf"
    return f"{director / static:5.2f}x"


def summarize(results: Sequence[RunResult], mode: str) -> dict[str, dict[str, float]]:
    """Per skill: mean flow and bored shares and total deaths, for static and director."""
    out: dict[str, dict[str, float]] = {}
    for skill in dict.fromkeys(r.skill for r in results):
        row: dict[str, float] = {}
        for label, md in (("static", STATIC), ("director", mode)):
            rs = [r for r in results if r.skill == skill and r.mode == md]
            n = max(1, len(rs))
            row[f"flow_{label}"] = sum(r.flow for r in rs) / n
            row[f"bored_{label}"] = sum(r.bored for r in rs) / n
            row[f"deaths_{label}"] = float(sum(r.deaths for r in rs))
            row[f"pressure_{label}"] = sum(r.mean_pressure for r in rs) / n
            row["runs"] = float(len(rs))
        out[skill] = row
    return out


def format_ab(results: Sequence[RunResult], mode: str, seconds: float) -> str:
    table = summarize(results, mode)
    seeds = sorted({r.seed for r in results})
    lo, hi = FLOW_BAND
    lines = [
        f"Bot A/B: director '{mode}' vs static difficulty, {len(seeds)} seeds x {seconds:g} s game time "
        "per skill (respawn on)",
        f"flow = intensity in [{lo:g}, {hi:g}]; bored = intensity < {BORED_INTENSITY:g} "
        f"at HP >= {BORED_HP:.0%}; ratio = director / static",
        "",
        f"{'skill':<8} | {'flow static':>11} {'director':>9} {'ratio':>7} | "
        f"{'deaths static':>13} {'director':>9} {'ratio':>7} | "
        f"{'bored static':>12} {'director':>9} {'ratio':>7}",
    ]
    for skill, row in table.items():
        lines.append(
            f"{skill:<8} | {row['flow_static']:>11.1%} {row['flow_director']:>9.1%} "
            f"{_ratio(row['flow_director'], row['flow_static']):>7} | "
            f"{row['deaths_static']:>13.0f} {row['deaths_director']:>9.0f} "
            f"{_ratio(row['deaths_director'], row['deaths_static']):>7} | "
            f"{row['bored_static']:>12.1%} {row['bored_director']:>9.1%} "
            f"{_ratio(row['bored_director'], row['bored_static']):>7}"
        )
    pressures = ", ".join(f"{s} {row['pressure_director']:.2f}" for s, row in table.items())
    lines += ["", f"mean director pressure knob: {pressures}"]
    return "\n".join(lines)
