"""Print where the game's files live (shipped data, saves, settings, logs, mods, screenshots, models)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from coreai.paths import locations

_MODES = {
    "override": "ARENA_SAVES_DIR is set: everything the game writes goes under it",
    "dev": "running from a source checkout: the game writes into the checkout's saves/ (ARENA_DEV=0 to not)",
    "user": "installed: per-user folders",
}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="arena paths", description=__doc__)
    p.add_argument("--json", action="store_true", help="print the folders as one JSON object")
    ns = p.parse_args(argv)
    where = locations()
    if ns.json:
        sys.stdout.write(json.dumps({k: str(v) for k, v in asdict(where).items()}) + "\n")
        return 0
    rows = [
        ("mode", f"{where.mode} ({_MODES[where.mode]})"),
        ("saves", where.saves),
        ("settings", where.settings),
        ("logs", where.logs),
        ("user mods", where.mods),
        ("screenshots", where.screenshots),
        ("models", where.models),
        ("shipped data", where.shipped_assets),
        ("shipped prompts", where.shipped_prompts),
    ]
    sys.stdout.write("".join(f"{name:<16} {value}\n" for name, value in rows))
    return 0
