"""The Mod API v1, as data: the one source for the LuaLS definitions file (``mod_api_meta.lua``, shipped
with the game, for editor completion and type checks) and the list the reference
``prompts/skills/lua_modding.md`` is checked against (tests/lua/test_mod_api_spec.py: every entry's
``doc`` signature appears in the reference, and the sandbox's globals are exactly these).

Regenerate the definitions after changing this file: ``python -m coreai.lua.api_spec`` (a test fails while
the shipped file differs from what this would write).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from coreai.paths import shipped
from coreai.persist import loads_json

# The ``Prefab`` alias lists the game's prefab whitelist, read from its data file (the one definition of
# which enemies exist; the game's PrefabRegistry loads the same file).
PREFAB_FILE = ("prefabs", "enemies.json")  # under assets/


def whitelist_prefabs() -> tuple[str, ...]:
    """The prefab names a mod may spawn, in the data file's order."""
    data = loads_json(shipped("assets", *PREFAB_FILE).read_text(encoding="utf-8"))
    return tuple(str(name) for name in data["prefabs"])


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    optional: bool = False
    note: str = ""


@dataclass(frozen=True)
class Fn:
    name: str  # "report", "game.state", "storage.get"
    doc: str  # the signature as the reference writes it, e.g. "coreai_world_spawn(prefab, x, y [, count])"
    summary: str
    params: tuple[Param, ...] = ()
    returns: str | None = None
    vararg: str | None = None  # type of ``...``


@dataclass(frozen=True)
class Hook:
    name: str
    summary: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class Field_:
    table: str
    name: str
    type: str
    summary: str


@dataclass(frozen=True)
class ApiSpec:
    functions: tuple[Fn, ...]
    hooks: tuple[Hook, ...]
    fields: tuple[Field_, ...]
    # class -> (field, type, doc)
    classes: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)


P = Param
SPEC = ApiSpec(
    functions=(
        Fn("coreai_world_spawn", "coreai_world_spawn(prefab, x, y [, count])",
           "Spawn enemies through the prefab whitelist; returns their entity ids.",
           (P("prefab", "Prefab", note="a name from the prefab whitelist"), P("x", "number"),
            P("y", "number"), P("count", "integer", True, "1..20, default 1")), "integer[]"),
        Fn("coreai_world_move", "coreai_world_move(id, x, y)", "Move an entity; false when it is gone.",
           (P("id", "integer"), P("x", "number"), P("y", "number")), "boolean"),
        Fn("coreai_world_destroy", "coreai_world_destroy(id)", "Remove an entity; false when it is gone.",
           (P("id", "integer"),), "boolean"),
        Fn("game.state", "game.state()", "A read-only snapshot of the run, refreshed every frame.", (),
           "ArenaState"),
        Fn("game.params", "game.params()", "The params game.set accepts, with their bounds.", (),
           "table<string, {min: number, max: number}>"),
        Fn("game.set", "game.set(param, value)", "Set a bounded param (clamped); returns the value applied.",
           (P("param", "string"), P("value", "number")), "number"),
        Fn("game.register_upgrade", "game.register_upgrade(spec)",
           "Add a passive to the between-wave upgrade picks, this run and later; errors name the field.",
           (P("spec", "UpgradeSpec"),)),
        Fn("game.director_event", "game.director_event(name, description [, cooldown_s])",
           "Offer the AI director a named event; on_director_event(name) runs when it fires.",
           (P("name", "string"), P("description", "string"), P("cooldown_s", "number", True, "default 30"))),
        Fn("report", "report(...)", "A line on the HUD and in your mod log (at most 10 per call).",
           vararg="any"),
        Fn("print", "print(...)", "A line in your mod log.", vararg="any"),
        Fn("warn", "warn(...)", "A warning line in your mod log.", vararg="any"),
        Fn("after", "after(seconds, fn)", "Run fn once after seconds of game time; returns a timer id.",
           (P("seconds", "number"), P("fn", "fun()")), "integer"),
        Fn("every", "every(seconds, fn)", "Run fn every seconds (minimum 0.05); returns a timer id.",
           (P("seconds", "number"), P("fn", "fun()")), "integer"),
        Fn("cancel", "cancel(id)", "Cancel a timer; true if it existed.", (P("id", "integer"),), "boolean"),
        Fn("include", "include(\"file.lua\")", "Run another Lua file of this mod once and return its value.",
           (P("file", "string"),), "any"),
        Fn("storage.get", "storage.get(key [, default])", "A stored value (a fresh copy), or default.",
           (P("key", "string"), P("default", "any", True)), "any"),
        Fn("storage.set", "storage.set(key, value)", "Store a plain value (nil removes the key).",
           (P("key", "string"), P("value", "any"))),
        Fn("storage.remove", "storage.remove(key)", "Remove a key.", (P("key", "string"),)),
        Fn("storage.keys", "storage.keys()", "The stored keys, sorted.", (), "string[]"),
    ),
    hooks=(
        Hook("on_load", "After the entry file ran, once per (re)load."),
        Hook("on_unload", "Before the mod is unloaded, disabled or reloaded."),
        Hook("on_wave_start", "A wave begins.", (P("wave", "integer"),)),
        Hook("on_wave_end", "A wave ends.", (P("wave", "integer"),)),
        Hook("on_enemy_spawned", "An enemy appears.", (P("e", "ArenaEnemy"),)),
        Hook("on_enemy_killed", "An enemy dies.", (P("e", "ArenaEnemy"),)),
        Hook("on_player_damaged", "The player loses HP.", (P("amount", "number"),)),
        Hook("on_tick", "At most 60 times a second; dt: seconds since this mod's last tick.",
             (P("dt", "number"),)),
        Hook("on_director_event", "The AI director fired a named event a mod offered.",
             (P("name", "string"),)),
    ),
    fields=(
        Field_("mod", "name", "string", "This mod's name."),
        Field_("mod", "version", "string", "This mod's version."),
        Field_("mod", "author", "string", "This mod's author."),
        Field_("mod", "api_version", "integer", "The Mod API version (1)."),
    ),
    classes={
        "ArenaPlayer": [("x", "number", ""), ("y", "number", ""), ("hp", "number", ""),
                        ("max_hp", "number", ""), ("level", "integer", ""), ("xp", "number", ""),
                        ("alive", "boolean", "")],
        "ArenaEnemy": [("id", "integer", ""), ("prefab", "Prefab", ""), ("x", "number", ""),
                       ("y", "number", "")],
        "UpgradeSpec": [("key", "string", "lower_snake_case, at most 32 bytes, not a built-in upgrade"),
                        ("name", "string", "at most 28 characters"),
                        ("description", "string", "at most 80 characters"),
                        ("max_stacks", "integer?", "1-10, default 3"),
                        ("effects", "table<string, number>",
                         "1-4 stats: damage, fire_rate, speed, max_hp, pickup_radius, bullet_speed, "
                         "dash_cooldown (x0.5-1.6 per stack), regen (+0-2 HP/s)")],
        "ArenaState": [("time", "number", "game seconds"), ("tick", "integer", ""), ("wave", "integer", ""),
                       ("phase", "string", ""), ("wave_time_left", "number", ""), ("score", "integer", ""),
                       ("kills", "integer", ""), ("deaths", "integer", ""), ("enemies_alive", "integer", ""),
                       ("enemies_by_prefab", "table<string, integer>", ""), ("bullets", "integer", ""),
                       ("pickups", "integer", ""), ("upgrades", "table", ""),
                       ("params", "table<string, number>", ""), ("player", "ArenaPlayer", ""),
                       ("arena", "{width: number, height: number}", "")],
    },
)  # fmt: skip

