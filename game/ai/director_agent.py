"""The director's LLM path: a ``PlanSource`` that asks the Creator role through the coreai orchestrator.

Each request becomes an ``AiTaskRequest`` with cancellation scope ``director`` (latest wins: a newer
request cancels the older running one), the situation as the request instructions, and only the
``set_director_plan`` tool, forced (a grammar on local models) and terminal (no summary turn after it).
The tool checks the plan's shape so the model can correct itself within its round trips, and captures what
it proposed; the director validates, clamps and applies the captured plan on the main thread, counting a
rejection and keeping the previous plan. The model never touches the game directly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Collection
from concurrent.futures import Future
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from coreai.errors import CoreAIError
from coreai.paths import shipped
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.tools.base import Tool, ToolContext
from game.director.knobs import tool_summary
from game.director.plan import TOOL_NAME, DirectorPlan, plan_json_schema
from game.director.source import PlanReply, PlanRequest

SCOPE = "director"


def _brief() -> str:
    try:
        return shipped("prompts", "skills", "director.md").read_text(encoding="utf-8")
    except OSError:
        return ""


class PlanCapture:
    """Plans the tool received, per trace id (worker threads write, the reply future reads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._plans: dict[str, dict[str, Any]] = {}

    def put(self, trace_id: str, plan: dict[str, Any]) -> None:
        with self._lock:
            self._plans[trace_id] = plan

    def pop(self, trace_id: str) -> dict[str, Any] | None:
        with self._lock:
            return self._plans.pop(trace_id, None)


def install_director_tools(
    runtime: CoreAiRuntime, prefabs: Collection[str], events: Collection[str], capture: PlanCapture
) -> None:
    """Give the Creator role the plan tool, and the director brief as its stable (cached) builder prompt."""
    runtime.orchestrator.add_tool(plan_tool(prefabs, events, capture), roles=("Creator",))
    runtime.orchestrator.set_extra_prompt("Creator", _brief())


def plan_tool(prefabs: Collection[str], events: Collection[str], capture: PlanCapture) -> Tool:
    schema = plan_json_schema(prefabs, events)

    class PlanArgs(BaseModel):
        """Lenient on purpose: a plan the director would reject still reaches it, to be counted."""

        model_config = ConfigDict(extra="allow")

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return json.loads(json.dumps(schema))

    def invoke(args: BaseModel, ctx: ToolContext) -> dict[str, Any]:
        plan = dict(args.model_extra or {})
        capture.put(ctx.trace_id, plan)
        try:
            DirectorPlan.model_validate(plan)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "plan"
            raise ValueError(f"plan rejected: {where}: {first['msg']}") from None
        return {"received": True, "note": "the director validates and applies it on the next tick"}

    return Tool(
        name=TOOL_NAME,
        description=(
            "Submit your decision for the next ~10 seconds of play. "
            "pressure: ease_off | hold | raise | spike. "
            f"Optional: {tool_summary()}, event, "
            "note (a line for your memory). Always give a one-line reason and a short announcer line."
        ),
        args_model=PlanArgs,
        invoke=invoke,
        mutating=True,
        terminal=True,
    )


class AgentPlanSource:
    """A director mode backed by one LLM backend (``local``, ``openai`` or the scripted ``stub``)."""

    def __init__(self, runtime: CoreAiRuntime, backend: str, capture: PlanCapture) -> None:
        self.runtime = runtime
        self.backend = backend
        self.name = backend
        self.capture = capture

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        future: Future[PlanReply] = Future()
        started = time.perf_counter()
        try:
            handle = self.runtime.submit(
                AiTaskRequest(
                    role="Creator",
                    hint="Decide the next director plan and submit it with set_director_plan.",
                    priority=5,
                    cancellation_scope=SCOPE,
                    trace_id=req.trace_id,
                    allowed_tools=[TOOL_NAME],
                    force_tool=TOOL_NAME,
                    backend=self.backend,  # this request only: the player's Creator route stays
                    instructions="Situation (JSON):\n" + req.situation.model_dump_json(),
                )
            )
        except CoreAIError as exc:
            future.set_exception(exc)
            return future

        def done(h: Any) -> None:
            if future.cancelled():
                return
            try:
                result = h.result(0)
            except BaseException as exc:  # cancelled or failed: the director counts it, keeps its plan
                proposed = self.capture.pop(req.trace_id)
                if proposed is not None and not h.cancel_event.is_set():
                    # the model kept proposing a plan the tool refused: let the director judge (and count)
                    # the last one as a rejection rather than a backend failure
                    latency = time.perf_counter() - started
                    future.set_result(
                        PlanReply(json.dumps(proposed), proposed, self.backend, latency, req.trace_id)
                    )
                else:
                    future.set_exception(exc)
                return
            plan = self.capture.pop(req.trace_id)
            raw = json.dumps(plan) if plan is not None else result.content
            future.set_result(
                PlanReply(raw, plan, result.backend, time.perf_counter() - started, req.trace_id)
            )

        handle.add_done_callback(done)
        original_cancel = future.cancel

        def cancel() -> bool:
            handle.cancel()
            return original_cancel()

        future.cancel = cancel  # type: ignore[method-assign]
        return future
