"""The contract between the director and whatever proposes plans (the rules policy, an LLM through the coreai
orchestrator, a replayed trajectory).

The director builds a ``PlanRequest`` (the pre-digested situation: snapshot, intensity, pacing, knobs, its
memory, the allowed prefabs and events) and calls ``source.request(req)``, which must return at once with a
future (``concurrent.futures.Future`` or anything with ``done()/result()/cancel()``) that later holds a
``PlanReply``. The director polls it on the main thread each tick; only the latest request counts.

Adding a source is one class::

    class MySource:
        name = "mine"
        def request(self, req: PlanRequest) -> Future[PlanReply]:
            ...  # submit work elsewhere, return its future

    director.register_source(MySource())
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.telemetry import NEVER, GameSessionSnapshot


class DirectorSituation(BaseModel):
    """What a plan source sees: the request payload (its hash is the trajectory's prompt hash)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    snapshot: GameSessionSnapshot
    intensity: float = Field(ge=0, le=1)
    pacing: PacingState
    pacing_s: float = Field(0.0, ge=0, description="seconds spent in the current pacing state")
    since_spike_s: float = Field(
        NEVER, ge=0, description=f"seconds since the last spike plan ({NEVER:g} = none)"
    )
    since_peak_s: float = Field(
        0.0, ge=0, description="seconds since the last Sustain Peak began (or since the run began)"
    )
    knobs: DirectorKnobs = Field(default_factory=DirectorKnobs)
    memory: list[str] = Field(default_factory=list, max_length=16)
    prefabs: list[str] = Field(default_factory=list, description="prefabs the mix may name")
    events: list[str] = Field(
        default_factory=list, description="named events the plan may trigger now (none on cooldown)"
    )

    def prompt_hash(self) -> str:
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


class PlanRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int = Field(ge=1, description="1, 2, 3... per director; a newer seq supersedes an older one")
    trace_id: str = Field(max_length=64)
    tick: int = Field(ge=0)
    situation: DirectorSituation


@dataclass(frozen=True)
class PlanReply:
    raw: str  # the text the backend produced (for rules: the plan as JSON)
    plan: dict[str, Any] | None  # the parsed tool arguments, or None (then ``raw`` is parsed as JSON)
    backend: str
    latency_s: float
    trace_id: str


class ReplyFuture(Protocol):
    def done(self) -> bool: ...

    def result(self, timeout: float | None = None) -> Any: ...

    def cancel(self) -> bool: ...


class PlanSource(Protocol):
    name: str

    def request(self, req: PlanRequest) -> ReplyFuture:
        """Start working on ``req`` and return without blocking the game tick."""
        ...
