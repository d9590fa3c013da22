"""The server's instructions (``initialize``). Each tool's own description lives with its ``Tool``
(``coreai/tools/*``, ``game/ai/*``): one text for in-game agents and MCP clients alike."""

from __future__ import annotations

SERVER_INSTRUCTIONS = """\
Arena Director is a running roguelite arena game (top-down, waves of enemies, upgrades, an AI director).
These tools drive the LIVE game: every call runs on the game's main thread between frames.
Start with read_skill (the Lua modding reference) and world_command {"action": "prefabs"} to learn what
exists, then act (world_command / execute_lua / manage_mods), then look (get_mod_logs, screenshot,
get_director_state). To play, control time with sim_control (freeze, step N ticks, step_until an event or
a Lua condition) and press keys with player_input; read_skill {"name": "mcp"} explains. Coordinates are
arena pixels, origin bottom-left. If a call fails with "game loop paused", the player paused the game:
ask them to unpause, then retry (a game frozen by sim_control is never "paused").
"""
