"""The plan pipeline: parse a source's reply, validate it against ``DirectorPlan`` and the live whitelists,
clamp it to the maximum change per plan, and turn it into the JSON-able commands the director applies.
``vet_reply`` is the whole way of a reply: parse, validate and, for a model's plan, the guard (``guard.py``):
a plan that breaks a hard safety rule is replaced by the ``rules`` plan for the same situation, validated
the same way.

Every rejection raises ``ToolArgumentError`` (tool ``set_director_plan``) with a message a model can act on:
malformed JSON, wrong types, values outside the hard bounds, an unknown prefab or event. Clamping never
rejects; it is listed in ``ValidatedPlan.clamped``. The same function serves the rules policy, the LLM
sources, the decision suite and replay, so all of them go through the same checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from coreai.errors import ToolArgumentError
from coreai.persist import loads_json
from game.director import guard
from game.director.guard import GuardVerdict
from game.director.knobs import MIX_WEIGHT, PLAN_KNOBS
from game.director.plan import PRESSURE_RANGE, TOOL_NAME, DirectorKnobs, DirectorPlan
from game.director.source import PlanReply, PlanRequest
from game.director.tuning import TUNING, Tuning

MAX_RAW_CHARS = 4000
RULES_BACKEND = "rules"  # the rules source is its own guard


@dataclass(frozen=True)
class ValidatedPlan:
    plan: DirectorPlan  # what the source asked for (valid, before clamping)
    knobs: DirectorKnobs  # the knobs after this plan, clamped
    event: str | None  # the event that fires (None: none asked, or dropped as not ready)
    clamped: tuple[str, ...]  # what was clamped or dropped, and why
    commands: tuple[dict[str, Any], ...]  # what the director applies, in order (recorded in trajectories)


def reject(message: str, trace_id: str | None = None) -> ToolArgumentError:
    return ToolArgumentError(TOOL_NAME, message, trace_id=trace_id)


def parse_reply(raw: str, plan: dict[str, Any] | None, *, trace_id: str | None = None) -> dict[str, Any]:
    """The plan arguments of a reply: ``plan`` when the source parsed it, else ``raw`` read as JSON."""
    data: Any = plan
    if plan is None:
        text = (raw or "").strip()
        if not text:
            raise reject("empty reply: no plan", trace_id)
        if len(text) > MAX_RAW_CHARS:
            raise reject(f"reply is {len(text)} chars; at most {MAX_RAW_CHARS}", trace_id)
        try:
            data = loads_json(text)
        except json.JSONDecodeError as exc:
            raise reject(f"reply is not JSON ({exc.msg} at char {exc.pos})", trace_id) from None
    return _object(data, trace_id)


def _object(data: Any, trace_id: str | None) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise reject(f"plan must be a JSON object, got {type(data).__name__}", trace_id)
    return data


def _errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:4]:
        where = ".".join(str(p) for p in err["loc"]) or "plan"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def _step(name: str, current: float, wanted: float, max_step: float, clamped: list[str]) -> float:
    lo, hi = current - max_step, current + max_step
    value = min(hi, max(lo, wanted))
    if value != wanted:
        clamped.append(f"{name} {wanted:g} -> {value:g} (max change {max_step:g} per plan)")
    return round(value, 4)


def validate_plan(
    data: Any,
    current: DirectorKnobs,
    *,
    prefabs: Collection[str],
    events: Collection[str],
    event_not_ready: Callable[[str], str | None] | None = None,
    trace_id: str | None = None,
) -> ValidatedPlan:
    """Validate and clamp ``data`` (a dict) against ``current`` knobs; raises ``ToolArgumentError``."""
    try:
        plan = DirectorPlan.model_validate(_object(data, trace_id))
    except ValidationError as exc:
        raise reject(_errors(exc), trace_id) from None
    unknown = sorted(set(plan.mix) - set(prefabs))
    if unknown:
        raise reject(f"unknown prefab(s) {unknown} in mix; allowed: {', '.join(prefabs)}", trace_id)
    if plan.event is not None and plan.event not in events:
        raise reject(f"unknown event '{plan.event}'; allowed: {', '.join(events) or 'none'}", trace_id)

    clamped: list[str] = []
    lo, hi = PRESSURE_RANGE
    wanted_pressure = current.pressure * TUNING.decide.pressure_factor[plan.pressure]
    pressure = round(min(hi, max(lo, wanted_pressure)), 4)
    if abs(pressure - round(wanted_pressure, 4)) > 1e-9:  # a clamp, not the rounding to 4 places
        clamped.append(f"pressure {wanted_pressure:.3g} -> {pressure:g} (knob range {lo:g}..{hi:g})")
    mix = dict(current.mix)
    for name, weight in plan.mix.items():
        step = MIX_WEIGHT.max_step or 0.0
        value = _step(f"mix.{name}", current.mix.get(name, MIX_WEIGHT.default), weight, step, clamped)
        mix[name] = MIX_WEIGHT.clamp(value)
    values: dict[str, float] = {}
    for k in PLAN_KNOBS:  # every knob a plan sets by value: step-clamped, then kept in its range
        now, wanted, step = getattr(current, k.name), getattr(plan, k.name), k.max_step or 0.0
        values[k.name] = now if wanted is None else k.clamp(_step(k.name, now, wanted, step, clamped))
    knobs = DirectorKnobs(pressure=pressure, mix=mix, **values)

    commands: list[dict[str, Any]] = [{"op": "set_knobs", **knobs.model_dump()}]
    if plan.pressure == "spike":
        commands.append({"op": "burst", "credits": TUNING.decide.spike_credits})
    event = plan.event
    if event is not None and event_not_ready is not None and (why := event_not_ready(event)) is not None:
        clamped.append(f"event dropped: {why}")
        event = None
    if event is not None:
        commands.append({"op": "event", "name": event})
    if plan.note:
        commands.append({"op": "note", "text": plan.note})
    if plan.announcer:
        commands.append({"op": "announce", "text": plan.announcer})
    return ValidatedPlan(plan, knobs, event, tuple(clamped), tuple(commands))


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
