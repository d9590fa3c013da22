"""Command-line options of ``python -m game`` / ``arena``, validated with pydantic."""

from __future__ import annotations

import argparse
from pathlib import Path

from pydantic import BaseModel, Field

from coreai.llm.registry import BACKENDS
from game.bot import SKILL_NAMES, SkillName

BotName = SkillName


class LaunchOptions(BaseModel):
    headless: bool = False
    seconds: float | None = Field(None, gt=0, description="Stop after this much game time.")
    seed: int | None = None
    bot: BotName | None = None
    json_summary: bool = False
    fullscreen: bool = False
    mute: bool = False
    replay: Path | None = None
    director: str = Field("rules", description="static, rules, or a backend registry name")
    mcp: bool = False
    mcp_port: int | None = Field(None, ge=1, le=65535, description="default: the [mcp] port setting, 8590")
    frozen: bool = Field(False, description="With --mcp: the run starts frozen; an MCP agent steps it.")
    respawn: bool = Field(False, description="Headless only: a death is counted and the run goes on.")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="arena",
        description="Arena Director: a roguelite arena with an AI director, Lua mods and an MCP server.",
    )
    p.add_argument("--headless", action="store_true", help="no window: simulate as fast as possible")
    p.add_argument("--seconds", type=float, default=None, help="stop after N seconds of game time")
    p.add_argument("--seed", type=int, default=None, help="RNG seed (same seed + same inputs = same run)")
    p.add_argument("--bot", choices=list(SKILL_NAMES), default=None, help="let a bot play")
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
    return LaunchOptions(**vars(ns))
