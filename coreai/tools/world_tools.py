"""Built-in world tools: ``world_command`` (prefabs / spawn / move / destroy / list / state) and
``get_game_state``, for in-game agents and MCP clients alike.

Both go through the main-loop queue (``coreai.mainloop``) via ``ctx.on_main``: the caller's thread posts a
typed command and waits for the game's main thread to apply it. Whitelist, clamping, caps and rate limits are
the queue's; their refusals come back as tool errors naming the reason (e.g. the allowed prefabs).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from coreai.commands import CallOnMain, Destroy, GetState, ListEntities, MainLoopCommand, Move, Spawn
from coreai.errors import CommandRejected
from coreai.tools.base import Tool, ToolContext
from coreai.world import CoreAiBindings

WorldAction = Literal["prefabs", "spawn", "move", "destroy", "list", "state"]
NEEDS: dict[str, tuple[str, ...]] = {
    "spawn": ("prefab", "x", "y"),
    "move": ("entity_id", "x", "y"),
    "destroy": ("entity_id",),
}
LIST_DEFAULT, LIST_MAX = 20, 500  # the queue's own cap (ListEntities.limit)

WORLD_COMMAND = """\
Act on the arena through the game's validated command queue (whitelisted prefabs, positions clamped to
the arena, spawn count capped per call, rate limited). Actions: prefabs (allowed prefab names and arena
bounds), spawn (prefab, x, y, optional count, elite), move (entity_id, x, y), destroy (entity_id), list
(nearest enemies first, up to limit), state (a compact snapshot). Unknown prefabs are refused with the
allowed list.
Example: {"action": "spawn", "prefab": "grunt", "x": 400, "y": 300, "count": 3}
"""


class WorldCommandArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    action: WorldAction = Field(description="What to do; see the tool description.")
    prefab: str | None = Field(default=None, max_length=64, description="spawn: a prefab name")
    x: float | None = Field(default=None, description="spawn/move: arena x (pixels, clamped to the arena)")
    y: float | None = Field(default=None, description="spawn/move: arena y (pixels, clamped to the arena)")
    count: int = Field(default=1, ge=1, le=100, description="spawn: how many (capped per command)")
    elite: bool = Field(default=False, description="spawn: elite variant")
    entity_id: int | None = Field(default=None, ge=0, description="move/destroy: the enemy id")
    limit: int = Field(default=LIST_DEFAULT, ge=1, le=LIST_MAX, description="list: at most this many")

    @model_validator(mode="after")
    def _required_per_action(self) -> WorldCommandArgs:
        missing = [name for name in NEEDS.get(self.action, ()) if getattr(self, name) is None]
        if missing:
            raise ValueError(f"world_command '{self.action}' needs {', '.join(missing)}")
        return self


class NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _command(args: WorldCommandArgs, ctx: ToolContext) -> MainLoopCommand:
    common: dict[str, Any] = {"agent": ctx.role, "trace_id": ctx.trace_id}
    if args.action == "spawn":
        fields = {"prefab": args.prefab, "x": args.x, "y": args.y, "count": args.count, "elite": args.elite}
        return Spawn.model_validate({**fields, **common})
    if args.action == "move":
        return Move.model_validate({"entity_id": args.entity_id, "x": args.x, "y": args.y, **common})
    if args.action == "destroy":
        return Destroy.model_validate({"entity_id": args.entity_id, **common})
    if args.action == "list":
        return ListEntities(limit=args.limit, **common)
    return GetState(**common)


def _prefab_info(bindings: CoreAiBindings) -> dict[str, Any]:
    world = bindings.world
    if world is None:
        raise CommandRejected("prefabs", "no world is registered with the AI core")
    return {"prefabs": list(world.prefab_names()), "arena_bounds": list(world.arena_bounds())}


def world_command_tool(bindings: CoreAiBindings) -> Tool:
    def invoke(args: WorldCommandArgs, ctx: ToolContext) -> Any:
        if args.action == "prefabs":
            fn = lambda: _prefab_info(bindings)  # noqa: E731
            return ctx.on_main(CallOnMain(fn=fn, label="prefabs", agent=ctx.role, trace_id=ctx.trace_id))
        result = ctx.on_main(_command(args, ctx))
        if args.action == "spawn":
            return {"spawned": result, "prefab": args.prefab, "capped": len(result) < args.count}
        if args.action == "move":
            return {"moved": bool(result)}
        if args.action == "destroy":
            return {"destroyed": bool(result)}
        if args.action == "list":
            return {"entities": result}
        return result

    return Tool(
        name="world_command",
        description=WORLD_COMMAND,
        args_model=WorldCommandArgs,
        invoke=invoke,
        mutating=True,
    )


def game_state_tool() -> Tool:
    def invoke(args: NoArgs, ctx: ToolContext) -> Any:
        return ctx.on_main(GetState(agent=ctx.role, trace_id=ctx.trace_id))

    return Tool(
        name="get_game_state",
        description="A compact snapshot of the game right now: player, enemies, wave, recent events.",
        args_model=NoArgs,
        invoke=invoke,
        mutating=False,
    )
