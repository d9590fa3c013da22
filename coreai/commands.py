"""Typed, validated main-loop commands: what an agent (or MCP, or Lua) may ask the game's main thread to do.

Each command is a frozen pydantic model; construction validates shape (finite coordinates, positive counts,
bounded limits). Whitelist and arena checks need the live world and happen on the main thread when the queue
drains (``coreai.mainloop``). ``agent`` names the producer for rate limiting; ``trace_id`` ties the command
to the task that posted it in every log line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field


class MainLoopCommand(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    kind: ClassVar[str] = "command"
    # Mutating commands change the world and count against the producer's rate limit.
    mutating: ClassVar[bool] = False

    agent: str | None = Field(
        default=None, max_length=64, description="Producer name; None = not rate limited."
    )
    trace_id: str | None = Field(default=None, max_length=64)

    def cost(self) -> int:
        """Rate-limit tokens this command spends."""
        return 1 if self.mutating else 0


class Spawn(MainLoopCommand):
    kind: ClassVar[str] = "spawn"
    mutating: ClassVar[bool] = True

    prefab: str = Field(min_length=1, max_length=64)
    x: float
    y: float
    count: int = Field(
        default=1, ge=1, le=100, description="Capped further by the queue's per-command spawn cap."
    )
    elite: bool = False

    def cost(self) -> int:
        return self.count


class Move(MainLoopCommand):
    kind: ClassVar[str] = "move"
    mutating: ClassVar[bool] = True

    entity_id: int = Field(ge=0)
    x: float
    y: float


class Destroy(MainLoopCommand):
    kind: ClassVar[str] = "destroy"
    mutating: ClassVar[bool] = True

    entity_id: int = Field(ge=0)


class ListEntities(MainLoopCommand):
    kind: ClassVar[str] = "list"

    limit: int = Field(default=50, ge=1, le=500)


class GetState(MainLoopCommand):
    kind: ClassVar[str] = "get_state"


class CallOnMain(MainLoopCommand):
    """Run an arbitrary callable on the main thread (screenshots, MCP tools that touch the engine)."""

    kind: ClassVar[str] = "call"

    fn: Callable[[], Any]
    label: str = Field(default="call", max_length=64)


Command = Spawn | Move | Destroy | ListEntities | GetState | CallOnMain
