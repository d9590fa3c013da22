"""Mod tools: `arena mods new <name>` scaffolds a working mod in your mods folder; `arena mods check`
reports every mod's problems (dependencies, conflicts, game version) without starting the game."""

from __future__ import annotations

import argparse
import sys

from coreai.errors import ModError
from coreai.lua.scaffold import check_mods, meta_path, new_mod


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="arena mods", description=__doc__)
    sub = p.add_subparsers(dest="action", required=True)
    new = sub.add_parser("new", help="create a working mod in the user mods folder")
    new.add_argument("name", help="lower_snake_case, 2-40 characters")
    new.add_argument("--title", default="", help="display name (default: from the name)")
    new.add_argument("--author", default="you")
    sub.add_parser("check", help="list every mod and why it would not load")
    ns = p.parse_args(argv)
    if ns.action == "new":
        try:
            folder = new_mod(ns.name, title=ns.title, author=ns.author)
        except ModError as exc:
            sys.stderr.write(f"arena mods new: {exc}\n")
            return 1
        sys.stdout.write(
            f"created {folder}\n  edit {folder / 'main.lua'} (the game hot-reloads it)\n"
            f"  editor support: .luarc.json points LuaLS at {meta_path()}\n"
        )
        return 0
    problems = 0
    for m in check_mods():
        state = "ok" if m.problem is None else f"NOT LOADED: {m.problem}"
        if not m.enabled:
            state = "disabled"
        elif m.problem is not None:
            problems += 1
        sys.stdout.write(f"{m.name:<20} {m.version:<9} {m.origin:<8} {state}   ({m.title})\n")
        for w in m.warnings:
            sys.stdout.write(f"{'':<20} warning: {w}\n")
    return 1 if problems else 0
