"""Agent play: an outside agent (over MCP) controls game time and the player's input, exactly.

The game owns a fixed 60 Hz timestep, so an agent that thinks for 30 s between calls can still play: it
freezes the simulation, steps N ticks (or until a condition), and presses keys that reach the world through
the same ``PlayerInput`` a human's keys make. Modules, one job each:

- ``clock``: frozen / running / speed, and the one step request in progress;
- ``journal``: the run's notable events, with a cursor for "events since the last call";
- ``digest``: the compact state an agent gets back after every step;
- ``keys``: the agent's key actions and aim, sampled into ``PlayerInput`` each tick;
- ``controller``: the main-thread object that ties them to a world and a front (window or headless), and
  owns game time (freeze, thaw, speed, steps);
- ``agent_input``: the agent's key presses, aim, holds, sequences and between-waves actions;
- ``fronts``: what "pick an upgrade", "buy" and "next wave" mean in a window and headless;
- ``tools``: the ``sim_control`` and ``player_input`` tools (one ``coreai.tools.Tool`` each);
- ``headless``: the headless main loop for ``--headless --mcp``;
- ``runs``: finished and current runs as MCP resources.
"""
