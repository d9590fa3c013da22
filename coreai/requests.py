"""What the game asks an agent to do (``AiTaskRequest``) and what it gets back (``AgentResult``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from coreai.llm.types import Usage
from coreai.settings import ROLE_PATTERN
from coreai.tools.base import ToolOutcome


def new_trace_id() -> str:
    return uuid.uuid4().hex[:12]


class Decoding(BaseModel):
    """A request's own sampling settings (a role's config otherwise): what suits a small model's talk."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    temperature: float = Field(default=0.2, ge=0.0, le=2.0)
    max_tokens: int = Field(default=80, ge=1, le=4096)
    repeat_penalty: float | None = Field(default=None, ge=1.0, le=2.0)
    top_k: int | None = Field(default=None, ge=1, le=1000)


class AiTaskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    role: str = Field(pattern=ROLE_PATTERN, description="Creator, Programmer, Analyzer, Merchant, Chat, ...")
    hint: str = Field(default="", max_length=20_000, description="The user message: what to do now.")
    priority: int = Field(default=0, ge=-1000, le=1000, description="Higher runs first; FIFO among equals.")
    cancellation_scope: str | None = Field(
        default=None,
        max_length=128,
        description="A new task cancels older running and pending ones of its scope.",
    )
    trace_id: str | None = Field(default=None, max_length=64)
    allowed_tools: list[str] | None = Field(default=None, description="Limit this request to these tools.")
    instructions: str | None = Field(
        default=None, max_length=20_000, description="Request-only instructions."
    )
    system: str | None = Field(
        default=None,
        max_length=8_000,
        description="A grounded one-shot: this system prompt replaces the role's prompt, tools, memory, "
        "history and world state; the model sees only it and the hint, and the turn is not stored.",
    )
    decoding: Decoding | None = Field(default=None, description="Sampling for this request's model calls.")
    force_tool: str | None = Field(
        default=None,
        max_length=64,
        description="Make the model call this (allowed) tool: a grammar forces it on local models. A "
        "non-terminal forced tool is forced once; the model then answers from its result with tools off.",
    )
    stream: bool = Field(
        default=False,
        description="Stream the visible reply: each piece is published as a TextDelta event on the bus.",
    )
    backend: str | None = Field(
        default=None,
        max_length=64,
        description="Send this request's model calls to this registered backend instead of the role's route.",
    )
    timeout_s: float | None = Field(
        default=None,
        gt=0,
        le=600,
        description="How long each model call of this request may take (default: the [llm] timeout_s).",
    )


@dataclass(frozen=True)
class AgentResult:
    trace_id: str
    role: str
    content: str  # visible text only; reasoning never gets here
    stop_reason: str  # answered / roundtrip_cap / tool_errors
    tool_calls: tuple[ToolOutcome, ...]
    backend: str
    rounds: int
    usage: Usage
    duration_s: float
