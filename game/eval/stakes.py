"""Stakes: the real game (no respawn), played to the run's end, director vs static.

A run ends when the player dies (lost), survives the final wave (won), or reaches ``MAX_RUN_S`` of game time
(neither: counted as not won). For each player model, and static difficulty beside the director, the report
shows what decides whether the game is a contest:

- the **win rate**;
- the **median run length** and **wave reached**;
- **close calls** per run: HP under ``CLOSE_LOW`` of the bar, then back above ``CLOSE_HIGH``;
- the **time under** ``LOW_HP`` of the bar.

Targets (the Director 3 issue): under the director, every model that moves and shoots wins between
``WIN_BAND`` of its runs with at least ``CLOSE_PER_WIN`` close calls per won run; under static the novice
and the weak bot win under ``STATIC_WEAK_MAX`` and the ladder's win rates climb with skill; a player who
presses nothing loses within ``IDLE_LOST_S``.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from game.bot import LADDER
from game.director.director import STATIC, Director
from game.eval.modes import in_this_process, record_file, setup_for
from game.eval.recorded import replay_lines
from game.eval.runner import run_jobs, seed_text
from game.headless_runs.run import run_directed
from game.sim.config import TICK_HZ
from game.sim.view import in_view
from game.sim.world import World

MAX_RUN_S = 1200.0  # a run is cut here (the final wave ends at about 1,095 s)
CLOSE_LOW, CLOSE_HIGH = 0.30, 0.60  # a close call: HP under the first share of the bar, then above the second
LOW_HP = 0.25  # time under this share of the bar is reported
WIN_BAND = (0.20, 0.80)  # the director's win rate for every model that moves and shoots
CLOSE_PER_WIN = 2.0  # close calls per won run under the director, at least
STATIC_WEAK_MAX = 0.20  # static's win rate for the novice and the weak bot, under
IDLE_LOST_S = 60.0  # a player who presses nothing has lost by then
IDLE = "idle"  # the player model that presses nothing
NOT_CONTESTANTS = frozenset({IDLE, "still"})  # models that do not move and shoot: no win-rate band
SAMPLE_HZ = 2  # the plot's samples per second of game time


@dataclass(frozen=True)
class Sample:
    t: float
    hp: float  # share of the bar
    in_view: int
    pressure: float
    danger: float  # the enemy damage multiplier in force


@dataclass(frozen=True)
class StakesRun:
    skill: str
    seed: int
    mode: str
    difficulty: str
    won: bool
    died: bool
    ended_s: float  # game time the run ended (or was cut)
    wave: int
    close_calls: int
    low_s: float  # seconds under LOW_HP
    kills: int
    samples: tuple[Sample, ...] = field(default=(), repr=False)
    plans: int = 0  # plans the director applied (a model's, the guard's overrides counted in)
    overridden: int = 0  # ... of them, model plans the guard replaced by the rules plan
    replay: str = ""  # a replayed run: 'identical' to its recording, or where it diverged


class StakesMeter:
    """Fed every tick: close calls, time at low HP, and (optionally) the plot's samples."""

    def __init__(self, *, keep_samples: bool = False) -> None:
        self.close_calls = 0
        self.low_ticks = 0
        self._armed = False
        self.keep = keep_samples
        self.samples: list[Sample] = []
        self.plans = self.overridden = 0  # the director's accepted plans, and those the guard replaced

    def add(self, director: Director, w: World) -> None:
        self.plans, self.overridden = director.accepted, director.overridden
        hp = max(0.0, w.player.hp) / max(1e-9, w.player.stats.max_hp)
        if hp < CLOSE_LOW and w.player.alive:
            self._armed = True
        elif hp > CLOSE_HIGH and self._armed:
            self._armed = False
            self.close_calls += 1
        self.low_ticks += hp < LOW_HP
        if self.keep and w.tick % (TICK_HZ // SAMPLE_HZ) == 0:
            pressure = director.active_spawner().knobs.pressure
            self.samples.append(
                Sample(
                    w.time, round(hp, 3), in_view(w), round(pressure, 3), w.params.get("enemy_damage_mult")
                )
            )


# skill, seed, mode, difficulty, keep samples, lockstep_s, the trajectory file to record (None: not recorded)
Job = tuple[str, int, str, str, bool, float | None, Path | None]


def run_one(job: Job) -> StakesRun:
    skill, seed, mode, difficulty, keep, lockstep, record = job
    setup = setup_for(mode, seed, skill)
    meter = StakesMeter(keep_samples=keep)
    summary, _ = run_directed(
        seed,
        MAX_RUN_S,
        skill,
        mode,
        respawn=False,
        sources=setup.sources,
        memory=setup.memory,
        on_start=setup.on_start,
        on_tick=meter.add,
        difficulty=difficulty,
        lockstep_s=lockstep,
        trajectory=record or False,
    )
    return StakesRun(
        skill=skill,
        seed=seed,
        mode=mode,
        difficulty=difficulty,
        won=summary.won,
        died=summary.died,
        ended_s=summary.seconds,
        wave=summary.waves_reached,
        close_calls=meter.close_calls,
        low_s=meter.low_ticks / TICK_HZ,
        kills=summary.kills,
        samples=tuple(meter.samples),
        plans=meter.plans,
        overridden=meter.overridden,
        replay=setup.verdict(summary),
    )


def run_stakes(
    *,
    seeds: Sequence[int],
    skills: Sequence[str] = (*LADDER, IDLE),
    modes: Sequence[str] = (STATIC, "rules"),
    difficulties: Sequence[str] = ("normal",),
    workers: int = 2,
    progress: bool = True,
    lockstep_s: float | None = None,
    cells: Sequence[tuple[str, int]] | None = None,
    record: Path | None = None,
) -> list[StakesRun]:
    """Every (model, seed, mode, difficulty) to the run's end (``cells``: just these (model, seed) pairs,
    e.g. the recorded ones of a replay). An LLM mode's runs go one at a time in this process (a model is
    one owner's), the simulation waiting up to ``lockstep_s`` for each pending plan. ``record``: a folder
    that keeps each director run's trajectory (normal difficulty; ``replay:FOLDER`` replays them)."""
    pairs = list(cells) if cells is not None else [(sk, sd) for sk in skills for sd in seeds]
    jobs: list[Job] = [
        (sk, sd, md, df, False, lockstep_s if in_this_process(md) else None, record_file(record, md, sk, sd))
        for df in difficulties
        for md in modes
        for sk, sd in pairs
    ]
    out = run_jobs(
        jobs,
        run_one,
        label="stakes",
        describe=lambda r: f"{r.skill} seed {r.seed} {r.mode}",
        workers=workers,
        in_process=any(in_this_process(m) for m in modes),
        progress=progress,
    )
    order = {s: i for i, s in enumerate(dict.fromkeys(sk for sk, _ in pairs))}
    return sorted(out, key=lambda r: (r.difficulty, order.get(r.skill, 99), r.mode != STATIC, r.mode, r.seed))


# ---------------------------------------------------------------------------------------------- summary
@dataclass(frozen=True)
class Row:
    runs: int
    win_rate: float
    median_s: float
    median_wave: float
    close_per_run: float
    close_per_win: float | None  # None: no run was won
    low_s_per_run: float
    lost_by_s: float  # the longest run that was lost (the presses-nothing check)


def row(runs: Sequence[StakesRun]) -> Row:
    won = [r for r in runs if r.won]
    return Row(
        runs=len(runs),
        win_rate=len(won) / len(runs) if runs else 0.0,
        median_s=statistics.median(r.ended_s for r in runs) if runs else 0.0,
        median_wave=statistics.median(r.wave for r in runs) if runs else 0.0,
        close_per_run=statistics.fmean(r.close_calls for r in runs) if runs else 0.0,
        close_per_win=statistics.fmean(r.close_calls for r in won) if won else None,
        low_s_per_run=statistics.fmean(r.low_s for r in runs) if runs else 0.0,
        lost_by_s=max((r.ended_s if r.died else MAX_RUN_S for r in runs), default=0.0),
    )


def table(results: Sequence[StakesRun]) -> dict[tuple[str, str, str], Row]:
    """(difficulty, model, mode) -> its row."""
    keys = dict.fromkeys((r.difficulty, r.skill, r.mode) for r in results)
    return {k: row([r for r in results if (r.difficulty, r.skill, r.mode) == k]) for k in keys}


def misses(results: Sequence[StakesRun], director_mode: str) -> list[str]:
    """The stakes targets the results miss (empty: all met), one line each."""
    t = table(results)
    out: list[str] = []
    lo, hi = WIN_BAND
    for (df, skill, mode), r in t.items():
        where = f"{skill} ({mode}, {df})"
        if skill == IDLE:
            if r.lost_by_s > IDLE_LOST_S:
                out.append(f"{where}: a player who presses nothing lasted {r.lost_by_s:.0f} s")
            continue
        if mode == director_mode and skill not in NOT_CONTESTANTS and df == "normal":
            if not lo <= r.win_rate <= hi:
                out.append(f"{where}: win rate {r.win_rate:.0%} outside {lo:.0%}-{hi:.0%}")
            if r.close_per_win is not None and r.close_per_win < CLOSE_PER_WIN:
                out.append(f"{where}: {r.close_per_win:.1f} close calls per won run (< {CLOSE_PER_WIN:g})")
        if (
            mode == STATIC
            and skill in ("novice", "weak")
            and df == "normal"
            and r.win_rate >= STATIC_WEAK_MAX
        ):
            out.append(f"{where}: static win rate {r.win_rate:.0%} (>= {STATIC_WEAK_MAX:.0%})")
    for df in dict.fromkeys(k[0] for k in t):
        ladder = [t[(df, s, STATIC)].win_rate for s in LADDER if (df, s, STATIC) in t]
        if any(a > b for a, b in itertools.pairwise(ladder)):
            out.append(f"static ladder ({df}) not ordered: " + " / ".join(f"{w:.0%}" for w in ladder))
    return out


def preset_misses(
    results: Sequence[StakesRun], mode: str, gap_models: Sequence[str] = ("novice", "weak")
) -> list[str]:
    """Easy >= normal >= hard in win rate for every model under ``mode``, with at least 10 points between
    easy and hard for ``gap_models``."""
    t = table(results)
    out = []
    for skill in dict.fromkeys(k[1] for k in t):
        if skill == IDLE:
            continue
        w = {df: t[(df, skill, mode)].win_rate for df in ("easy", "normal", "hard") if (df, skill, mode) in t}
        if len(w) < 3:
            continue
        if not w["easy"] >= w["normal"] >= w["hard"]:
            out.append(
                f"{skill}: easy {w['easy']:.0%}, normal {w['normal']:.0%}, hard {w['hard']:.0%} not ordered"
            )
        if skill in gap_models and w["easy"] - w["hard"] < 0.10:
            out.append(f"{skill}: easy - hard = {(w['easy'] - w['hard']) * 100:.0f} points (< 10)")
    return out


# ---------------------------------------------------------------------------------------------- report
def _cell(a: Row, b: Row | None, fmt: Callable[[Row], str]) -> str:
    return f"{fmt(a)} > {fmt(b)}" if b is not None else fmt(a)


def _close_per_win(r: Row) -> str:
    return "-" if r.close_per_win is None else f"{r.close_per_win:.1f}"


def format_stakes(results: Sequence[StakesRun], director_mode: str) -> str:
    t = table(results)
    seeds = sorted({r.seed for r in results})
    lines = [
        f"Stakes: the real game (no respawn) to the run's end (a win, a death, or {MAX_RUN_S:g} s), "
        f"{len(seeds)} seeds ({seed_text(seeds)}) per model. "
        f"Each cell: static > director '{director_mode}'.",
        f"close calls = HP under {CLOSE_LOW:.0%}, then back above {CLOSE_HIGH:.0%}; low = seconds under "
        f"{LOW_HP:.0%} HP. Medians over the runs.",
    ]
    for df in dict.fromkeys(k[0] for k in t):
        lines += [
            "",
            f"difficulty: {df}",
            f"{'model':<9}| {'win rate':>13} | {'median run s':>13} | {'median wave':>11} | "
            f"{'close/run':>11} | {'close/won run':>13} | {'low s/run':>13}",
        ]
        for skill in dict.fromkeys(k[1] for k in t if k[0] == df):
            s, d = t.get((df, skill, STATIC)), t.get((df, skill, director_mode))
            a, b = (s, d) if s is not None else (d, None)
            if a is None:
                continue
            lines.append(
                f"{skill:<9}| {_cell(a, b, lambda r: f'{r.win_rate:4.0%}'):>13} | "
                f"{_cell(a, b, lambda r: f'{r.median_s:5.0f}'):>13} | "
                f"{_cell(a, b, lambda r: f'{r.median_wave:4.1f}'):>11} | "
                f"{_cell(a, b, lambda r: f'{r.close_per_run:4.1f}'):>11} | "
                f"{_cell(a, b, _close_per_win):>13} | "
                f"{_cell(a, b, lambda r: f'{r.low_s_per_run:5.1f}'):>13}"
            )
    miss = misses(results, director_mode)
    lines += ["", "Targets: " + ("all met" if not miss else f"{len(miss)} missed")] + [
        f"  - {m}" for m in miss
    ]
    if len({r.difficulty for r in results}) > 1:
        pm = preset_misses(results, director_mode)
        lines += ["Presets: " + ("ordered" if not pm else f"{len(pm)} missed")] + [f"  - {m}" for m in pm]
    lines += guard_lines([r for r in results if r.mode == director_mode])
    lines += replay_lines([(r.skill, r.seed, r.replay) for r in results])
    return "\n".join(lines)


def guard_lines(runs: Sequence[StakesRun]) -> list[str]:
    """How much of a model's direction the guard replaced, per player model (none for the rules)."""
    out = []
    for skill in dict.fromkeys(r.skill for r in runs):
        plans = sum(r.plans for r in runs if r.skill == skill)
        over = sum(r.overridden for r in runs if r.skill == skill)
        if over:
            out.append(f"  {skill}: {over} of {plans} plans ({over / plans:.0%})")
    return ["", "The guard replaced a model's plan by the rules plan:", *out] if out else []


def write_json(results: Sequence[StakesRun], path: Path) -> None:
    rows = []
    for r in results:
        d = asdict(r)
        d.pop("samples", None)
        if not d["replay"]:
            del d["replay"]  # only a replayed run says whether it reproduced its recording
        rows.append(d)
    path.write_text(json.dumps(rows, indent=1) + "\n")
