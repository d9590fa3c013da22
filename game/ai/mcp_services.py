"""What the game exposes over MCP: the same ``coreai.tools.Tool`` objects the in-game agents use, the ones
registered with ``mcp=...`` (``AiSession.add_tool(tool, roles=..., mcp=...)``, the one registration point:
who may call a tool is said once, where it is added), plus the director's state tool and the server start.

Every call runs on the game's main thread (the tools post through ``ctx.on_main``; MCP's bridge marshals
each call there). Nothing here imports the session: it takes the parts it uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from loguru import logger
from pydantic import BaseModel, ConfigDict

from coreai.commands import CallOnMain
from coreai.errors import CommandRejected, CoreAIError, McpError
from coreai.lua import ModManager
from coreai.mainloop import MainLoopQueue
from coreai.mcp import McpServerThread, McpSettings, SkillLibrary
from coreai.mcp.images import ShotStore
from coreai.mcp.resources import PromptSpec, ResourceSpec, UpdateHub
from coreai.orchestrator import Orchestrator
from coreai.tools.base import Tool, ToolContext
from coreai.tools.lua_tools import execute_lua_tool, get_mod_logs_tool, manage_mods_tool
from coreai.tools.view_tools import read_skill_tool, screenshot_tool
from game.ai.mod_services import ModServices
from game.bindings import WorldHandle
from game.director.director import Director

log = logger.bind(feature="mcp", trace_id="startup")

GET_DIRECTOR_STATE = """\
Read the AI director: intensity, pacing state (build_up / sustain_peak / peak_fade / relax), spawn credits,
current knobs, the plan that is running and why. Call this before set_director_plan to see the plan's
fields and their current values.
Example: {}
"""


def director_state(director: Director, handle: WorldHandle) -> dict[str, Any]:
    d = director
    if handle.world is None:
        return {"mode": d.mode}
    return {
        "mode": d.mode,
        "modes": list(d.modes()),
        "intensity": d.intensity.value,
        "pacing": d.pacing.state.value,
        "knobs": d.knobs.model_dump(mode="json"),
        "last_plan": d.last_plan.model_dump(mode="json") if d.last_plan else None,
        "last_reason": d.last_reason,
        "accepted": d.accepted,
        "rejected": d.rejected,
        "failed": d.failed,
        "backend": d.backend,
        "trace_id": d.trace_id,
        "events": list(d.events.names()),
    }


def set_director_plan(director: Director, handle: WorldHandle, plan: dict[str, Any]) -> dict[str, Any]:
    """A plan from outside the director's own loop (MCP, a chat): the same validation as every plan."""
    world = handle.world
    if world is None:
        raise CoreAIError("no run is in progress")
    result = director.apply_external(world, plan, source="mcp")
    if not result["ok"]:  # the MCP client sees a tool error naming the reason
        raise CommandRejected("set_director_plan", result["error"], trace_id=result["trace_id"])
    return result


class _NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


def director_state_tool(state: Callable[[], dict[str, Any]]) -> Tool:
    def invoke(args: _NoArgs, ctx: ToolContext) -> dict[str, Any]:
        data: dict[str, Any] = ctx.on_main(
            CallOnMain(fn=state, label="get_director_state", agent=ctx.role, trace_id=ctx.trace_id)
        )
        return data

    return Tool("get_director_state", GET_DIRECTOR_STATE, _NoArgs, invoke)


@dataclass(frozen=True)
class Registration:
    """A tool with who may call it: in-game ``roles`` and the MCP profiles (``mcp``; True: every one)."""

    tool: Tool
    roles: tuple[str, ...] = ()
    mcp: bool | tuple[str, ...] = False


def session_tools(
    mods: ModManager,
    director: Director,
    handle: WorldHandle,
    screenshot: Callable[[int], bytes],
    max_resolution: int,
    shots: ShotStore | None = None,
) -> list[Registration]:
    """The tools beyond the runtime's built-ins (world_command, get_game_state, memory) and the director's
    plan tool: the Lua tools, skills, the screenshot and the director's state. Chat gets no tools: its prompt
    never changes the game, and a tool menu makes a local model buffer the whole reply instead of streaming
    it into the chat panel."""
    svc = ModServices(mods)
    return [
        Registration(execute_lua_tool(svc.execute_lua), roles=("Programmer",), mcp=("mod",)),
        Registration(manage_mods_tool(svc.manage_mods), mcp=("mod",)),
        Registration(get_mod_logs_tool(svc.get_mod_logs), mcp=("mod",)),
        Registration(read_skill_tool(SkillLibrary()), mcp=True),
        Registration(screenshot_tool(screenshot, max_resolution, shots), mcp=True),
        Registration(director_state_tool(lambda: director_state(director, handle)), mcp=("direct",)),
    ]


def no_window(max_resolution: int) -> bytes:
    raise McpError("no window: the game runs headless, so there is no frame to capture")


def exposed(orchestrator: Orchestrator) -> tuple[list[Tool], dict[str, frozenset[str]]]:
    """The tools registered for MCP, in registration order, and each one's profiles."""
    pairs = orchestrator.mcp_tools()
    return [t for t, _ in pairs], {t.name: p for t, p in pairs}


def start_mcp_server(
    settings: McpSettings,
    tools: Sequence[Tool],
    queue: MainLoopQueue,
    *,
    port: int | None = None,
    notify: Callable[[str, str], None] | None = None,
    resources: Sequence[ResourceSpec] = (),
    prompts: Sequence[PromptSpec] = (),
    hub: UpdateHub | None = None,
    profiles: dict[str, frozenset[str]] | None = None,
) -> McpServerThread | None:
    """Serve ``tools`` (and resources, prompts) over MCP per the settings (``port`` wins); a busy port
    warns instead of stopping."""
    cfg = settings.model_copy(update={"enabled": True})
    if port is not None:
        cfg = cfg.model_copy(update={"port": port})
    server = McpServerThread(
        cfg, tools, queue, resources=resources, prompts=prompts, hub=hub, profiles=profiles
    )
    try:
        server.start()
    except CoreAIError as exc:
        if notify is not None:
            notify("warn", f"MCP server not started: {exc}")
        log.error("MCP server not started: {}", exc)
        return None
    return server