TABLES = ("game", "storage", "mod")
META_FILE = "mod_api_meta.lua"


def _fn_lines(fn: Fn) -> list[str]:
    lines = [f"--- {fn.summary}"]
    for p in fn.params:
        note = f" {p.note}" if p.note else ""
        lines.append(f"---@param {p.name}{'?' if p.optional else ''} {p.type}{note}")
    if fn.vararg:
        lines.append(f"---@param ... {fn.vararg}")
    if fn.returns:
        lines.append(f"---@return {fn.returns}")
    args = [p.name for p in fn.params] + (["..."] if fn.vararg else [])
    lines.append(f"function {fn.name}({', '.join(args)}) end")
    return lines


def generate_meta(spec: ApiSpec = SPEC, prefabs: tuple[str, ...] | None = None) -> str:
    """The LuaLS ``---@meta`` definitions file of the Mod API (``prefabs``: the whitelist's names)."""
    names = whitelist_prefabs() if prefabs is None else prefabs
    out = [
        "---@meta",
        "-- Arena Director Mod API v1: definitions for the Lua language server (LuaLS).",
        "-- GENERATED from coreai/lua/api_spec.py by `python -m coreai.lua.api_spec`; do not edit.",
        "-- Reference: prompts/skills/lua_modding.md. Setup: point .luarc.json's workspace.library here.",
        "",
        "---@alias Prefab " + "|".join(f'"{name}"' for name in names),
        "",
    ]
    for cls, fields in spec.classes.items():
        out.append(f"---@class {cls}")
        out += [f"---@field {n} {t}{' ' + d if d else ''}" for n, t, d in fields]
        out.append("")
    for table in TABLES:
        out.append(f"---@class {table}lib")
        out += [f"---@field {f.name} {f.type} {f.summary}" for f in spec.fields if f.table == table]
        out.append(f"{table} = {{}}")
        out.append("")
    for fn in spec.functions:
        out += [*_fn_lines(fn), ""]
    out.append("-- Hooks: define any of these as global functions in your mod.")
    out.append("")
    for hook in spec.hooks:
        out.append(f"--- {hook.summary}")
        out += [f"---@param {p.name} {p.type}" for p in hook.params]
        out.append(f"function {hook.name}({', '.join(p.name for p in hook.params)}) end")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def shipped_meta_text() -> str:
    return shipped("lua", META_FILE).read_text(encoding="utf-8")


def main(argv: list[str]) -> int:
    target = Path(__file__).with_name(META_FILE)
    target.write_text(generate_meta(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
