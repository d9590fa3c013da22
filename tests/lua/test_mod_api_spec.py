"""The Mod API has one source (coreai/lua/api_spec.py): the shipped LuaLS definitions file is exactly what it
generates, the reference prompts/skills/lua_modding.md documents every entry, and a real sandbox exposes
exactly the spec's globals, table members and hooks (nothing undocumented, nothing missing)."""

from __future__ import annotations

import re

from coreai.lua.api_spec import SPEC, TABLES, generate_meta, shipped_meta_text
from coreai.lua.manager import HOOKS, ModManager
from coreai.paths import shipped
from game.sim.prefabs import PrefabRegistry

LUA_BASICS = {
    "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "rawequal", "rawget", "rawlen", "rawset",
    "select", "tonumber", "tostring", "type", "getmetatable", "setmetatable", "load", "_VERSION", "_G",
    "string", "table", "math", "utf8", "coroutine", "os",
}  # fmt: skip


def test_shipped_definitions_are_generated_from_the_spec() -> None:
    assert shipped_meta_text() == generate_meta(), "run: python -m coreai.lua.api_spec"
    text = generate_meta()
    assert text.startswith("---@meta\n")
    for fn in SPEC.functions:
        assert f"function {fn.name}(" in text
    for hook in SPEC.hooks:
        assert f"function {hook.name}(" in text


def test_the_prefab_alias_is_the_games_whitelist() -> None:
    names = PrefabRegistry.load().names
    assert len(names) >= 9 and "charger" in names  # the kinds added after the alias was first written
    alias = next(line for line in generate_meta().splitlines() if line.startswith("---@alias Prefab "))
    assert alias.removeprefix("---@alias Prefab ").split("|") == [f'"{n}"' for n in names]
    assert 'alias Prefab "x"|"y"' in generate_meta(prefabs=("x", "y"))


def test_the_lua_reference_names_every_prefab() -> None:
    """Modders read the list in the reference; it is the game's whitelist (the roles' prompts get it filled
    in from the data instead: tests/game_ai/test_prompt_facts.py)."""
    text = shipped("prompts", "skills", "lua_modding.md").read_text(encoding="utf-8")
    missing = [n for n in PrefabRegistry.load().names if not re.search(rf"`{n}`", text)]
    assert not missing, f"prompts/skills/lua_modding.md does not name {missing}"


def test_the_reference_documents_every_entry() -> None:
    doc = shipped("prompts", "skills", "lua_modding.md").read_text(encoding="utf-8")
    for fn in SPEC.functions:
        assert fn.doc in doc, f"lua_modding.md lacks `{fn.doc}`"
    for hook in SPEC.hooks:
        assert f"`{hook.name}(" in doc, hook.name
    for f in SPEC.fields:
        assert f"{f.table}.{f.name}" in doc, f.name
    documented = set(re.findall(r"`((?:coreai_world_\w+|game\.\w+|storage\.\w+))\(", doc))
    assert documented <= {fn.name for fn in SPEC.functions}, "documented but not in the spec"


def test_the_sandbox_exposes_exactly_the_spec(manager: ModManager) -> None:
    r = manager.execute(
        "local out = {g = {}} for k in pairs(_G) do out.g[#out.g + 1] = k end "
        "for _, t in ipairs({'game', 'storage', 'mod'}) do out[t] = {} "
        "for k in pairs(_G[t]) do out[t][#out[t] + 1] = k end end return out"
    )
    assert r.ok, r.error
    got = r.values[0]
    plain = {fn.name for fn in SPEC.functions if "." not in fn.name}
    assert set(got["g"]) == LUA_BASICS | plain | set(TABLES)
    for table in ("game", "storage"):
        spec = {fn.name.split(".", 1)[1] for fn in SPEC.functions if fn.name.startswith(table + ".")}
        assert set(got[table]) == spec, table
    assert set(got["mod"]) == {f.name for f in SPEC.fields if f.table == "mod"}
    assert set(HOOKS) | {"on_load", "on_unload", "on_tick"} == {h.name for h in SPEC.hooks}
