"""The LLM contract every backend implements: request/result/chunk messages and the client Protocol.

Visible content and reasoning are separate channels: ``LlmResult.content`` is what the model says,
``LlmResult.reasoning`` is what it thought (``<think>`` spans, ``reasoning_content``). Only ``content`` and
``tool_calls`` may reach memory, commands or chat history; reasoning is for logs and debug panels.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for. ``arguments`` is the raw JSON text the model produced."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # for role == "tool": the call this message answers
    name: str | None = None  # for role == "tool": the tool's name


@dataclass(frozen=True)
class ToolSpec:
    """What the model is told about a tool: name, description and JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class LlmRequest:
    messages: tuple[ChatMessage, ...]
    role: str = "Chat"
    trace_id: str = ""
    # A backend name for this request only (the role's route otherwise); nothing shared is rewritten.
    backend: str | None = None
    tools: tuple[ToolSpec, ...] = ()
    # "auto" lets the model choose, "none" disables tools, any other string forces that tool by name.
    tool_choice: str = "auto"
    # A JSON schema the reply must follow (json_object mode); None for free text.
    response_schema: dict[str, Any] | None = None
    max_tokens: int = 256
    temperature: float = 0.2
    # Sampling for small models (None: the backend's default). A penalty above 1 makes repeats less likely.
    repeat_penalty: float | None = None
    top_k: int | None = None
    timeout_s: float | None = None
    # Set by the caller to stop generation (checked between tokens / chunks).
    cancel: threading.Event = field(default_factory=threading.Event, compare=False)


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0


@dataclass(frozen=True)
class LlmResult:
    content: str
    reasoning: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str = "stop"
    usage: Usage = Usage()
    backend: str = "?"
    model: str = ""
    latency_s: float = 0.0


@dataclass(frozen=True)
class LlmChunk:
    """A streamed piece: a content delta, a reasoning delta, or a completed tool call."""

    content: str = ""
    reasoning: str = ""
    tool_call: ToolCall | None = None
    finish_reason: str | None = None


@runtime_checkable
class LlmClient(Protocol):
    """A backend. ``complete`` raises ``coreai.errors.LlmError`` with a stable code on any failure."""

    name: str

    def complete(self, request: LlmRequest) -> LlmResult: ...

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]: ...
