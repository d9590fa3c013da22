"""What the director records of a run (``trajectory``): one ``DecisionRecord`` per plan that came back
(accepted, guarded, rejected or failed) and each mode switch, into a ``TrajectorySink``: the JSONL file or
memory (both in ``game/headless_runs/trajectory_file.py``, which also reads the file back).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from game.director.telemetry import GameSessionSnapshot

MAX_REPLAY_SECONDS = 6 * 3600.0  # a replay re-simulates the whole run: bounded so a header cannot run forever
MAX_TICK = int(MAX_REPLAY_SECONDS * 60) + 1
DecisionStatus = Literal["accepted", "guarded", "rejected", "failed"]  # guarded: overridden by the guard


class DecisionRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["decision"] = "decision"
    seq: int = Field(ge=0, le=MAX_TICK)
    trace_id: str
    backend: str
    status: DecisionStatus
    request_tick: int = Field(ge=0, le=MAX_TICK)
    applied_tick: int = Field(ge=0, le=MAX_TICK)
    prompt_hash: str
    snapshot: GameSessionSnapshot
    intensity: float
    pacing: str
    raw: str = ""
    reply_plan: dict[str, Any] | None = None  # the plan dict the source parsed, if it did
    plan: dict[str, Any] | None = None  # the validated plan (None when rejected or failed)
    clamped: list[str] = Field(default_factory=list)
    commands: list[dict[str, Any]] = Field(default_factory=list)
    error: str = ""
    latency_s: float = 0.0
    guard: dict[str, str] | None = None  # status "guarded": the rule, why, and what the model asked for
    spawns: dict[str, int] = Field(default_factory=dict)  # enemies spawned since the last decision, by cause


class TrajectorySink(Protocol):
    """Where the director records decisions and mode switches (a file, or memory for replay checks)."""

    def decision(self, record: DecisionRecord) -> None: ...

    def mode(self, tick: int, mode: str) -> None: ...
