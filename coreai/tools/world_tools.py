"""Built-in world tools: ``world_command`` (spawn / move / destroy / list) and ``get_game_state``.

Both go through the main-loop queue (``coreai.mainloop``): the agent's worker thread posts a typed command
and waits for the game's main thread to apply it. Whitelist, clamping, caps and rate limits are the queue's;
their refusals come back to the model as tool errors naming the reason (e.g. the allowed prefabs).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from coreai.commands import Destroy, GetState, ListEntities, MainLoopCommand, Move, Spawn
from coreai.mainloop import MainLoopQueue
from coreai.tools.base import Tool, ToolContext


class WorldCommandArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    action: Literal["spawn", "move", "destroy", "list"]
    prefab: str | None = Field(
        default=None, max_length=64, description="spawn: a prefab name from the whitelist"
    )
    x: float | None = Field(default=None, description="spawn/move: arena x (clamped to the arena)")
    y: float | None = Field(default=None, description="spawn/move: arena y (clamped to the arena)")
    count: int = Field(default=1, ge=1, le=100, description="spawn: how many (capped per command)")
    elite: bool = Field(default=False, description="spawn: elite variant")
    entity_id: int | None = Field(default=None, ge=0, description="move/destroy: the entity")
    limit: int = Field(default=20, ge=1, le=200, description="list: at most this many entities")

    @model_validator(mode="after")
    def _required_per_action(self) -> WorldCommandArgs:
        need = {"spawn": ("prefab", "x", "y"), "move": ("entity_id", "x", "y"), "destroy": ("entity_id",)}
        missing = [name for name in need.get(self.action, ()) if getattr(self, name) is None]
        if missing:
            raise ValueError(f"'{self.action}' needs {', '.join(missing)}")
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
    return ListEntities(limit=args.limit, **common)


def world_command_tool(queue: MainLoopQueue, timeout_s: float | None = None) -> Tool:
    def invoke(args: WorldCommandArgs, ctx: ToolContext) -> Any:
        result = queue.call(_command(args, ctx), timeout_s)
        if args.action == "spawn":
            return {"spawned": result, "prefab": args.prefab, "capped": len(result) < args.count}
        if args.action in ("move", "destroy"):
            return {"entity_id": args.entity_id, "done": bool(result)}
        return {"entities": result}

    return Tool(
        name="world_command",
        description=(
            "Act on the arena. spawn: create enemies (prefab, x, y, count, elite); "
            "move: reposition an entity (entity_id, x, y); destroy: remove an entity (entity_id); "
            "list: current entities. "
            "Unknown prefabs are refused with the list of allowed ones."
        ),
        args_model=WorldCommandArgs,
        invoke=invoke,
        mutating=True,
    )


def game_state_tool(queue: MainLoopQueue, timeout_s: float | None = None) -> Tool:
    def invoke(args: NoArgs, ctx: ToolContext) -> Any:
        return queue.call(GetState(agent=ctx.role, trace_id=ctx.trace_id), timeout_s)

    return Tool(
        name="get_game_state",
        description="A compact snapshot of the game right now: player, enemies, wave, recent events.",
        args_model=NoArgs,
        invoke=invoke,
        mutating=False,
    )
