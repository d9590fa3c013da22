"""What the game lends the MCP server: optional service callables, each one enabling one tool.

The MCP package never imports the Lua manager, the director or the window. The game (lead) fills in an
``McpServices`` with whatever it has; ``coreai.mcp.tools`` registers a tool only when its service is present,
so ``tools/list`` shows exactly what this game exposes. Every service is called on the game's main thread
(through the ``MainLoopQueue``), never on the server's threads, so services may touch the engine directly.

A service reports failure by returning ``{"ok": False, ...}`` (execute_lua / manage_mods: the client
gets a tool error carrying that whole dict, output and traceback included), or by raising a
``coreai.errors.CoreAIError`` (``LuaError``, ``ModError``, ``CommandRejected``, ``McpError``...) whose
message names the cause; the client sees that message as a tool error. Anything else it raises is
reported as "failed on the main thread: <type>: <message>".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

ModOp = Literal["list", "get_source", "load", "reload", "unload", "versions", "revert", "diagnostics"]
MOD_OPS: tuple[str, ...] = get_args(ModOp)

ExecuteLua = Callable[[str, str], dict[str, Any]]
"""``execute_lua(code, mod)`` -> e.g. ``{"ok": True, "output": [...], "values": [...]}``; raises LuaError."""

ManageMods = Callable[..., dict[str, Any]]
"""``manage_mods(op, name, source=None, version=None)`` -> a JSON-able dict; raises ``ModError``."""

GetModLogs = Callable[[str | None, int], list[dict[str, Any]]]
"""``get_mod_logs(mod_or_None_for_all, limit)`` -> newest-last log entries (level, mod, line, message...)."""

ReadSkill = Callable[[str], str]
"""``read_skill(name)`` -> the markdown text; raises ``McpError`` listing the known names when unknown."""

Screenshot = Callable[[int], bytes]
"""``screenshot(max_resolution)`` -> PNG bytes of the current frame; raises ``McpError`` naming why not."""

GetDirectorState = Callable[[], dict[str, Any]]
SetDirectorPlan = Callable[[dict[str, Any]], dict[str, Any]]
"""``set_director_plan(plan)``: validated like the in-game agent's plan; raises CommandRejected if refused."""


@dataclass(frozen=True)
class McpServices:
    """Optional services; None = that tool is not offered. ``world_commands`` needs a ``WorldExecutor``
    registered on the queue's ``CoreAiBindings`` (the tool posts typed ``coreai.commands`` to the queue)."""

    execute_lua: ExecuteLua | None = None
    manage_mods: ManageMods | None = None
    get_mod_logs: GetModLogs | None = None
    read_skill: ReadSkill | None = None
    world_commands: bool = False
    screenshot: Screenshot | None = None
    get_director_state: GetDirectorState | None = None
    set_director_plan: SetDirectorPlan | None = None
    # advertised as the tool's "plan" schema, e.g. game.director.plan.plan_json_schema(prefabs, events)
    director_plan_schema: dict[str, Any] | None = None

    def offered(self) -> list[str]:
        """Names of the tools these services enable, in registration order."""
        names = []
        for name in (
            "execute_lua",
            "manage_mods",
            "get_mod_logs",
            "read_skill",
            "world_command",
            "screenshot",
            "get_director_state",
            "set_director_plan",
        ):
            attr = "world_commands" if name == "world_command" else name
            if getattr(self, attr):
                names.append(name)
        return names
