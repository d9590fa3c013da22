"""Builds the MCP tools (SDK ``Tool`` objects), one per service present, each running on the main thread.

Every tool is an ``async`` function whose parameters carry pydantic ``Field`` constraints and descriptions,
so ``tools/list`` shows a real JSON schema (``Literal`` -> ``enum``). The work itself is posted to the
game's ``MainLoopQueue`` through ``MainThreadBridge``. Failures map to what the client sees:

* main thread did not answer (paused / not draining / stopping) -> JSON-RPC error -32603 naming the cause;
* the game refused or failed (``CoreAIError``: Lua error, bad mod, unknown prefab...) -> a tool error
  result (``isError``) carrying that message, which the agent can read and fix.
"""

import json
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal

import anyio
from loguru import logger
from mcp.server.mcpserver import Image
from mcp.server.mcpserver.exceptions import ToolError as SdkToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR
from pydantic import Field, ValidationError
from pydantic_core import to_jsonable_python

from coreai import commands as cmd
from coreai.errors import CommandRejected, CoreAIError, MainLoopTimeout, TaskCancelled
from coreai.mcp import tool_docs as docs
from coreai.mcp.images import fit_png
from coreai.mcp.mainthread import AGENT, MainThreadBridge
from coreai.mcp.services import McpServices, ModOp

# the mod manager's own rule (coreai.lua.manifest.NAME_PATTERN), repeated so this package stays independent
ModName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{1,39}$", description="lower_snake_case mod name.")]
WorldAction = Literal["prefabs", "spawn", "move", "destroy", "list", "state"]
RESULT_KEYS = {"spawn": "spawned", "move": "moved", "destroy": "destroyed", "list": "entities"}
NEEDS_MOD_NAME = frozenset({"get_source", "load", "reload", "unload", "versions", "revert"})


def _trace() -> str:
    return "mcp-" + uuid.uuid4().hex[:8]


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=str)


def _failed_is_error(result: Any) -> Any:
    """A service answer ``{"ok": False, ...}`` becomes a tool error carrying the whole answer as JSON."""
    data = _jsonable(result)
    if isinstance(data, dict) and data.get("ok") is False:
        raise SdkToolError(json.dumps(data, ensure_ascii=False))
    return data


