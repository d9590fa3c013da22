"""The game's side of the AI: it wires coreai (agents, command queue, Lua mods, MCP) and the director into a
running game, windowed or headless. ``coreai`` stays engine-agnostic; everything arcade-aware is here or in
``game/views``."""
