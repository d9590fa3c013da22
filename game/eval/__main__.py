"""``python -m game.eval``: the director's evaluation (``make eval`` runs ``all``).

    python -m game.eval decisions [--backend rules] [--scenarios FILE] [--min-accuracy 0.95]
    python -m game.eval ab [--mode rules] [--seeds 5] [--first-seed 0] [--seconds 180]
                           [--skills ladder] [--workers 2] [--json FILE]
                                     # --mode: static, rules, an LLM backend (local, openai, stub), or
                                     # replay:PATH (a recorded run, or a folder of them: their seeds and
                                     # models are the report's)
                                     # --skills: model names or groups (ladder, zoo, all) or
                                     # package.module:Factory, separated by commas or spaces
    python -m game.eval first-wave [--seeds 10] [--first-seed 0] [--skill novice] [--mode rules]
                                     # seeds the model survives wave 1 on, director and static (--skill
                                     # still: a player who never moves)
    python -m game.eval talk [--backends stub,local] [--legacy] [--roles Merchant,Chat] [--split held-out]
                             [--sets v1,v36] [--limit N] [--out FILE.jsonl]
                                     # grounded talk: right facts, degenerate replies, guard replacements,
                                     # latency (Merchant, Chat, Analyzer; tuned and held-out questions)
    python -m game.eval stakes [--mode rules] [--seeds 10] [--first-seed 0] [--skills ladder,idle]
                               [--difficulty normal|all] [--workers 2] [--json FILE] [--plot FILE]
                               [--plot-skill novice] [--real-time]
                                     # the real game (no respawn) to the run's end: win rate, run length,
                                     # wave, close calls, time at low HP; director vs static
    python -m game.eval programmer|creator [--backend local] [--split held-out]
                                     # the agents that act: mods that work, world commands and answers
    python -m game.eval players      # every player model, one line each
    python -m game.eval all [--llm-backends rules,stub,local]
                                     # decisions on the shipped scenarios (each backend raw and guarded),
                                     # then the bot A/B

The report goes to stdout, progress bars to stderr. Exit status 1 when ``--min-accuracy`` is not met, 2 on
bad arguments or an unreadable scenario file.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from coreai.errors import CoreAIError
from coreai.logging import configure_logging
from coreai.settings import LogSettings
from game.director.director import STATIC
from game.eval.ab import MAX_SECONDS, SKILLS, format_ab, run_ab, write_json
from game.eval.decisions import backend_names, evaluate, format_report, format_summary, make_backend
from game.eval.first_wave import first_wave, format_first_wave
from game.eval.modes import check_mode, lockstep_for
from game.eval.progress import ProgressBar
from game.eval.recorded import is_replay
from game.eval.scenarios import SHIPPED_SCENARIOS, load_scenarios
from game.zoo import GROUPS, MODELS, UnknownPlayer, expand, resolve


def _register_chat_backends() -> None:
    try:
        from game.ai.eval_backends import register_all
    except ImportError:  # the LLM stack is optional for the deterministic evaluation
        return
    register_all()


_register_chat_backends()


MODE_HELP = (
    "the director mode to compare with static: rules, an LLM backend (local, openai, stub), or replay:PATH "
    "(a recorded run or a folder of them; the report runs their seeds and models)"
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m game.eval", description="Evaluate the AI director.")
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("decisions", help="score a backend on labelled decision scenarios")
    d.add_argument("--backend", default="rules", help=f"one of: {', '.join(backend_names())}")
    d.add_argument("--scenarios", type=Path, default=SHIPPED_SCENARIOS, help="a scenario JSONL file")
    d.add_argument("--min-accuracy", type=float, default=None, help="exit 1 below this accuracy (0..1)")
    d.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one decision")
    f = sub.add_parser("first-wave", help="seeds a bot survives wave 1 on, director vs static")
    f.add_argument("--seeds", type=int, default=10, help="how many seeds")
    f.add_argument("--first-seed", type=int, default=0, help="seeds run from this one up")
    f.add_argument("--skill", default="novice", help="a player model (python -m game.eval players)")
    f.add_argument("--mode", default="rules", help="the director mode to compare with static")
    t = sub.add_parser("talk", help="grounded talk: Merchant, Chat and Analyzer answers on a question set")
    t.add_argument("--backends", default="stub,local", help="comma-separated backends to ask")
    t.add_argument("--legacy", action="store_true", help="the path before grounded talk (for a before table)")
    t.add_argument("--roles", default="", help="only these roles, comma-separated")
    t.add_argument("--split", default="all", choices=("all", "tuned", "held-out"))
    t.add_argument("--sets", default="", help="only these question sets (assets/talk/questions*.jsonl)")
    t.add_argument("--limit", type=int, default=0, help="at most N questions per role")
    t.add_argument("--out", type=Path, default=None, help="write every answer to this JSONL file")
    sub.add_parser("players", help="list the player models, one line each")
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
    s.add_argument(
        "--plot", type=Path, default=None, help="write a PNG of one seed, static above the director"
    )
    s.add_argument("--plot-skill", default="novice", help="the player model the --plot runs use")
    s.add_argument(
        "--real-time", action="store_true", help="an LLM mode's plans land when they land (no lockstep)"
    )
    for name in ("programmer", "creator"):  # game.eval.agents: the agents that act
        g = sub.add_parser(name, help=f"the {name.capitalize()} on tuned and held-out requests")
        g.add_argument("--backend", default="local", help="the backend the role is routed to")
        g.add_argument("--split", default="all", help="all, tuned, held-out, or 'held-out-N (seen)'")
        g.add_argument("--limit", type=int, default=0, help="at most N requests")
    for name in ("ab", "all"):
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
        a.add_argument(
            "--report-at",
            default="",
            help="also report the first N seconds of the same runs, e.g. 180 (comma-separated)",
        )
        a.add_argument("--workers", type=int, default=2)
        a.add_argument("--real-time", action="store_true", help="an LLM mode's plans land when they land")
        if name == "all":
            a.add_argument(
                "--llm-backends", default="rules,stub,local", help="backends scored raw and guarded"
            )
    return p


def _decisions(backend: str, scenarios: Path, timeout: float, min_accuracy: float | None) -> int:
    suite = load_scenarios(scenarios)
    bar = ProgressBar(len(suite), f"decisions[{backend}]")
    report = evaluate(
        make_backend(backend), suite, timeout_s=timeout, progress=lambda i, n, name: bar.update(i, name)
    )
    bar.close()
    sys.stdout.write(format_report(report) + "\n")
    if min_accuracy is not None and report.accuracy < min_accuracy:
        sys.stdout.write(f"FAIL: accuracy {report.accuracy:.1%} is below {min_accuracy:.1%}\n")
        return 1
    return 0


def _progress(bar: ProgressBar) -> Callable[[int, int, str], None]:
    return lambda i, n, name: bar.update(i, name)


def _backend_table(names: str) -> None:
    """Each backend's accuracy raw and after the guard, on the shipped scenarios (a backend that cannot be
    built is listed with the reason)."""
    suite = load_scenarios(SHIPPED_SCENARIOS)
    reports = []
    for name in filter(None, (n.strip() for n in names.split(","))):
        bar = ProgressBar(len(suite), f"decisions[{name}]")
        try:
            source = make_backend(name)
        except Exception as exc:
            bar.close()
            sys.stdout.write(f"{name}: not evaluated ({exc})\n")
            continue
        reports.append(evaluate(source, suite, progress=_progress(bar)))
        bar.close()
    sys.stdout.write("Decision suite, raw and guarded (local+guard = the 'local' row's guarded column)\n")
    sys.stdout.write(format_summary(reports) + "\n\n")


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


def _ab(args: argparse.Namespace) -> int:
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
    results = run_ab(
        seeds=seeds,
        seconds=seconds,
        skills=skills,
        mode=args.mode,
        workers=args.workers,
        report_at=report_at,
        lockstep_s=lockstep_for(args.mode, args.real_time),
        cells=cells,
    )
    sys.stdout.write(format_ab(results, args.mode, seconds) + "\n")
    if args.json is not None:
        write_json(results, args.json, args.mode)
    return 0


def _stakes(args: argparse.Namespace) -> int:
    from game.director.tuning import preset_names
    from game.eval.stakes import format_stakes, run_one, run_stakes
    from game.eval.stakes import write_json as write_stakes

    bad = check_mode(args.mode, respawn=False, to_end=True)
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
        )
        sys.stdout.write(format_stakes(results, args.mode) + "\n")
        if args.json is not None:
            write_stakes(results, args.json)
    if args.plot is not None:
        from game.eval.plot import plot_runs

        skill, seed = cells[0] if cells else (args.plot_skill, seeds.start)
        runs = [
            run_one((skill, seed, m, difficulties[0], True, lockstep if m == args.mode else None))
            for m in (STATIC, args.mode)
        ]
        title = f"{skill} bot, seed {seed}, {difficulties[0]}: static (top) vs director"
        sys.stdout.write(f"plot: {plot_runs(runs, args.plot, title)}\n")
    return 0


def _players() -> str:
    lines = ["Player models (python -m game.eval ab --skills NAME|ladder|zoo|all):"]
    for group in ("ladder", "zoo"):
        lines.append(f"{group}:")
        lines += [f"  {n:<9} {MODELS[n].summary}" for n in GROUPS[group]]
    lines.append("other:")
    lines.append(f"  {'still':<9} {MODELS['still'].summary}")
    lines.append(f"  {'idle':<9} {MODELS['idle'].summary}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "decisions":
            return _decisions(args.backend, args.scenarios, args.timeout, args.min_accuracy)
        if args.command == "ab":
            return _ab(args)
        if args.command == "stakes":
            return _stakes(args)
        if args.command == "players":
            sys.stdout.write(_players() + "\n")
            return 0
        if args.command == "first-wave":
            try:
                resolve(args.skill)
            except UnknownPlayer as exc:
                sys.stderr.write(f"{exc}\n")
                return 2
            seeds = range(args.first_seed, args.first_seed + max(1, args.seeds))
            runs = [first_wave(seeds, args.skill, mode) for mode in ("static", args.mode)]
            sys.stdout.write(format_first_wave(runs) + "\n")
            return 0
        if args.command in ("programmer", "creator"):
            from game.eval.agents import run_agents

            return run_agents(args.command, args.backend, args.split, args.limit)
        if args.command == "talk":
            from game.eval.talk import run_talk

            roles = {r.strip() for r in args.roles.split(",") if r.strip()} or None
            backends = [b.strip() for b in args.backends.split(",") if b.strip()]
            sets = {s.strip() for s in args.sets.split(",") if s.strip()} or None
            return run_talk(
                backends,
                legacy=args.legacy,
                roles=roles,
                limit=args.limit,
                split=args.split,
                sets=sets,
                out=args.out,
            )
        status = _decisions("rules", SHIPPED_SCENARIOS, 60.0, None)
        sys.stdout.write("\n")
        _backend_table(args.llm_backends)
        sys.stdout.write("\n")
        from game.eval.talk import run_talk

        run_talk(["stub", "local"])
        return _ab(args) or status
    except CoreAIError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2


if __name__ == "__main__":
    # every directed run logs each plan at INFO; on the command line only warnings matter
    configure_logging(LogSettings(level="WARNING", file=False))
    raise SystemExit(main())