class ToolRegistrar:
    """``build()`` -> the tools for these services; pass them to ``MCPServer(tools=...)``."""

    def __init__(self, services: McpServices, bridge: MainThreadBridge, max_resolution: int) -> None:
        self.services = services
        self.bridge = bridge
        self.max_resolution = max_resolution
        self.tools: list[Tool] = []

    def add(self, fn: Callable[..., Any], description: str) -> Tool:
        tool = Tool.from_function(fn, description=description)
        self.tools.append(tool)
        return tool

    # -- shared call path ------------------------------------------------------------------------------------
    async def on_main(self, tool: str, fn: Callable[[], Any], *, trace: str | None = None) -> Any:
        trace = trace or _trace()
        return await self.guard(tool, self.bridge.call(f"mcp:{tool}", fn, trace_id=trace), trace)

    async def guard(self, tool: str, awaitable: Any, trace: str | None) -> Any:
        log = logger.bind(feature="mcp", trace_id=trace or "-")
        try:
            result = await awaitable
        except MainLoopTimeout as exc:
            log.warning("tool {} failed: {}", tool, exc)
            raise MCPError(INTERNAL_ERROR, str(exc), data={"tool": tool, "cause": exc.cause}) from exc
        except TaskCancelled as exc:
            log.warning("tool {} cancelled: {}", tool, exc)
            raise MCPError(INTERNAL_ERROR, str(exc), data={"tool": tool}) from exc
        except CoreAIError as exc:
            log.info("tool {} refused by the game: {}", tool, exc)
            raise SdkToolError(str(exc)) from exc
        log.debug("tool {} done", tool)
        return result

    def build(self) -> list[Tool]:
        s = self.services
        plan: list[tuple[object, Callable[[], None]]] = [
            (s.execute_lua, self._execute_lua),
            (s.manage_mods, self._manage_mods),
            (s.get_mod_logs, self._get_mod_logs),
            (s.read_skill, self._read_skill),
            (s.world_commands, self._world_command),
            (s.screenshot, self._screenshot),
            (s.get_director_state, self._get_director_state),
            (s.set_director_plan, self._set_director_plan),
        ]
        for service, register in plan:
            if service:
                register()
        return self.tools

    # -- the tools -------------------------------------------------------------------------------------------
    def _execute_lua(self) -> None:
        svc = self.services.execute_lua
        assert svc is not None

        async def execute_lua(
            code: Annotated[str, Field(min_length=1, max_length=65_536, description="Lua 5.4 source.")],
            mod: Annotated[ModName, Field(description="Sandbox/log name for this snippet.")] = "mcp_console",
        ) -> dict[str, Any]:
            return _failed_is_error(await self.on_main("execute_lua", lambda: svc(code, mod)))

        self.add(execute_lua, description=docs.EXECUTE_LUA)

    def _manage_mods(self) -> None:
        svc = self.services.manage_mods
        assert svc is not None

        async def manage_mods(
            op: Annotated[ModOp, Field(description="What to do; see the tool description.")],
            name: Annotated[ModName | None, Field(description="Needed except for list/diagnostics.")] = None,
            source: Annotated[
                str | None, Field(max_length=262_144, description="For load: the mod's Lua entry source.")
            ] = None,
            version: Annotated[int | None, Field(ge=1, description="For revert: the version number.")] = None,
        ) -> dict[str, Any]:
            if op in NEEDS_MOD_NAME and not name:
                raise SdkToolError(f"manage_mods op '{op}' needs 'name'")
            return _failed_is_error(
                await self.on_main("manage_mods", lambda: svc(op, name, source=source, version=version))
            )

        self.add(manage_mods, description=docs.MANAGE_MODS)

    def _get_mod_logs(self) -> None:
        svc = self.services.get_mod_logs
        assert svc is not None

        async def get_mod_logs(
            mod: Annotated[ModName | None, Field(description="Only this mod; omit for every mod.")] = None,
            limit: Annotated[int, Field(ge=1, le=500, description="At most this many newest entries.")] = 50,
        ) -> dict[str, Any]:
            logs = await self.on_main("get_mod_logs", lambda: list(svc(mod, limit)))
            return {"count": len(logs), "logs": _jsonable(logs)}

        self.add(get_mod_logs, description=docs.GET_MOD_LOGS)

    def _read_skill(self) -> None:
        svc = self.services.read_skill
        assert svc is not None
        names_fn = getattr(svc, "names", None)
        known = ", ".join(names_fn()) if callable(names_fn) else ""
        description = docs.READ_SKILL + (f"Available now: {known}.\n" if known else "")

        async def read_skill(
            name: Annotated[str, Field(min_length=1, max_length=64, description="e.g. lua_modding")],
        ) -> str:
            return str(await self.on_main("read_skill", lambda: svc(name)))

        self.add(read_skill, description=description)

    def _world_command(self) -> None:
        async def world_command(
            action: Annotated[WorldAction, Field(description="What to do; see the tool description.")],
            prefab: Annotated[str | None, Field(max_length=64, description="spawn: a prefab name.")] = None,
            x: Annotated[float | None, Field(description="spawn/move: arena x (pixels).")] = None,
            y: Annotated[float | None, Field(description="spawn/move: arena y (pixels).")] = None,
            count: Annotated[int, Field(ge=1, le=100, description="spawn: how many (capped).")] = 1,
            elite: Annotated[bool, Field(description="spawn: elite variant.")] = False,
            entity_id: Annotated[int | None, Field(ge=0, description="move/destroy: the enemy id.")] = None,
            limit: Annotated[int, Field(ge=1, le=500, description="list: at most this many.")] = 50,
        ) -> dict[str, Any]:
            trace = _trace()
            if action == "prefabs":
                return _jsonable(await self.on_main("world_command", self._prefab_info, trace=trace))
            command = _world_command(action, prefab, x, y, count, elite, entity_id, limit, trace)
            posted = self.bridge.submit(command, label="mcp:world_command")
            result = await self.guard("world_command", posted, trace)
            key = RESULT_KEYS.get(action)
            return _jsonable({key: result} if key else result)

        self.add(world_command, description=docs.WORLD_COMMAND)

    def _prefab_info(self) -> dict[str, Any]:
        world = self.bridge.queue.bindings.world
        if world is None:
            raise CommandRejected("prefabs", "no world is registered with the AI core")
        return {"prefabs": list(world.prefab_names()), "arena_bounds": list(world.arena_bounds())}

    def _screenshot(self) -> None:
        svc = self.services.screenshot
        assert svc is not None
        default = self.max_resolution

        async def screenshot(
            max_resolution: Annotated[
                int | None, Field(ge=64, le=4096, description=f"Longest side in pixels (default {default}).")
            ] = None,
        ) -> Image:
            side = max_resolution or default
            png = await self.on_main("screenshot", lambda: svc(side))
            try:
                data, _size = await anyio.to_thread.run_sync(fit_png, png, side)
            except CoreAIError as exc:
                raise SdkToolError(str(exc)) from exc
            return Image(data=data, format="png")

        self.add(screenshot, description=docs.SCREENSHOT)

    def _get_director_state(self) -> None:
        svc = self.services.get_director_state
        assert svc is not None

        async def get_director_state() -> dict[str, Any]:
            return _jsonable(await self.on_main("get_director_state", svc))

        self.add(get_director_state, description=docs.GET_DIRECTOR_STATE)

    def _set_director_plan(self) -> None:
        svc = self.services.set_director_plan
        assert svc is not None
        schema = self.services.director_plan_schema

        async def set_director_plan(
            plan: Annotated[dict[str, Any], Field(description="The director plan object (see description).")],
        ) -> dict[str, Any]:
            return _jsonable(await self.on_main("set_director_plan", lambda: svc(dict(plan))))

        tool = self.add(set_director_plan, description=docs.SET_DIRECTOR_PLAN)
        if schema:  # advertise the director's own plan schema (validation still happens in the service)
            props = tool.parameters.setdefault("properties", {})
            props["plan"] = {**schema, "description": props.get("plan", {}).get("description", "")}


