"""Command-line options of ``python -m game`` / ``arena``, validated with pydantic.

A value out of range is an argparse error in player words (exit 2, one line, no traceback): argparse checks
``--seconds`` (``seconds_arg`` and ``check_seconds``), and whatever ``LaunchOptions`` still refuses is
turned into the same kind of error, naming the flag.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from coreai.llm.registry import BACKENDS
from coreai.validation import explain
from game.sim.config import FINAL_WAVE
from game.zoo import GROUPS, MODELS


def _player_model(name: str) -> str:
    """argparse type for --bot: a built-in player model (game.zoo), refused in player words. Outside
    models (``module:Factory``) are for the evaluation: a run's trajectory never names code to import."""
    if name not in MODELS:
        raise argparse.ArgumentTypeError(f"unknown player model {name!r}; known: {', '.join(GROUPS['all'])}")
    return name


class LaunchOptions(BaseModel):
    headless: bool = False
    seconds: float | None = Field(
        None, ge=0, allow_inf_nan=False, description="Stop after this much game time (0: no end)."
    )
    seed: int | None = None
    bot: str | None = Field(None, description="a player model's name (game.zoo): a bot plays")
    json_summary: bool = False
    fullscreen: bool = False
    mute: bool = False
    replay: Path | None = None
    director: str = Field("rules", description="static, rules, or a backend registry name")
    mcp: bool = False
    mcp_port: int | None = Field(None, ge=1, le=65535, description="default: the [mcp] port setting, 8590")
    frozen: bool = Field(False, description="With --mcp: the run starts frozen; an MCP agent steps it.")
    respawn: bool = Field(False, description="Headless only: a death is counted and the run goes on.")
    waves: int | None = Field(
        None, ge=1, le=FINAL_WAVE, description=f"surviving this wave wins the run (default {FINAL_WAVE})"
    )


# A headless bot run re-simulates as fast as the CPU allows and records a trajectory that replays it: its
# length is bounded like a replay's (``trajectory.MAX_REPLAY_SECONDS``, 6 hours). A window or an MCP session
# (real time, someone is playing or connected) is never refused for its length; 0 means no end.
MAX_HEADLESS_SECONDS = 6 * 3600.0


def seconds_arg(text: str) -> float:
    """``--seconds``: a number of seconds, 0 or more (argparse turns the ValueError into a usage error)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds (0 or more; 0: no end)")
    return value


def check_seconds(seconds: float | None, *, headless: bool, mcp: bool) -> str | None:
    """Why ``--seconds`` cannot be used with these options, or None when it can."""
    if seconds is None or not headless or mcp:
        return None  # a window or a headless MCP session: any length, 0 is no end
    if seconds == 0:
        return (
            "--seconds 0 (no end) is for a window or a headless --mcp session; "
            "a headless bot run needs an end"
        )
    if seconds > MAX_HEADLESS_SECONDS:
        return (
            f"--seconds {seconds:g} is too long for a headless bot run (at most {MAX_HEADLESS_SECONDS:g} s, "
            "6 hours); with --mcp any length works, and 0 means no end"
        )
    return None


def waves_arg(text: str) -> int:
    """``--waves``: a whole number of waves from 1 to ``FINAL_WAVE`` (a shorter run; the full run is the
    longest)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of waves (1 to {FINAL_WAVE})") from None
    if not 1 <= value <= FINAL_WAVE:
        raise argparse.ArgumentTypeError(
            f"{value} waves: a run is 1 to {FINAL_WAVE} waves long (the full run is {FINAL_WAVE})"
        )
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="arena",
        description="Arena Director: a roguelite arena with an AI director, Lua mods and an MCP server.",
    )
    p.add_argument("--headless", action="store_true", help="no window: simulate as fast as possible")
    p.add_argument(
        "--seconds",
        type=seconds_arg,
        default=None,
        metavar="N",
        help=(
            "stop after N seconds of game time; 0: no end (a window, or a headless --mcp session that runs "
            f"until Ctrl+C). Headless bot runs: at most {MAX_HEADLESS_SECONDS:g} (default 60)"
        ),
    )
    p.add_argument(
        "--waves",
        type=waves_arg,
        default=None,
        metavar="N",
        help=f"a shorter run: surviving wave N wins it (1 to {FINAL_WAVE}; default {FINAL_WAVE}, ~18 min)",
    )
    p.add_argument("--seed", type=int, default=None, help="RNG seed (same seed + same inputs = same run)")
    p.add_argument(
        "--bot",
        type=_player_model,
        default=None,
        metavar="MODEL",
        help=f"let a bot play: {', '.join(GROUPS['all'])} (python -m game.eval players describes them)",
    )
    p.add_argument(
        "--json", dest="json_summary", action="store_true", help="print a JSON run summary on exit"
    )
    p.add_argument("--fullscreen", action="store_true", help="start in fullscreen (F11 toggles)")
    p.add_argument("--mute", action="store_true", help="no sound")
    p.add_argument("--replay", type=Path, default=None, help="replay a director trajectory file")
    p.add_argument(
        "--director",
        default="rules",
        choices=["static", "rules", *BACKENDS.names()],
        help="director mode at start (F6 cycles in game; default rules)",
    )
    p.add_argument(
        "--mcp", action="store_true", help="serve MCP on 127.0.0.1 for external agents (or [mcp] enabled)"
    )
    p.add_argument("--mcp-port", type=int, default=None, help="MCP port (default: the setting, 8590)")
    p.add_argument(
        "--frozen",
        action="store_true",
        help="with --mcp: start a run at once, frozen; an MCP agent steps it (sim_control) and plays",
    )
    p.add_argument(
        "--respawn",
        action="store_true",
        help="headless: after a death, count it and keep playing (as `python -m game.eval` does)",
    )
    return p


def parse_args(argv: list[str] | None = None) -> LaunchOptions:
    parser = build_parser()
    ns = parser.parse_args(argv)
    if ns.frozen and not ns.mcp:
        parser.error("--frozen needs --mcp (an MCP agent steps the frozen game)")
    if ns.respawn and not ns.headless:
        parser.error("--respawn needs --headless (in a window, a death ends the run)")
    problem = check_seconds(ns.seconds, headless=ns.headless, mcp=ns.mcp)
    if problem is not None:
        parser.error(problem)
    try:
        return LaunchOptions(**vars(ns))
    except ValidationError as exc:  # one line naming the flag, never pydantic's text
        parser.error(explain(exc, flags=True))
