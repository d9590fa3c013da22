"""A reply's way from a plan source to the director's commands, and the record it leaves.

``collect`` reads a finished future: the reply, a timeout (the source missed its time: superseded, like a
late reply) or an error. ``vet_reply`` parses and validates a reply (``validate.py``) and, for a model's
plan, applies the guard (``guard.py``): a plan that breaks a hard safety rule is replaced by the ``rules``
plan for the same situation, validated the same way. ``decision_record`` builds the trajectory line for any
outcome (accepted, guarded, rejected, failed). The director (``director.py``) calls them on the main thread.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from coreai.errors import LlmError, LlmErrorCode
from game.director import guard
from game.director.guard import GuardVerdict
from game.director.plan import DirectorKnobs
from game.director.source import PlanReply, PlanRequest, ReplyFuture
from game.director.trajectory import DecisionRecord, DecisionStatus
from game.director.tuning import TUNING, Tuning
from game.director.validate import ValidatedPlan, parse_reply, validate_plan

RULES_BACKEND = "rules"  # the rules source is its own guard


@dataclass
class Pending:
    """The request in flight."""

    req: PlanRequest
    future: ReplyFuture
    source: str
    asked_at: float  # game time


@dataclass(frozen=True)
class Outcome:
    reply: PlanReply | None
    timed_out: str = ""  # the timeout message (no reply)
    error: str = ""  # why there is no reply (not a timeout)


def collect(future: ReplyFuture) -> Outcome:
    """The outcome of a future that is done."""
    try:
        reply = future.result(timeout=0)
    except LlmError as exc:
        if exc.code is LlmErrorCode.TIMEOUT:
            return Outcome(None, timed_out=str(exc))
        return Outcome(None, error=f"{type(exc).__name__}: {exc}")
    except Exception as exc:
        return Outcome(None, error=f"{type(exc).__name__}: {exc}")
    if not isinstance(reply, PlanReply):
        return Outcome(None, error=f"source returned {type(reply).__name__}, not PlanReply")
    return Outcome(reply)


def vet_reply(
    req: PlanRequest,
    reply: PlanReply,
    knobs: DirectorKnobs,
    *,
    prefabs: Collection[str],
    events: Collection[str],
    event_not_ready: Callable[[str], str | None],
    tuning: Tuning = TUNING,
) -> tuple[ValidatedPlan, GuardVerdict | None]:
    """The validated plan to apply and the guard's verdict (None: the plan stands). Raises
    ``ToolArgumentError`` for a reply that does not parse or validate."""
    trace = req.trace_id

    def validated(data: object) -> ValidatedPlan:
        return validate_plan(
            data, knobs, prefabs=prefabs, events=events, event_not_ready=event_not_ready, trace_id=trace
        )

    vp = validated(parse_reply(reply.raw, reply.plan, trace_id=trace))
    verdict = None if reply.backend == RULES_BACKEND else guard.check(req.situation, vp.plan, tuning)
    if verdict is not None:  # a model's plan broke a hard safety rule: the rules plan runs instead
        vp = validated(guard.override(req.situation, verdict, tuning))
    return vp, verdict


def decision_record(
    req: PlanRequest,
    reply: PlanReply,
    status: DecisionStatus,
    *,
    applied_tick: int,
    vp: ValidatedPlan | None = None,
    error: str = "",
    guarded: dict[str, str] | None = None,
) -> DecisionRecord:
    s = req.situation
    return DecisionRecord(
        seq=req.seq,
        trace_id=req.trace_id,
        backend=reply.backend,
        status=status,
        request_tick=req.tick,
        applied_tick=applied_tick,
        prompt_hash=s.prompt_hash(),
        snapshot=s.snapshot,
        intensity=s.intensity,
        pacing=s.pacing.value,
        raw=reply.raw,
        reply_plan=reply.plan,
        plan=vp.plan.model_dump() if vp else None,
        clamped=list(vp.clamped) if vp else [],
        commands=list(vp.commands) if vp else [],
        error=error,
        latency_s=round(reply.latency_s, 6),
        guard=guarded,
    )
