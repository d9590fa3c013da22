"""Render a recipe to a mod: ``mod.toml`` (the request as its description) and ``main.lua``.

Every value that reaches the Lua text is an enum member, a bounded number or a string quoted by ``lua_str``,
so the output is valid Lua by construction (tests load every kind in the real sandbox). Hooks that several
rules need are merged into one function; a param a rule sets is put back when the mod unloads (turned off in
F7, reloaded, reverted).
"""

from __future__ import annotations

import json
import re

from coreai.lua.recipes.catalogue import say_rule
from coreai.lua.recipes.model import POLL_S, Facts, Recipe, Rule, count_label, storage_key

_HOOK_ARGS = {
    "on_load": "",
    "on_unload": "",
    "on_wave_start": "wave",
    "on_wave_end": "wave",
    "on_enemy_killed": "e",
    "on_enemy_spawned": "e",
    "on_player_damaged": "amount",
}
_SLUG = re.compile(r"[^a-z0-9]+")
_STOP = frozenset(
    [
        "im",
        "ive",
        "a",
        "an",
        "the",
        "of",
        "to",
        "and",
        "every",
        "each",
        "my",
        "me",
        "i",
        "is",
        "are",
        "be",
        "please",
        "make",
        "it",
        "that",
        "when",
        "while",
        "in",
        "on",
        "at",
    ]
)


def lua_str(text: str) -> str:
    """A Lua string literal of ``text`` (printable ASCII kept, everything else escaped)."""
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b}" for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def _num(v: float) -> str:
    return repr(float(v)) if v != int(v) else str(int(v))


