"""Bot A/B: the same player models and seeds under static difficulty and under the director.

For each player model (``game.zoo``: the four skill presets by default, ``--skills zoo`` or ``all`` for the
rest) and seed, one run of ``seconds`` game time in respawn mode (deaths are counted and play goes on, so
every run lasts the full time) with the director off (``static``) and one with it on (``rules`` or a
registered source). Runs are headless and spread over worker processes.

Two kinds of figures come back for each run:

- **what the player sees** (``game.eval.experience``, read from the world alone): empty screen, longest empty
  stretch, engaged and danger shares, damage, kills and deaths per minute. Director 3's presence and pace
  targets (``game.eval.ab_targets``) are read from these, each model against static: empty screen,
  longest empty stretch, engaged share, kills per minute. Deaths and danger are reported, not targets.
- **the director's own signals** (``FlowMeter``): flow and bored shares of its intensity, Sustain Peak
  windows, mean pressure. The director steers these, so they are diagnostics, never targets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from game.bot import LADDER
from game.director.director import STATIC, Director
from game.eval.ab_targets import format_targets, targets_json
from game.eval.experience import DANGER_HP, EMPTY_AFTER_S, REACH_PX, Experience, ExperienceMeter
from game.eval.modes import in_this_process, record_file, setup_for
from game.eval.recorded import replay_lines
from game.eval.runner import run_jobs, seed_text
from game.headless_runs.metrics import BORED_HP, BORED_INTENSITY, FLOW_BAND, PEAK_WINDOW_S, DirectedMetrics
from game.headless_runs.run import run_directed
from game.sim.config import TICK_HZ
from game.sim.world import World
from game.zoo import GROUPS

SKILLS: tuple[str, ...] = LADDER  # the default; ``--skills`` takes any model of game.zoo, and groups
MAX_SECONDS = 1200.0


@dataclass(frozen=True)
class RunResult:
    skill: str
    seed: int
    mode: str
    seconds: float  # game time this result covers
    exp: Experience
    flow: float = 0.0
    bored: float = 0.0
    mean_pressure: float = 1.0
    minute_flow: tuple[float, ...] = ()
    minute_bored: tuple[float, ...] = ()
    peak_windows: int = 0
    peak_windows_hit: int = 0
    replay: str = ""  # a replayed run: 'identical' to its recording, or where it diverged

    @property
    def deaths(self) -> int:
        return self.exp.deaths

    @property
    def kills_per_min(self) -> float:
        return self.exp.kills_per_min


# skill, seed, mode, seconds, report_at, lockstep_s, the trajectory file to record (None: not recorded)
Job = tuple[str, int, str, float, tuple[float, ...], float | None, Path | None]


def _result(
    skill: str, seed: int, mode: str, t: float, m: DirectedMetrics, exp: Experience, replay: str = ""
) -> RunResult:
    return RunResult(
        skill,
        seed,
        mode,
        t,
        exp,
        m.flow_share,
        m.bored_share,
        m.mean_pressure,
        m.minute_flow,
        m.minute_bored,
        m.peak_windows,
        m.peak_windows_hit,
        replay,
    )


def run_one(job: Job) -> list[RunResult]:
    """One run: its result at ``seconds`` and at each shorter ``report_at`` time of the same run."""
    skill, seed, mode, seconds, report_at, lockstep_s, record = job
    setup = setup_for(mode, seed, skill)
    meter = ExperienceMeter()
    marks = {round(t * TICK_HZ): t for t in report_at if 0 < t < seconds}
    early: list[Experience] = []

    seen: list[World] = []

    def watch(_: Director, w: World) -> None:
        if not seen:
            seen.append(w)
        meter.add(w)
        if w.tick in marks:
            early.append(meter.result(w))

    summary, m = run_directed(
        seed,
        seconds,
        skill,
        mode,
        respawn=True,
        checkpoints=report_at,
        on_tick=watch,
        on_start=setup.on_start,
        sources=setup.sources,
        memory=setup.memory,
        lockstep_s=lockstep_s,
        trajectory=record or False,
    )
    times = sorted(marks.values())
    out = [
        _result(skill, seed, mode, t, cm, ex) for t, cm, ex in zip(times, m.checkpoints, early, strict=True)
    ]
    return [*out, _result(skill, seed, mode, seconds, m, meter.result(seen[0]), setup.verdict(summary))]


def run_ab(
    *,
    seeds: Sequence[int] = range(5),
    seconds: float = 180.0,
    skills: Sequence[str] = SKILLS,
    mode: str = "rules",
    workers: int = 2,
    progress: bool = True,
    report_at: Sequence[float] = (),
    lockstep_s: float | None = None,
    cells: Sequence[tuple[str, int]] | None = None,
    record: Path | None = None,
) -> list[RunResult]:
    """Every (model, seed) under static and ``mode`` (``cells``: just these (model, seed) pairs, e.g. the
    recorded ones of a replay); results at ``seconds`` and each ``report_at`` time. An LLM ``mode`` runs one
    run at a time in this process, the simulation waiting up to ``lockstep_s`` for each pending plan.
    ``record``: a folder that keeps each director run's trajectory (``replay:FOLDER`` replays them)."""
    marks = tuple(sorted(float(t) for t in report_at))
    pairs = list(cells) if cells is not None else [(sk, sd) for sk in skills for sd in seeds]
    jobs: list[Job] = [
        (sk, sd, md, seconds, marks, lockstep_s if md == mode else None, record_file(record, md, sk, sd))
        for sk, sd in pairs
        for md in (STATIC, mode)
    ]
    runs = run_jobs(
        jobs,
        run_one,
        label="bot A/B",
        describe=lambda rs: f"{rs[-1].skill} seed {rs[-1].seed} {rs[-1].mode}",
        workers=workers,
        in_process=in_this_process(mode),
        progress=progress,
    )
    results = [r for rs in runs for r in rs]
    order = {name: i for i, name in enumerate(dict.fromkeys([*(sk for sk, _ in pairs), *GROUPS["all"]]))}
    return sorted(results, key=lambda r: (r.seconds, order.get(r.skill, 99), r.seed, r.mode))


