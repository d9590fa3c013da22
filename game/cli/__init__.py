"""The ``arena`` / ``python -m game`` command line: a subcommand dispatcher.

``arena [options]`` plays (see ``game.cli.play``); ``arena <subcommand> ...`` runs one of ``SUBCOMMANDS``.

To add a subcommand: write a module ``game/cli/<name>.py`` with a one-line module docstring (the help text)
and ``def main(argv: list[str]) -> int`` (parse ``argv`` with your own ``argparse`` parser, ``prog="arena
<name>"``), then add one line ``"<name>": "game.cli.<name>"`` to ``SUBCOMMANDS``. Modules are imported only
when their subcommand runs, so ``arena --version`` stays instant.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import cast

SUBCOMMANDS: dict[str, str] = {
    "ask": "game.cli.ask",
    "paths": "game.cli.paths",
    "mcp-config": "game.cli.mcp_config",
    "mods": "game.cli.mods",
}


def version() -> str:
    from coreai.version import __version__

    return __version__


def _summary(module_name: str) -> str:
    module = importlib.import_module(module_name)
    return (module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else ""


def usage() -> str:
    lines = [
        "usage: arena [play options]          play (the options are listed below)",
        "       arena <subcommand> [args]      (arena <subcommand> --help)",
        "       arena --version",
        "",
        "subcommands:",
    ]
    lines += [f"  {name:<14}{_summary(module)}" for name, module in SUBCOMMANDS.items()]
    return "\n".join(lines) + "\n"


def dispatch(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("--version", "-V"):
        sys.stdout.write(f"arena {version()}\n")
        return 0
    if args and args[0] in ("help", "--help", "-h") and len(args) == 1:
        sys.stdout.write(usage())
        sys.stdout.write("\n")
        from game.options import build_parser

        sys.stdout.write(build_parser().format_help())
        return 0
    if args and args[0] in SUBCOMMANDS:
        module = importlib.import_module(SUBCOMMANDS[args[0]])
        return cast(Callable[[list[str]], int], module.main)(args[1:])
    if args and not args[0].startswith("-"):
        sys.stderr.write(f"arena: unknown subcommand '{args[0]}'\n\n{usage()}")
        return 2
    from game.cli.play import main as play

    return play(args)
