"""What a tool is: a name, a description, a pydantic argument model (its JSON schema) and an invoke function.

One ``Tool`` object serves both the in-game agents (the tool loop) and MCP clients (``coreai.mcp.tools``
adapts the same object; its argument model is the MCP input schema). ``invoke(args, ctx)`` receives the
validated argument model and a ``ToolContext`` (trace id, role, cancel event, and ``main``: the way to the
game's main thread) and returns JSON-able data (or ``ImageResult``), or raises; the tool policy turns any
failure into an error message for the model, MCP into a tool error. Anything that touches the game goes
through ``ctx.on_main(command)``: agents reach the ``MainLoopQueue`` directly, MCP through its bridge.
``mutating`` tools change game or agent state and are run one at a time within a turn.
``canonical_contract`` renders tools in the byte-stable order the prompt prefix uses (sorted by name,
schema JSON with sorted keys).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

from coreai.errors import CoreAIError
from coreai.llm.types import ToolSpec

if TYPE_CHECKING:
    from coreai.commands import MainLoopCommand


class MainThread(Protocol):
    """Runs a command on the game's main thread and returns its answer (``MainLoopQueue`` is one)."""

    def call(self, command: MainLoopCommand, timeout: float | None = None) -> Any: ...


@dataclass(frozen=True)
class ToolContext:
    trace_id: str
    role: str
    cancel: threading.Event = field(default_factory=threading.Event, compare=False)
    main: MainThread | None = field(default=None, compare=False)

    def on_main(self, command: MainLoopCommand, timeout: float | None = None) -> Any:
        """The command's answer from the main thread (raises what it raised there)."""
        if self.main is None:
            raise CoreAIError(f"no main thread to run '{command.kind}' on", trace_id=self.trace_id)
        return self.main.call(command, timeout)


@dataclass(frozen=True)
class ImageResult:
    """A tool result that is a picture (MCP sends it as an image; agents get a short text note)."""

    png: bytes
    size: tuple[int, int]

    def __str__(self) -> str:
        return f"(PNG image {self.size[0]}x{self.size[1]})"


@dataclass(frozen=True)
class LinkResult:
    """A tool result that points at a resource instead of carrying it (MCP sends a resource link)."""

    uri: str
    name: str
    mime_type: str
    size_bytes: int
    note: str = ""

    def __str__(self) -> str:
        return f"({self.mime_type}, {self.size_bytes} bytes, at {self.uri}) {self.note}".strip()


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    args_model: type[BaseModel]
    invoke: Callable[[Any, ToolContext], Any]
    mutating: bool = False
    # A successful call of a terminal tool is the task's answer: the loop ends there, without another
    # model turn (the director's set_director_plan: nothing the model says afterwards is used).
    terminal: bool = False
    # What invoke returns, for MCP's output schema: a JSON object, plain text, or an ImageResult.
    returns: Literal["object", "text", "image"] = "object"

    @cached_property
    def _schema_text(self) -> str:
        # Generating a pydantic JSON schema costs about a millisecond; a tool's schema never changes.
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def schema(self) -> dict[str, Any]:
        """The argument model's JSON schema (a fresh copy each call)."""
        parsed: dict[str, Any] = json.loads(self._schema_text)
        return parsed

    def spec(self) -> ToolSpec:
        return ToolSpec(name=self.name, description=self.description, parameters=self.schema())

    def contract_text(self) -> str:
        """This tool as the prompt prefix shows it; identical bytes for identical tools."""
        return f"### {self.name}\n{self.description.strip()}\nArguments (JSON schema): {self._schema_text}"


@dataclass(frozen=True)
class ToolOutcome:
    """One executed (or refused) tool call, as reported back to the model and kept in the result."""

    call_id: str
    tool: str
    arguments: str  # sanitised
    ok: bool
    content: str  # the tool message the model receives
    result: Any = None
    error: str = ""
    duration_s: float = 0.0


def canonical_order(tools: Iterable[Tool]) -> list[Tool]:
    return sorted(tools, key=lambda t: t.name)


def canonical_contract(tools: Iterable[Tool]) -> str:
    return "\n\n".join(t.contract_text() for t in canonical_order(tools))