# ---------------------------------------------------------------------------------------------- summary
def _mean(vals: Sequence[float]) -> float:
    return sum(vals) / len(vals) if vals else 0.0


def summarize(results: Sequence[RunResult], mode: str) -> dict[str, dict[str, float]]:
    """Per model, for static and the director: the player's figures (means over seeds; deaths summed, and
    per 5 minutes) and the director's own signals."""
    out: dict[str, dict[str, float]] = {}
    for skill in dict.fromkeys(r.skill for r in results):
        row: dict[str, float] = {}
        for label, md in (("static", STATIC), ("director", mode)):
            rs = [r for r in results if r.skill == skill and r.mode == md]
            minutes = sum(r.exp.seconds for r in rs) / 60.0
            row[f"empty_{label}"] = _mean([r.exp.empty_share for r in rs])
            row[f"longest_empty_{label}"] = max((r.exp.longest_empty_s for r in rs), default=0.0)
            row[f"engaged_{label}"] = _mean([r.exp.engaged_share for r in rs])
            row[f"danger_{label}"] = _mean([r.exp.danger_share for r in rs])
            row[f"damage_{label}"] = _mean([r.exp.damage_per_min for r in rs])
            row[f"kills_{label}"] = _mean([r.exp.kills_per_min for r in rs])
            row[f"deaths_{label}"] = float(sum(r.deaths for r in rs))
            row[f"deaths5_{label}"] = row[f"deaths_{label}"] / (minutes / 5.0) if minutes else 0.0
            row[f"flow_{label}"] = _mean([r.flow for r in rs])
            row[f"bored_{label}"] = _mean([r.bored for r in rs])
            row[f"pressure_{label}"] = _mean([r.mean_pressure for r in rs])
            row[f"windows_{label}"] = float(sum(r.peak_windows for r in rs))
            row[f"windows_hit_{label}"] = float(sum(r.peak_windows_hit for r in rs))
            row["runs"] = float(len(rs))
        out[skill] = row
    return out


# ---------------------------------------------------------------------------------------------- report
def _ratio(director: float, static: float) -> str:
    if static == 0:
        return "  n/a" if director == 0 else "  inf"
    return f"{director / static:5.2f}x"


def _per_minute(rs: Sequence[RunResult]) -> list[float]:
    """The empty share per minute, mean over the runs (a minute counts the runs that reached it)."""
    rows = [r.exp.minute_empty for r in rs]
    longest = max((len(v) for v in rows), default=0)
    return [_mean([v[i] for v in rows if len(v) > i]) for i in range(longest)]


def format_ab(results: Sequence[RunResult], mode: str, seconds: float, *, per_minute: bool = True) -> str:
    """The report for every time the results cover (shortest first), or just ``seconds`` if they hold one."""
    times = sorted({r.seconds for r in results}) or [seconds]
    blocks = [
        _format_one([r for r in results if r.seconds == t], mode, t, detail=per_minute and t == times[-1])
        for t in times
    ]
    replays = replay_lines([(r.skill, r.seed, r.replay) for r in results if r.seconds == times[-1]])
    return "\n".join(["\n\n".join(blocks), *replays])


def _arrow(a: float, b: float, fmt: str) -> str:
    return f"{a:{fmt}}>{b:<{fmt}}"


