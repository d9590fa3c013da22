"""The descriptions agents read in ``tools/list``: what each tool does, when to use it, an example."""

from __future__ import annotations

SERVER_INSTRUCTIONS = """\
Arena Director is a running roguelite arena game (top-down, waves of enemies, upgrades, an AI director).
These tools drive the LIVE game: every call runs on the game's main thread between frames.
Start with read_skill (the Lua modding reference) and world_command {"action": "prefabs"} to learn what
exists, then act (world_command / execute_lua / manage_mods), then look (get_mod_logs, screenshot,
get_director_state). Coordinates are arena pixels, origin bottom-left. If a call fails with
"game loop paused", the player paused the game: ask them to unpause, then retry.
"""

EXECUTE_LUA = """\
Run a one-off Lua 5.4 snippet in the game's sandbox (the same sandbox mods use) and return its output.
Use it to try something live: spawn enemies around the player, read game.state(), tweak declared params.
The sandbox has no io/os/debug/require; it has the mod API (coreai_world_spawn, coreai_world_move,
coreai_world_destroy, game.state(), game.set(param, value), report(msg), print). Read the full API with
read_skill("lua_modding") first. Each run has an instruction budget and a memory cap; a runaway loop is
killed with a clear error and the game keeps running.
Example: {"code": "local s = game.state()\\n\
local ids = coreai_world_spawn('grunt', s.player.x + 120, s.player.y)\\nreport('spawned ' .. #ids)"}
"""

MANAGE_MODS = """\
Manage persistent Lua mods (they survive a restart). Operations:
list (all mods with status), get_source (name), load (name, optional source: writes/updates the mod and
loads it), reload (name), unload (name), versions (name: saved versions), revert (name, optional version:
back to that or the previous version), diagnostics (optional name: faults, quarantine, last error).
Use get_source before editing, then load with the fixed source, then get_mod_logs to confirm it runs.
Example: {"op": "load", "name": "wave_caller", "source": "function on_wave_start(w) report('wave ' .. w) end"}
"""

GET_MOD_LOGS = """\
Read what mods printed: print / warn / error output and runtime errors (with mod name and line), oldest
first, newest last. Use after execute_lua or manage_mods load to see what happened; omit mod for all mods.
Example: {"mod": "ring_spawner", "limit": 20}
"""

READ_SKILL = """\
Return the full text of a reference document the game ships (markdown), the same one the in-game agents
read. Read "lua_modding" before writing any Lua. Names forgive case and spaces ("Lua Modding" works).
Example: {"name": "lua_modding"}
"""

WORLD_COMMAND = """\
Act on the arena directly through the game's validated command queue (whitelisted prefabs, positions
clamped to the arena, spawn count capped per call, rate limited).
Actions: prefabs (allowed prefab names and arena bounds; call first), spawn (prefab, x, y, optional count,
elite), move (entity_id, x, y), destroy (entity_id), list (the nearest enemies first, up to limit),
state (a compact snapshot: player, wave, score, enemies by prefab...).
Example: {"action": "spawn", "prefab": "grunt", "x": 400, "y": 300, "count": 3}
"""

SCREENSHOT = """\
Capture the current game frame as a PNG image, downscaled so its longest side is at most max_resolution.
Use it to see the result of what you did (spawns, mods, UI). Fails with the reason when the game has no
window (headless run) or the capture failed.
Example: {"max_resolution": 768}
"""

GET_DIRECTOR_STATE = """\
Read the AI director: intensity, pacing state (build_up / sustain_peak / peak_fade / relax), spawn credits,
current knobs, the plan that is running and why. Call this before set_director_plan to see the plan's
fields and their current values.
Example: {}
"""

SET_DIRECTOR_PLAN = """\
Act as the game's director: submit a plan. It goes through exactly the same validation and clamping as the
in-game director agent's plan (unknown prefabs or events, out-of-range values and too-large changes are
rejected or clamped, and the previous plan keeps running when it is rejected). The reply says what was
applied. Follow the "plan" input schema; get_director_state shows the current plan and knobs. Always
say why in "reason".
Example: {"plan": {"pressure": "raise", "mix": {"grunt": 2.0}, "reason": "player is cruising; more pressure"}}
"""
