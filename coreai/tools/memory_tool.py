"""The built-in ``memory`` tool: an agent keeps its own notes across tasks (write / append / clear)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from coreai.errors import ToolArgumentError
from coreai.llm.reasoning import split_reasoning
from coreai.memory import MemoryStore
from coreai.tools.base import Tool, ToolContext


class MemoryArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Literal["write", "append", "clear"] = Field(
        description="write = replace all notes, append = add a line, clear = forget everything"
    )
    content: str = Field(default="", max_length=4000, description="The note text (for write and append).")


def memory_tool(store: MemoryStore) -> Tool:
    def invoke(args: MemoryArgs, ctx: ToolContext) -> dict[str, Any]:
        text, _ = split_reasoning(args.content)  # a stray <think> span never becomes a memory
        if args.action == "clear":
            store.clear(ctx.role)
            return {"memory_chars": 0}
        if not text:
            raise ToolArgumentError(
                "memory", f"'{args.action}' needs non-empty content", trace_id=ctx.trace_id
            )
        saved = store.write(ctx.role, text) if args.action == "write" else store.append(ctx.role, text)
        return {"memory_chars": len(saved)}

    return Tool(
        name="memory",
        description=(
            "Your persistent notes, shown to you at the start of every task under '## Memory'. "
            "Keep them short: facts about the player and what worked."
        ),
        args_model=MemoryArgs,
        invoke=invoke,
        mutating=True,
    )