def _format_one(results: Sequence[RunResult], mode: str, seconds: float, *, detail: bool) -> str:
    table = summarize(results, mode)
    seeds = sorted({r.seed for r in results})
    lo, hi = FLOW_BAND
    lines = [
        f"Bot A/B: director '{mode}' vs static difficulty, {len(seeds)} seeds ({seed_text(seeds)}) x "
        f"{seconds:g} s game time per model (respawn on). Each cell: static>director.",
        "",
        "What the player sees (measured from the world; the director reads none of it):",
        f"empty = no enemy in the 1280x720 view (after the first {EMPTY_AFTER_S:g} s); longest = the longest "
        f"empty stretch, s; engaged = an enemy within {REACH_PX:g} px or hit in the last 3 s, at HP >= "
        f"{DANGER_HP:.0%}; danger = HP < {DANGER_HP:.0%}; per minute: damage taken, kills; deaths summed "
        "over seeds (deaths and danger are not targets)",
        "",
        f"{'model':<9}| {'empty %':>11} | {'longest s':>11} | {'engaged %':>11} | {'danger %':>11} | "
        f"{'damage/min':>11} | {'kills/min':>11} | {'deaths':>9}",
    ]
    for skill, row in table.items():
        lines.append(
            f"{skill:<9}| {_arrow(row['empty_static'] * 100, row['empty_director'] * 100, '5.1f')} | "
            f"{_arrow(row['longest_empty_static'], row['longest_empty_director'], '5.1f')} | "
            f"{_arrow(row['engaged_static'] * 100, row['engaged_director'] * 100, '5.1f')} | "
            f"{_arrow(row['danger_static'] * 100, row['danger_director'] * 100, '5.1f')} | "
            f"{_arrow(row['damage_static'], row['damage_director'], '5.1f')} | "
            f"{_arrow(row['kills_static'], row['kills_director'], '5.1f')} | "
            f"{_arrow(row['deaths_static'], row['deaths_director'], '4.0f')}"
        )
    lines += ["", *format_targets(table)]
    lines += [
        "",
        "The director's own signals (diagnostics, not targets: the director steers them):",
        f"flow = intensity in [{lo:g}, {hi:g}]; bored = intensity < {BORED_INTENSITY:g} at HP >= "
        f"{BORED_HP:.0%}; peaks = {PEAK_WINDOW_S:g} s windows with a Sustain Peak (director); pressure = "
        "mean pressure knob",
        f"{'model':<9}| {'flow %':>11} {'ratio':>6} | {'bored %':>11} | {'peaks':>7} | pressure",
    ]
    for skill, row in table.items():
        lines.append(
            f"{skill:<9}| {_arrow(row['flow_static'] * 100, row['flow_director'] * 100, '5.1f')} "
            f"{_ratio(row['flow_director'], row['flow_static']):>6} | "
            f"{_arrow(row['bored_static'] * 100, row['bored_director'] * 100, '5.1f')} | "
            f"{row['windows_hit_director']:>3.0f}/{row['windows_director']:<3.0f} | "
            f"{row['pressure_director']:.2f}"
        )
    if detail:
        lines += _per_minute_block(results, mode, table) + _per_seed_block(results, mode, table)
    return "\n".join(lines)


def _per_minute_block(
    results: Sequence[RunResult], mode: str, table: dict[str, dict[str, float]]
) -> list[str]:
    lines = ["", "Empty screen per minute, % (mean over seeds), static>director:"]
    cols = {
        sk: (
            _per_minute([r for r in results if r.skill == sk and r.mode == STATIC]),
            _per_minute([r for r in results if r.skill == sk and r.mode == mode]),
        )
        for sk in table
    }
    n_min = min((min(len(a), len(b)) for a, b in cols.values()), default=0)
    lines.append(f"{'model':<9}| " + " ".join(f"{i + 1:>9}" for i in range(n_min)))
    for sk, (a, b) in cols.items():
        lines.append(f"{sk:<9}| " + " ".join(f"{a[i] * 100:>4.0f}>{b[i] * 100:<4.0f}" for i in range(n_min)))
    return lines


def _per_seed_block(results: Sequence[RunResult], mode: str, table: dict[str, dict[str, float]]) -> list[str]:
    lines = ["", "Per seed, static>director: empty % / deaths / kills per minute"]
    seeds = sorted({r.seed for r in results})
    lines.append(f"{'model':<9}| " + " | ".join(f"{'seed ' + str(s):<26}" for s in seeds))
    by = {(r.skill, r.seed, r.mode): r for r in results}
    for sk in table:
        cells = []
        for s in seeds:
            a, b = by.get((sk, s, STATIC)), by.get((sk, s, mode))
            if a is None or b is None:
                cells.append(f"{'-':<26}")
                continue
            cells.append(
                f"{a.exp.empty_share * 100:.0f}>{b.exp.empty_share * 100:.0f} / {a.deaths}>{b.deaths} / "
                f"{a.kills_per_min:.0f}>{b.kills_per_min:.0f}".ljust(26)
            )
        lines.append(f"{sk:<9}| " + " | ".join(cells))
    return lines


def write_json(results: Sequence[RunResult], path: Path, mode: str) -> None:
    """Each model's targets (pass or fail, per report time) and every run's figures, for other tools and the
    eval README's tables."""
    targets = []
    for t in sorted({r.seconds for r in results}):
        targets += targets_json(summarize([r for r in results if r.seconds == t], mode), t)
    rows = []
    for r in results:
        row = asdict(r)
        if not row["replay"]:
            del row["replay"]  # only a replayed run says whether it reproduced its recording
        rows.append(row)
    doc = {"mode": mode, "targets": targets, "runs": rows}
    path.write_text(json.dumps(doc, indent=1) + "\n")