def mod_name(request: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A lower_snake_case mod name (2-40 chars) from the request's words, unique among ``taken``."""
    words = [w for w in _SLUG.split(request.lower().replace("'", "")) if w and w not in _STOP]
    base = ""
    for w in words:  # whole words, at most 32 characters
        if len(base) + len(w) + 1 > 32:
            break
        base = f"{base}_{w}" if base else w
    base = base or (words[0][:32] if words else "my_mod")
    if not base[0].isalpha():
        base = ("mod_" + base)[:32].rstrip("_")
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


REPORT_FORMATS = {
    "player_hp": ('"HP: %d/%d"', "math.floor(s.player.hp + 0.5), math.floor(s.player.max_hp + 0.5)"),
    "enemies_alive": ('"Enemies alive: %d"', "s.enemies_alive"),
    "wave": ('"Wave: %d"', "s.wave"),
    "score": ('"Score: %d"', "s.score"),
    "kills": ('"Kills: %d"', "s.kills"),
    "time": ('"Time: %d s"', "math.floor(s.time)"),
}

_PLACE_LUA = """local function place(where, e)
  local s = game.state()
  local p, w, h = s.player, s.arena.width, s.arena.height
  if where == "event" and e ~= nil and e.x ~= nil then return e.x, e.y end
  if where == "edge" then
    local side = math.random(4)
    if side == 1 then return 40, math.random() * h end
    if side == 2 then return w - 40, math.random() * h end
    if side == 3 then return math.random() * w, 40 end
    return math.random() * w, h - 40
  end
  if where == "center" then return w / 2, h / 2 end
  if where == "random" then return 60 + math.random() * (w - 120), 60 + math.random() * (h - 120) end
  local a = math.random() * 2 * math.pi
  local d = 150 + math.random() * 60
  return p.x + math.cos(a) * d, p.y + math.sin(a) * d
end

-- spawn n in calls of at most PER_CALL; a refusal (rate limit, live cap) is not the mod's fault
local function spawn(prefab, x, y, n)
  local made, left = 0, n
  while left > 0 do
    local ok, ids = pcall(coreai_world_spawn, prefab, x, y, math.min(left, PER_CALL))
    if not ok then
      if not refused then refused = true warn("spawn refused: " .. tostring(ids)) end
      break
    end
    made = made + #ids
    left = left - math.min(left, PER_CALL)
    if #ids == 0 then break end
  end
  return made
end
"""


def _condition(r: Rule) -> str:
    t = _num(r.threshold)
    return {
        "always": "true",
        "hp_below": f"(s.player.hp < {t} * s.player.max_hp)",
        "hp_above": f"(s.player.hp > {t} * s.player.max_hp)",
        "enemies_above": f"(s.enemies_alive > {t})",
        "enemies_below": f"(s.enemies_alive < {t})",
        "wave_at_least": f"(s.wave >= {t})",
    }[r.condition]


def _action(i: int, r: Rule, facts: Facts) -> list[str]:
    """The body of ``act_i(e)``."""
    if r.action == "spawn":
        return [
            f"  local x, y = place({lua_str(r.place)}, e)",
            f"  last_spawned = spawn({lua_str(r.prefab or '')}, x, y, {r.count})",
        ]
    if r.action == "set_param":
        p = lua_str(r.param or "")
        return [
            f"  if saved_{i} == nil then saved_{i} = game.state().params[{p}] end",
            f"  game.set({p}, {_num(r.value or 0.0)})",
        ]
    if r.action == "report":
        if r.report == "message":
            return [f"  report({lua_str(r.text or 'Mod triggered')})"]
        if r.report == "spawned":
            what = lua_str(" " + (r.text or "enemies"))
            return [f'  report("Spawned " .. last_spawned .. {what})']
        fmt, args = REPORT_FORMATS[r.report]
        return ["  local s = game.state()", f"  report(string.format({fmt}, {args}))"]
    if r.action == "count":
        key, label = lua_str(storage_key(r)), lua_str(count_label(r))
        rare = r.trigger in ("load", "every", "after", "wave_start", "wave_end", "when")
        say = "  report(" + label + ' .. ": " .. n)'
        return [
            f"  local n = (storage.get({key}, 0) or 0) + 1",
            f"  storage.set({key}, n)",
            say if rare else f"  if n % 10 == 0 then {say.strip()} end",
        ]
    if r.action == "best":
        key = lua_str(storage_key(r))
        field = {"wave": "wave", "score": "score", "kills": "kills"}[r.best]
        return [
            f"  local v = game.state().{field}",
            f"  if v > (storage.get({key}, 0) or 0) then",
            f"    storage.set({key}, v)",
            f'    report("New best {r.best}: " .. v)',
            "  end",
        ]
    target = lua_str(r.prefab or r.filter_prefab or "")
    if r.trigger == "spawn":
        return [f"  if e ~= nil and e.prefab == {target} then coreai_world_destroy(e.id) end"]
    return [
        "  local n = 0",
        "  for id, prefab in pairs(live) do",
        f"    if prefab == {target} and n < {r.count} then",
        "      live[id] = nil",
        "      if coreai_world_destroy(id) then n = n + 1 end",
        "    end",
        "  end",
    ]


def _undo(i: int, r: Rule) -> list[str]:
    if r.action != "set_param":
        return []
    return [
        f"  if saved_{i} ~= nil then game.set({lua_str(r.param or '')}, saved_{i}) saved_{i} = nil end",
    ]


def render(recipe: Recipe, facts: Facts) -> str:
    """``main.lua`` of ``recipe``."""
    head = [
        "-- Written by the Programmer from a recipe (coreai/lua/recipes); edit freely.",
        "-- Request: " + re.sub(r"\s+", " ", recipe.request).replace("]]", "] ]")[:200],
    ]
    head += [f"-- Rule {i}: {say_rule(r, facts)}" for i, r in enumerate(recipe.rules, 1)]
    body: list[str] = []
    hooks: dict[str, list[str]] = {h: [] for h in _HOOK_ARGS}
    needs_place = any(r.action == "spawn" for r in recipe.rules)
    tracks = any(r.action == "destroy" and r.trigger != "spawn" for r in recipe.rules)
    if needs_place:
        body.append(f"local PER_CALL = {facts.spawn_per_call}  -- the game's cap on one spawn call")
        body.append("local last_spawned, refused = 0, false")
        body.append(_PLACE_LUA)
    if tracks:
        body.append("local live = {}  -- enemy id -> prefab, for the rules that remove enemies")
        hooks["on_enemy_spawned"].append("  live[e.id] = e.prefab")
        hooks["on_enemy_killed"].append("  live[e.id] = nil")
    for i, r in enumerate(recipe.rules, 1):
        body.append(f"-- {say_rule(r, facts)}")
        if r.action == "set_param":
            body.append(f"local saved_{i} = nil")
        body.append(f"local function act_{i}(e)")
        body += _action(i, r, facts)
        body.append("end")
        if r.nth > 1:
            body.append(f"local seen_{i} = 0")
        body.append(f"local function fire_{i}(e)")
        if r.nth > 1:
            body += [f"  seen_{i} = seen_{i} + 1", f"  if seen_{i} % {r.nth} ~= 0 then return end"]
        if r.condition != "always" and r.trigger != "when":
            body += ["  local s = game.state()", f"  if not {_condition(r)} then return end"]
        body += [f"  act_{i}(e)", "end"]
        if r.trigger == "when":
            body += [
                f"local on_{i} = false",
                f"local function poll_{i}()",
                "  local s = game.state()",
                f"  local now = {_condition(r)}",
                f"  if now and not on_{i} then on_{i} = true fire_{i}(nil)",
                f"  elseif not now and on_{i} then on_{i} = false",
                *["  " + line for line in _undo(i, r)],
                "  end",
                "end",
            ]
        body.append("")
        call = f"  fire_{i}(e)"
        if r.trigger == "load":
            hooks["on_load"].append(f"  fire_{i}(nil)")
        elif r.trigger == "every":
            hooks["on_load"].append(f"  every({_num(r.seconds)}, function() fire_{i}(nil) end)")
        elif r.trigger == "after":
            hooks["on_load"].append(f"  after({_num(r.seconds)}, function() fire_{i}(nil) end)")
        elif r.trigger == "when":
            hooks["on_load"].append(f"  every({_num(POLL_S)}, poll_{i})")
        elif r.trigger in ("wave_start", "wave_end"):
            hooks[f"on_{r.trigger}"].append(f"  fire_{i}({{wave = wave}})")
        elif r.trigger == "damage":
            hooks["on_player_damaged"].append(f"  fire_{i}({{amount = amount}})")
        else:
            checks = []
            if r.filter_prefab:
                checks.append(f"e.prefab == {lua_str(r.filter_prefab)}")
            if r.trigger == "spawn" and r.filter_cause:
                checks.append(f"e.source == {lua_str(r.filter_cause)}")
            if r.trigger == "spawn" and r.action == "spawn":
                checks.append('e.source ~= "mod"')  # its own spawns never set it off again
            hook = "on_enemy_killed" if r.trigger == "kill" else "on_enemy_spawned"
            hooks[hook].append(f"  if {' and '.join(checks)} then{call} end" if checks else call)
        undo = _undo(i, r)
        if undo and r.trigger != "when":
            hooks["on_unload"] += undo
        elif undo:
            hooks["on_unload"] += [f"  if on_{i} then", *["  " + line for line in undo], "  end"]
    for hook, lines in hooks.items():
        if lines:
            body += [f"function {hook}({_HOOK_ARGS[hook]})", *lines, "end", ""]
    return "\n".join([*head, "", *body]).rstrip() + "\n"


def manifest(name: str, recipe: Recipe, facts: Facts, author: str = "Programmer") -> str:
    """``mod.toml``: the request is the description (what F7 shows under the title)."""
    title = recipe.request.strip().splitlines()[0][:60] if recipe.request.strip() else name
    return "\n".join(
        [
            f"name = {json.dumps(name)}",
            'version = "1.0.0"',
            f"author = {json.dumps(author)}",
            f"title = {json.dumps(title)}",
            f"description = {json.dumps(recipe.request.strip()[:500])}",
            "api_version = 1",
            'entry = "main.lua"',
            "",
        ]
    )


def mod_files(recipe: Recipe, facts: Facts, name: str) -> dict[str, str]:
    return {"mod.toml": manifest(name, recipe, facts), "main.lua": render(recipe, facts)}
