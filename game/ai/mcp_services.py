"""What the game lends the MCP server: the mod manager, the world commands, the skill docs, the window's
screenshot and the director (its state, and an external agent's plans through the in-game validation).

Every service runs on the game's main thread (the MCP bridge marshals each tool call there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from loguru import logger

from coreai.errors import CommandRejected, CoreAIError, McpError
from coreai.mcp import McpServerThread, McpServices, SkillLibrary
from game.ai.mod_services import ModServices
from game.director.plan import plan_json_schema

if TYPE_CHECKING:
    from game.ai.session import AiSession

log = logger.bind(feature="mcp", trace_id="startup")


def director_state(session: AiSession) -> dict[str, Any]:
    world = session.handle.world
    if world is None:
        return {"mode": session.director.mode}
    panel = session.director.panel(world)
    return {
        "mode": panel.mode,
        "modes": list(panel.modes),
        "intensity": panel.intensity,
        "pacing": panel.pacing.value,
        "knobs": panel.knobs.model_dump(mode="json"),
        "last_plan": panel.last_plan.model_dump(mode="json") if panel.last_plan else None,
        "last_reason": panel.last_reason,
        "accepted": panel.accepted,
        "rejected": panel.rejected,
        "failed": panel.failed,
        "backend": panel.backend,
        "trace_id": panel.trace_id,
        "events": list(session.director.events.names()),
    }


def set_director_plan(session: AiSession, plan: dict[str, Any]) -> dict[str, Any]:
    """An external agent acts as the director: the same validation as the in-game agent's plans."""
    world = session.handle.world
    if world is None:
        raise CoreAIError("no run is in progress")
    result = session.director.apply_external(world, plan, source="mcp")
    if not result["ok"]:  # the MCP client sees a tool error naming the reason
        raise CommandRejected("set_director_plan", result["error"], trace_id=result["trace_id"])
    return result


def screenshot(session: AiSession, max_resolution: int) -> bytes:
    if session.screenshot is None:
        raise McpError("no window: the game runs headless, so there is no frame to capture")
    return session.screenshot(max_resolution)


def services_for(session: AiSession) -> McpServices:
    mods = ModServices(session.mods)
    spawnable = session.prefabs.regular
    return McpServices(
        execute_lua=mods.execute_lua,
        manage_mods=mods.manage_mods,
        get_mod_logs=mods.get_mod_logs,
        read_skill=SkillLibrary(),
        world_commands=True,
        screenshot=lambda res: screenshot(session, res),
        get_director_state=lambda: director_state(session),
        set_director_plan=lambda plan: set_director_plan(session, plan),
        director_plan_schema=plan_json_schema(spawnable, session.director.events.names()),
    )


def start_mcp_server(session: AiSession) -> McpServerThread | None:
    """Serve MCP per the settings (``--mcp-port`` wins); a busy port warns instead of stopping the game."""
    cfg = session.settings.mcp.model_copy(update={"enabled": True})
    if session.options.mcp_port is not None:
        cfg = cfg.model_copy(update={"port": session.options.mcp_port})
    server = McpServerThread(cfg, services_for(session), session.runtime.mainloop)
    try:
        server.start()
    except CoreAIError as exc:
        session.notify("warn", f"MCP server not started: {exc}")
        log.error("MCP server not started: {}", exc)
        return None
    return server