def _world_command(
    action: str,
    prefab: str | None,
    x: float | None,
    y: float | None,
    count: int,
    elite: bool,
    entity_id: int | None,
    limit: int,
    trace: str,
) -> cmd.MainLoopCommand:
    """Build the typed queue command for an action, or a tool error naming what is missing."""
    common: dict[str, Any] = {"agent": AGENT, "trace_id": trace}
    needs = {"spawn": ("prefab", "x", "y"), "move": ("entity_id", "x", "y"), "destroy": ("entity_id",)}
    given = {"prefab": prefab, "x": x, "y": y, "entity_id": entity_id}
    missing = [k for k in needs.get(action, ()) if given[k] is None]
    if missing:
        raise SdkToolError(f"world_command '{action}' needs {', '.join(missing)}")
    models: dict[str, type[cmd.MainLoopCommand]] = {
        "spawn": cmd.Spawn,
        "move": cmd.Move,
        "destroy": cmd.Destroy,
        "list": cmd.ListEntities,
    }
    model = models.get(action, cmd.GetState)
    by_action: dict[str, dict[str, Any]] = {
        "spawn": {"prefab": prefab, "x": x, "y": y, "count": count, "elite": elite},
        "move": {"entity_id": entity_id, "x": x, "y": y},
        "destroy": {"entity_id": entity_id},
        "list": {"limit": limit},
    }
    fields = by_action.get(action, {})
    try:
        return model.model_validate({**fields, **common})
    except ValidationError as exc:
        raise SdkToolError(f"world_command '{action}': {exc.errors()[0]['msg']}") from exc
