"""The Lua tools: ``execute_lua`` (agents and MCP), ``manage_mods`` and ``get_mod_logs`` (MCP).

Each takes the service that does the work (``game.ai.mod_services.ModServices`` over the real mod manager,
or a test's stand-in) and runs it on the game's main thread through ``ctx.on_main`` (all Lua lives there).
A failed Lua run raises ``ToolFailed`` carrying the whole result (error, line, output, traceback): an agent
reads the message and repairs, an MCP client gets the JSON as its tool error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from coreai.commands import CallOnMain
from coreai.errors import ToolFailed
from coreai.lua.manifest import NAME_PATTERN
from coreai.tools.base import Tool, ToolContext

ModOp = Literal["list", "get_source", "load", "reload", "unload", "versions", "revert", "diagnostics"]
MOD_OPS: tuple[str, ...] = get_args(ModOp)
NEEDS_MOD_NAME = frozenset({"get_source", "load", "reload", "unload", "versions", "revert"})
LUA_TIMEOUT_S = 10.0
CODE_MAX_CHARS = 65_536
DEFAULT_SANDBOX = {"mcp": "mcp_console"}  # by caller role; agents use "agent"

RunLua = Callable[[str, str, str | None], dict[str, Any]]
"""``run(code, sandbox, trace_id)`` -> the ``ExecResult`` as a dict (``ok``, ``values``, ``output``...)."""
ManageMods = Callable[..., dict[str, Any]]
"""``manage(op, name, source=None, version=None)`` -> a JSON-able dict; raises ``ModError``."""
GetModLogs = Callable[[str | None, int], list[dict[str, Any]]]
"""``get_logs(mod_or_None_for_all, limit)`` -> newest-last log entries (level, mod, line, message...)."""

EXECUTE_LUA = """\
Run Lua 5.4 in the game's sandbox (the one mods use; Mod API v1: coreai_world_spawn/move/destroy,
game.state(), game.set(param, value), report(msg), print, after/every timers; no io/os/debug/require).
Returns printed output, reports and the returned values; a Lua error comes back with its line. Each run
has an instruction budget and a memory cap; a runaway loop is killed and the game keeps running.
Example: {"code": "local p = game.state().player; return coreai_world_spawn('grunt', p.x + 200, p.y)"}
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


class ExecuteLuaArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=CODE_MAX_CHARS, description="Lua 5.4 source (Mod API v1)")
    sandbox: str | None = Field(
        None,
        pattern=NAME_PATTERN,
        description="console sandbox name (state persists per name); default: your own",
    )


class ManageModsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    op: ModOp = Field(description="What to do; see the tool description.")
    name: str | None = Field(None, pattern=NAME_PATTERN, description="Needed except for list/diagnostics.")
    source: str | None = Field(None, max_length=262_144, description="For load: the mod's Lua entry source.")
    version: int | None = Field(None, ge=1, description="For revert: the version number.")

    @model_validator(mode="after")
    def _name_when_needed(self) -> ManageModsArgs:
        if self.op in NEEDS_MOD_NAME and not self.name:
            raise ValueError(f"manage_mods op '{self.op}' needs 'name'")
        return self


class ModLogsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mod: str | None = Field(None, pattern=NAME_PATTERN, description="Only this mod; omit for every mod.")
    limit: int = Field(50, ge=1, le=500, description="At most this many newest entries.")


def _on_main(ctx: ToolContext, label: str, fn: Callable[[], Any], timeout: float | None = None) -> Any:
    return ctx.on_main(CallOnMain(fn=fn, label=label, agent=ctx.role, trace_id=ctx.trace_id), timeout)


def execute_lua_tool(run: RunLua, timeout_s: float = LUA_TIMEOUT_S) -> Tool:
    def invoke(args: ExecuteLuaArgs, ctx: ToolContext) -> dict[str, Any]:
        sandbox = args.sandbox or DEFAULT_SANDBOX.get(ctx.role, "agent")
        data: dict[str, Any] = _on_main(ctx, "lua", lambda: run(args.code, sandbox, ctx.trace_id), timeout_s)
        if data.get("ok") is False:
            raise ToolFailed("execute_lua", str(data.get("error") or "lua failed"), data=data)
        return data

    return Tool("execute_lua", EXECUTE_LUA, ExecuteLuaArgs, invoke, mutating=True)


def manage_mods_tool(manage: ManageMods) -> Tool:
    def invoke(args: ManageModsArgs, ctx: ToolContext) -> dict[str, Any]:
        data: dict[str, Any] = _on_main(
            ctx,
            "manage_mods",
            lambda: manage(args.op, args.name, source=args.source, version=args.version),
        )
        if data.get("ok") is False:
            raise ToolFailed("manage_mods", str(data.get("error") or "failed"), data=data)
        return data

    return Tool("manage_mods", MANAGE_MODS, ManageModsArgs, invoke, mutating=True)


def get_mod_logs_tool(get_logs: GetModLogs) -> Tool:
    def invoke(args: ModLogsArgs, ctx: ToolContext) -> dict[str, Any]:
        logs = _on_main(ctx, "get_mod_logs", lambda: list(get_logs(args.mod, args.limit)))
        return {"count": len(logs), "logs": logs}

    return Tool("get_mod_logs", GET_MOD_LOGS, ModLogsArgs, invoke)
