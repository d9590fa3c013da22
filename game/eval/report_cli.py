"""The command lines of the two reports that play the game, ``ab`` and ``stakes``: their arguments, the
checks that refuse a bad one before any run starts (exit 2, one line), the run and the report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from game.director.director import STATIC
from game.eval.ab import MAX_SECONDS, SKILLS, format_ab, run_ab, write_json
from game.eval.modes import check_mode, lockstep_for
from game.eval.recorded import is_replay
from game.zoo import UnknownPlayer, expand, resolve

MODE_HELP = (
    "the director mode to compare with static: rules, an LLM backend (local, openai, stub), or replay:PATH "
    "(a recorded run or a folder of them; the report runs their seeds and models)"
)


RECORD_HELP = (
    "keep each director run's trajectory in this folder (replay them later with --mode replay:FOLDER)"
)


def add_stakes_parser(sub: Any) -> None:
    s = sub.add_parser(
        "stakes", help="the real game to the run's end: win rate, close calls, director vs static"
    )
    s.add_argument("--mode", default="rules", help=MODE_HELP)
    s.add_argument(
        "--seeds", type=int, default=None, help="how many seeds, default 10 (0: only the --plot runs)"
    )
    s.add_argument("--first-seed", type=int, default=None, help="seeds run from this one up (default 0)")
    s.add_argument("--skills", nargs="+", default=None, help="player models or groups (default: ladder idle)")
    s.add_argument("--difficulty", default="normal", help="easy, normal, hard, or all")
    s.add_argument("--workers", type=int, default=2)
    s.add_argument("--json", type=Path, default=None, help="also write every run's figures to this file")
    s.add_argument("--record", type=Path, default=None, metavar="FOLDER", help=RECORD_HELP)
    s.add_argument(
        "--plot", type=Path, default=None, help="write a PNG of one seed, static above the director"
    )
    s.add_argument("--plot-skill", default="novice", help="the player model the --plot runs use")
    s.add_argument(
        "--real-time", action="store_true", help="an LLM mode's plans land when they land (no lockstep)"
    )


def add_ab_parser(sub: Any, name: str) -> None:
    a = sub.add_parser(name, help="bot A/B, static vs director" if name == "ab" else "decisions + A/B")
    a.add_argument("--mode", default="rules", help=MODE_HELP)
    a.add_argument("--seeds", type=int, default=None, help="how many seeds (default 5)")
    a.add_argument("--first-seed", type=int, default=None, help="seeds run from this one up (default 0)")
    a.add_argument(
        "--seconds",
        type=float,
        default=None,
        help=f"game time per run, up to {MAX_SECONDS:g} (default 180; a replay: the recorded length)",
    )
    a.add_argument(
        "--skills",
        nargs="+",
        default=None,
        help="player models or groups (ladder, zoo, all) or package.module:Factory, separated by "
        "commas or spaces (default: ladder)",
    )
    a.add_argument("--json", type=Path, default=None, help="also write every run's figures to this file")
    a.add_argument("--record", type=Path, default=None, metavar="FOLDER", help=RECORD_HELP)
    a.add_argument(
        "--report-at",
        default="",
        help="also report the first N seconds of the same runs, e.g. 180 (comma-separated)",
    )
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--real-time", action="store_true", help="an LLM mode's plans land when they land")
    if name == "all":
        a.add_argument("--llm-backends", default="rules,stub,local", help="backends scored raw and guarded")


def _refuse(text: str) -> int:
    sys.stderr.write(text.rstrip() + "\n")
    return 2


Grid = tuple[list[str], range, list[tuple[str, int]] | None]


def _grid(args: argparse.Namespace, default_skills: list[str], default_seeds: int) -> Grid | str:
    """The models, the seeds and (for a replay) the recorded (model, seed) cells, or why not. A replay runs
    what was recorded, so it takes none of --skills, --seeds, --first-seed."""
    if is_replay(args.mode):
        given = [
            f
            for f, v in (
                ("--skills", args.skills),
                ("--seeds", args.seeds),
                ("--first-seed", args.first_seed),
            )
            if v is not None
        ]
        if given:
            flags = " and ".join(given)
            return f"{flags}: --mode {args.mode} runs the recorded seeds and models; leave them out"
        from game.eval.recorded import load

        cells = [r.cell for r in load(args.mode)]
        return list(dict.fromkeys(sk for sk, _ in cells)), range(0), cells
    try:
        skills = expand(args.skills if args.skills is not None else default_skills)
    except UnknownPlayer as exc:
        return str(exc)
    first = args.first_seed if args.first_seed is not None else 0
    n = args.seeds if args.seeds is not None else default_seeds
    return list(skills), range(first, first + max(0, n)), None


def _record_folder(
    args: argparse.Namespace, difficulties: tuple[str, ...] = ("normal",)
) -> Path | str | None:
    """The --record folder (created), None without one, or why it cannot be used."""
    folder: Path | None = args.record
    if folder is None:
        return None
    if args.mode == STATIC or is_replay(args.mode):
        return f"--record: --mode {args.mode} has no director plans to record"
    if difficulties != ("normal",):
        return "--record: a recording does not say its difficulty; record normal runs only"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"--record: cannot use {folder} as a folder ({exc.strerror or exc})"
    return folder


def ab_command(args: argparse.Namespace) -> int:
    """`python -m game.eval ab` (and the A/B of `all`): check the arguments, run, report."""
    bad = check_mode(args.mode, respawn=True)
    if bad:
        return _refuse(bad)
    grid = _grid(args, list(SKILLS), 5)
    if isinstance(grid, str):
        return _refuse(grid)
    skills, seeds, cells = grid
    seconds = args.seconds
    if is_replay(args.mode):
        from game.eval.recorded import load

        recorded = min(r.seconds for r in load(args.mode))
        if seconds is not None and seconds > recorded:
            return _refuse(f"--seconds {seconds:g}: the recordings cover only {recorded:g} s of play")
        seconds = recorded if seconds is None else seconds
    seconds = 180.0 if seconds is None else seconds
    if not 1.0 <= seconds <= MAX_SECONDS:
        return _refuse(f"--seconds must be in [1, {MAX_SECONDS:g}], got {seconds:g}")
    if cells is None and len(seeds) < 1:
        return _refuse(f"--seeds must be at least 1, got {args.seeds}")
    try:
        report_at = tuple(float(t) for t in args.report_at.split(",") if t.strip())
    except ValueError:
        return _refuse(f"--report-at takes seconds separated by commas, got {args.report_at!r}")
    if any(not 0 < t < seconds for t in report_at):
        return _refuse(f"--report-at times must lie between 0 and --seconds ({seconds:g})")
    record = _record_folder(args)
    if isinstance(record, str):
        return _refuse(record)
    results = run_ab(
        seeds=seeds,
        seconds=seconds,
        skills=skills,
        mode=args.mode,
        workers=args.workers,
        report_at=report_at,
        lockstep_s=lockstep_for(args.mode, args.real_time),
        cells=cells,
        record=record,
    )
    sys.stdout.write(format_ab(results, args.mode, seconds) + "\n")
    if args.json is not None:
        write_json(results, args.json, args.mode)
    return 0


def stakes_command(args: argparse.Namespace) -> int:
    """`python -m game.eval stakes`: check the arguments, run, report (and plot)."""
    from game.director.tuning import preset_names
    from game.eval.stakes import MAX_RUN_S, format_stakes, run_one, run_stakes
    from game.eval.stakes import write_json as write_stakes

    bad = check_mode(args.mode, respawn=False, to_end_s=MAX_RUN_S)
    if bad:
        return _refuse(bad)
    grid = _grid(args, ["ladder", "idle"], 10)
    if isinstance(grid, str):
        return _refuse(grid)
    skills, seeds, cells = grid
    try:
        resolve(args.plot_skill)
    except UnknownPlayer as exc:
        return _refuse(str(exc))
    presets = tuple(preset_names())
    difficulties = presets if args.difficulty == "all" else (args.difficulty,)
    if any(d not in presets for d in difficulties):
        return _refuse(f"unknown difficulty '{args.difficulty}'; known: {', '.join(presets)}, all")
    if cells is not None and difficulties != ("normal",):
        return _refuse("--difficulty: a recording does not say its difficulty; a replay runs normal only")
    negative = args.seeds is not None and args.seeds < 0
    if cells is None and (negative or (not seeds and args.plot is None)):
        return _refuse("--seeds must be at least 1 (or 0 with --plot)")
    record = _record_folder(args, difficulties)
    if isinstance(record, str):
        return _refuse(record)
    lockstep = lockstep_for(args.mode, args.real_time)
    if seeds or cells:
        results = run_stakes(
            seeds=seeds,
            skills=skills,
            modes=(STATIC, args.mode),
            difficulties=difficulties,
            workers=args.workers,
            lockstep_s=lockstep,
            cells=cells,
            record=record,
        )
        sys.stdout.write(format_stakes(results, args.mode) + "\n")
        if args.json is not None:
            write_stakes(results, args.json)
    if args.plot is not None:
        from game.eval.plot import plot_runs

        skill, seed = cells[0] if cells else (args.plot_skill, seeds.start)
        runs = [
            run_one((skill, seed, m, difficulties[0], True, lockstep if m == args.mode else None, None))
            for m in (STATIC, args.mode)
        ]
        title = f"{skill} bot, seed {seed}, {difficulties[0]}: static (top) vs director"
        sys.stdout.write(f"plot: {plot_runs(runs, args.plot, title)}\n")
    return 0
