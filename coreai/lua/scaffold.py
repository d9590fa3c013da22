"""A new mod that works from the first load (``arena mods new <name>``), and a check of every installed mod
without starting the game (``arena mods check``): manifests, dependencies, conflicts and load order, per mod.

The scaffold writes ``mod.toml`` (every key, commented), ``main.lua`` (hooks that report on the HUD),
``README.md`` and ``.luarc.json`` pointing the Lua language server at the shipped Mod API definitions
(``coreai/lua/mod_api_meta.lua``), so an editor with LuaLS completes and checks the API.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from coreai.errors import CoreAIError, ModError
from coreai.lua.api_spec import META_FILE
from coreai.lua.manifest import MANIFEST, NAME_PATTERN, read_bundle, read_manifest
from coreai.lua.prefs import PrefsFile
from coreai.lua.resolve import resolve
from coreai.lua.settings import LuaSettings
from coreai.paths import shipped, shipped_dir, user_mods_dir
from coreai.version import __version__

MAIN_LUA = """-- {name}: a new Arena Director mod. Reference: prompts/skills/lua_modding.md.
-- Save this file while the game runs and the mod hot-reloads.

local waves = 0

function on_load()
  report("{title} loaded")
end

function on_wave_start(wave)
  waves = waves + 1
  report("{title}: wave " .. wave .. " begins")
end

function on_enemy_killed(e)
  if e.prefab == "boss" then
    report("{title}: boss down!")
  end
end
"""

MOD_TOML = """name = "{name}"              # must equal the folder name
title = "{title}"             # shown in the mods panel (F7)
version = "0.1.0"
author = "{author}"
description = "A new mod."
api_version = 1               # the Mod API this mod speaks
entry = "main.lua"
enabled_by_default = true
load_order = 0                # lower loads first (dependencies always load before the mods needing them)
min_game_version = "{game_version}"  # the oldest game version this mod runs on
conflicts = []                # mods that must not run together with this one

[dependencies]                # mod name = version range, e.g. kill_streak = ">=1.0, <2"
"""

README = """# {title}

A mod for Arena Director. Edit `main.lua`; the game hot-reloads it. `arena mods check` reports problems
(dependencies, conflicts, game version) without starting the game. With the Lua language server (LuaLS),
`.luarc.json` gives completion and type checks for the Mod API.
"""


def luarc(meta: Path) -> str:
    return (
        json.dumps(
            {
                "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
                "runtime.version": "Lua 5.4",
                "workspace.library": [str(meta)],
                "workspace.checkThirdParty": False,
                "diagnostics.globals": [],
            },
            indent=2,
        )
        + "\n"
    )


def meta_path() -> Path:
    return shipped_dir("lua") / META_FILE


def new_mod(name: str, *, title: str = "", author: str = "you", root: Path | None = None) -> Path:
    """Write a working mod folder ``<user mods>/<name>``; ``ModError`` if the name is bad or taken."""
    if not re.fullmatch(NAME_PATTERN, name):
        raise ModError(name, "a mod name is lower_snake_case, 2-40 characters, starting with a letter")
    folder = (root or user_mods_dir()) / name
    if folder.exists():
        raise ModError(name, f"{folder} already exists")
    shown = (title or name.replace("_", " ").title()).replace('"', "'")[:80]
    values = {
        "name": name,
        "title": shown,
        "author": author.replace('"', "'")[:80],
        "game_version": __version__,
    }
    folder.mkdir(parents=True)
    (folder / MANIFEST).write_text(MOD_TOML.format(**values), encoding="utf-8")
    (folder / "main.lua").write_text(MAIN_LUA.format(**values), encoding="utf-8")
    (folder / "README.md").write_text(README.format(**values), encoding="utf-8")
    (folder / ".luarc.json").write_text(luarc(meta_path()), encoding="utf-8")
    assert shipped("lua", META_FILE).is_file()
    return folder


@dataclass(frozen=True)
class ModCheck:
    name: str
    title: str
    version: str
    origin: str  # "shipped" or "user"
    enabled: bool
    problem: str | None
    warnings: tuple[str, ...]


def _lua_settings() -> LuaSettings:
    """The player's ``[lua]`` limits (file sizes, file counts), as the game reads them at start."""
    from coreai.settings import load_settings

    try:
        return load_settings().lua
    except CoreAIError:  # the game starts with the defaults too (and says why)
        return LuaSettings()


def check_mods(
    roots: list[tuple[Path, str]] | None = None,
    prefs: PrefsFile | None = None,
    settings: LuaSettings | None = None,
) -> list[ModCheck]:
    """Every installed mod as the game would resolve it at start (a later root wins on a name clash). Each
    folder is read with ``read_bundle``, the loader's own check (names, sizes, manifest, entry file), so
    ``arena mods check`` and the game never disagree about a mod."""
    roots = roots or [(shipped_dir("assets", "mods"), "shipped"), (user_mods_dir(), "user")]
    settings = settings or _lua_settings()
    found: dict[str, tuple[Path, str]] = {}
    for root, origin in roots:
        if root.is_dir():
            for folder in sorted(root.iterdir()):
                if folder.is_dir() and not folder.name.startswith((".", "_")):
                    found[folder.name] = (folder, origin)
    prefs = prefs or PrefsFile()
    manifests = {n: m for n, (f, _) in found.items() if (m := read_manifest(f)) is not None}
    for name in found:
        prefs.defaults[name] = manifests[name].enabled_by_default if name in manifests else True
    enabled = {n for n in found if prefs.is_enabled(n)}
    plan = resolve(manifests, enabled, __version__)
    out = []
    for name, (folder, origin) in sorted(found.items()):
        m = manifests.get(name)
        problem = _read_problem(folder, settings) if name in enabled else None
        if problem is None:
            problem = plan.problems.get(name) if m else f"mod.toml is missing or invalid in {folder}"
        warnings = (m.unknown_keys_warning(),) if m and m.unknown_keys else ()
        out.append(
            ModCheck(
                name,
                m.display_name if m else name,
                m.version if m else "?",
                origin,
                name in enabled,
                problem,
                warnings,
            )
        )
    return out


def _read_problem(folder: Path, settings: LuaSettings) -> str | None:
    """Why the loader would refuse ``folder`` (``read_bundle``, as at start), or None."""
    try:
        read_bundle(folder, settings)
    except CoreAIError as exc:
        return str(exc)
    return None
