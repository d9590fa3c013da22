"""Bot A/B: the same bots and seeds under static difficulty and under the director.

For each skill (novice, weak, average, strong by default; ``still`` on request) and seed, one run of
``seconds`` game time in respawn mode (deaths are counted and play goes on, so every run lasts the full time)
with the director off (``static``) and one with it on (``rules`` or a registered source). Both are measured
by the same ``FlowMeter``: share of ticks with intensity in the flow band, deaths, bored time, flow and bored
per minute, and how many ``PEAK_WINDOW_S`` windows saw a Sustain Peak. Runs are headless and spread over
worker processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from game.bot import LADDER, SKILL_NAMES, SkillName
from game.director.director import STATIC
from game.director.metrics import BORED_HP, BORED_INTENSITY, FLOW_BAND, PEAK_WINDOW_S, DirectedMetrics
from game.director.runner import run_directed
from game.eval.progress import ProgressBar

SKILLS: tuple[SkillName, ...] = LADDER  # the default; ``--skills`` also takes ``still`` (SKILL_NAMES)
MAX_SECONDS = 1200.0
# The targets, checked on every report (director vs static, per skill).
TARGET_FLOW_RATIO = 1.5


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
    minute_flow: tuple[float, ...] = ()
    minute_bored: tuple[float, ...] = ()
    peaks: int = 0
    peak_windows: int = 0
    peak_windows_hit: int = 0
    seconds: float = 0.0  # game time this result covers


Job = tuple[SkillName, int, str, float, tuple[float, ...]]


def _result(skill: str, seed: int, mode: str, seconds: float, m: DirectedMetrics, kills: int) -> RunResult:
    return RunResult(
        skill,
        seed,
        mode,
        m.flow_share,
        m.bored_share,
        m.over_share,
        m.deaths,
        m.mean_pressure,
        kills,
        m.minute_flow,
        m.minute_bored,
        m.peaks,
        m.peak_windows,
        m.peak_windows_hit,
        seconds,
    )


def run_one(job: Job) -> list[RunResult]:
    """One run: its result at ``seconds`` and at each shorter ``report_at`` time of the same run."""
    skill, seed, mode, seconds, report_at = job
    summary, m = run_directed(seed, seconds, skill, mode, respawn=True, checkpoints=report_at)
    early = sorted(t for t in report_at if 0 < t < seconds)
    out = [_result(skill, seed, mode, t, cm, 0) for t, cm in zip(early, m.checkpoints, strict=True)]
    return [*out, _result(skill, seed, mode, seconds, m, summary.kills)]


def run_ab(
    *,
    seeds: Sequence[int] = range(5),
    seconds: float = 180.0,
    skills: Sequence[SkillName] = SKILLS,
    mode: str = "rules",
    workers: int = 2,
    progress: bool = True,
    report_at: Sequence[float] = (),
) -> list[RunResult]:
    """Every (skill, seed) under static and ``mode``; results at ``seconds`` and each ``report_at`` time."""
    marks = tuple(sorted(float(t) for t in report_at))
    jobs: list[Job] = [(sk, sd, md, seconds, marks) for sk in skills for sd in seeds for md in (STATIC, mode)]
    bar = ProgressBar(len(jobs), "bot A/B") if progress else None
    results: list[RunResult] = []
    if workers <= 1:
        for i, job in enumerate(jobs, start=1):
            results.extend(run_one(job))
            if bar:
                bar.update(i, f"{job[0]} seed {job[1]} {job[2]}")
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_one, job) for job in jobs]
            for i, fut in enumerate(as_completed(futures), start=1):
                rs = fut.result()
                results.extend(rs)
                if bar:
                    bar.update(i, f"{rs[-1].skill} seed {rs[-1].seed} {rs[-1].mode}")
    if bar:
        bar.close()
    order: dict[str, int] = {name: i for i, name in enumerate(SKILL_NAMES)}
    return sorted(results, key=lambda r: (r.seconds, order.get(r.skill, 9), r.seed, r.mode))


def _ratio(director: float, static: float) -> str:
    if static == 0:
        return "  n/a" if director == 0 else "  inf"
    return f"{director / static:5.2f}x"


def _per_minute(rs: Sequence[RunResult], attr: str) -> list[float]:
    """Mean share per minute over the runs (a minute counts the runs that reached it)."""
    longest = max((len(getattr(r, attr)) for r in rs), default=0)
    out = []
    for i in range(longest):
        vals = [getattr(r, attr)[i] for r in rs if len(getattr(r, attr)) > i]
        out.append(sum(vals) / len(vals))
    return out


def summarize(results: Sequence[RunResult], mode: str) -> dict[str, dict[str, float]]:
    """Per skill: mean flow and bored shares, total deaths and peak windows, for static and director."""
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
            row[f"windows_{label}"] = float(sum(r.peak_windows for r in rs))
            row[f"windows_hit_{label}"] = float(sum(r.peak_windows_hit for r in rs))
            row["runs"] = float(len(rs))
        out[skill] = row
    return out


def target_misses(row: dict[str, float]) -> list[str]:
    """Which of the issue's targets this skill's row misses (empty: all met)."""
    misses = []
    if row["flow_director"] < TARGET_FLOW_RATIO * row["flow_static"] or row["flow_director"] == 0:
        misses.append(f"flow ratio < {TARGET_FLOW_RATIO:g}x")
    if row["bored_director"] > row["bored_static"]:
        misses.append("bored > static")
    if row["deaths_director"] > row["deaths_static"]:
        misses.append("deaths > static")
    if row["windows_hit_director"] < row["windows_director"]:
        misses.append(f"a {PEAK_WINDOW_S:g} s window without a Sustain Peak")
    return misses


def format_ab(results: Sequence[RunResult], mode: str, seconds: float, *, per_minute: bool = True) -> str:
    """The report for every time the results cover (shortest first), or just ``seconds`` if they hold one."""
    times = sorted({r.seconds for r in results}) or [seconds]
    blocks = [
        _format_one([r for r in results if r.seconds == t], mode, t, per_minute=per_minute and t == times[-1])
        for t in times
    ]
    return "\n\n".join(blocks)


def _format_one(results: Sequence[RunResult], mode: str, seconds: float, *, per_minute: bool) -> str:
    table = summarize(results, mode)
    seeds = sorted({r.seed for r in results})
    lo, hi = FLOW_BAND
    contiguous = bool(seeds) and seeds == list(range(seeds[0], seeds[-1] + 1))
    seed_text = f"{seeds[0]}-{seeds[-1]}" if contiguous else ",".join(map(str, seeds))
    lines = [
        f"Bot A/B: director '{mode}' vs static difficulty, {len(seeds)} seeds ({seed_text}) x {seconds:g} s "
        "game time per skill (respawn on)",
        f"flow = intensity in [{lo:g}, {hi:g}]; bored = intensity < {BORED_INTENSITY:g} "
        f"at HP >= {BORED_HP:.0%}; ratio = director / static; peaks = {PEAK_WINDOW_S:g} s windows with a "
        "Sustain Peak (director)",
        "",
        f"{'skill':<8} | {'flow static':>11} {'director':>9} {'ratio':>7} | "
        f"{'deaths static':>13} {'director':>9} | "
        f"{'bored static':>12} {'director':>9} | {'peaks':>7} | targets",
    ]
    for skill, row in table.items():
        misses = target_misses(row)
        lines.append(
            f"{skill:<8} | {row['flow_static']:>11.1%} {row['flow_director']:>9.1%} "
            f"{_ratio(row['flow_director'], row['flow_static']):>7} | "
            f"{row['deaths_static']:>13.0f} {row['deaths_director']:>9.0f} | "
            f"{row['bored_static']:>12.1%} {row['bored_director']:>9.1%} | "
            f"{row['windows_hit_director']:>3.0f}/{row['windows_director']:<3.0f} | "
            + ("met" if not misses else "MISSED: " + "; ".join(misses))
        )
    pressures = ", ".join(f"{s} {row['pressure_director']:.2f}" for s, row in table.items())
    lines += ["", f"mean director pressure knob: {pressures}"]
    if per_minute:
        lines += ["", "per minute, mean over seeds: flow static>director / bored static>director"]
        cols = {}
        for skill in table:
            st = [r for r in results if r.skill == skill and r.mode == STATIC]
            di = [r for r in results if r.skill == skill and r.mode == mode]
            cols[skill] = (
                _per_minute(st, "minute_flow"),
                _per_minute(di, "minute_flow"),
                _per_minute(st, "minute_bored"),
                _per_minute(di, "minute_bored"),
            )
        lines.append(f"{'minute':<6} | " + " | ".join(f"{sk:<21}" for sk in cols))
        n_min = min((min(len(c[0]), len(c[1])) for c in cols.values()), default=0)
        for i in range(n_min):
            cells = [
                f"{sf[i]:>4.0%}>{df[i]:<4.0%} / {sb[i]:>4.0%}>{db[i]:<4.0%}"
                for sf, df, sb, db in cols.values()
            ]
            lines.append(f"{i + 1:<6} | " + " | ".join(cells))
    return "\n".join(lines)
