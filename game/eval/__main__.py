"""``python -m game.eval``: the director's evaluation (``make eval`` runs ``all``).

    python -m game.eval decisions [--backend rules] [--scenarios FILE] [--min-accuracy 0.95]
    python -m game.eval ab [--mode rules] [--seeds 5] [--first-seed 0] [--seconds 180]
                           [--skills ladder] [--workers 2] [--json FILE]
                                     # --mode: static, rules, an LLM backend (local, openai, stub), or
                                     # replay:PATH (a recorded run, or a folder of them: their seeds and
                                     # models are the report's); --record FOLDER keeps the director's runs
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
from game.eval.decisions import backend_names, evaluate, format_report, format_summary, make_backend
from game.eval.first_wave import first_wave, format_first_wave
from game.eval.progress import ProgressBar
from game.eval.report_cli import ab_command, add_ab_parser, add_stakes_parser, stakes_command
from game.eval.scenarios import SHIPPED_SCENARIOS, load_scenarios
from game.zoo import GROUPS, MODELS, UnknownPlayer, resolve


def _register_chat_backends() -> None:
    try:
        from game.ai.eval_backends import register_all
    except ImportError:  # the LLM stack is optional for the deterministic evaluation
        return
    register_all()


_register_chat_backends()


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
    add_stakes_parser(sub)
    for name in ("programmer", "creator"):  # game.eval.agents: the agents that act
        g = sub.add_parser(name, help=f"the {name.capitalize()} on tuned and held-out requests")
        g.add_argument("--backend", default="local", help="the backend the role is routed to")
        g.add_argument("--split", default="all", help="all, tuned, held-out, or 'held-out-N (seen)'")
        g.add_argument("--limit", type=int, default=0, help="at most N requests")
    for name in ("ab", "all"):
        add_ab_parser(sub, name)
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
            return ab_command(args)
        if args.command == "stakes":
            return stakes_command(args)
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
            from game.eval.talk_report import run_talk

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
        from game.eval.talk_report import run_talk

        run_talk(["stub", "local"])
        return ab_command(args) or status
    except CoreAIError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2


if __name__ == "__main__":
    # every directed run logs each plan at INFO; on the command line only warnings matter
    configure_logging(LogSettings(level="WARNING", file=False))
    raise SystemExit(main())
