"""The director's LLM path: a ``PlanSource`` that asks the ``Director`` role through the coreai orchestrator.

Each request becomes an ``AiTaskRequest`` with cancellation scope ``director`` (latest wins: a newer
request cancels the older running one), the situation as the request instructions, and only the
``set_director_plan`` tool, forced (a grammar on local models) and terminal (no summary turn after it).
The ``Director`` role exists for this request alone: its byte-stable prefix (the director brief and the one
tool's contract) is what the local model keeps evaluated between decisions, and it carries no world-state
dump and no chat history: the situation (``game.ai.director_prompt``) is all it sees, fitted to the model's
window. The tool captures what the model proposed; the director validates, clamps, guards and applies the
captured plan on the main thread, counting a rejection and keeping the previous plan. The model never
touches the game directly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import Future
from typing import Any

from loguru import logger
from pydantic import BaseModel, ConfigDict

from coreai.commands import CallOnMain
from coreai.errors import CoreAIError
from coreai.llm.local_prompt import prepare_prompt
from coreai.llm.types import LlmRequest
from coreai.requests import AiTaskRequest
from coreai.roles import RoleConfig
from coreai.runtime import CoreAiRuntime
from coreai.tools.base import Tool, ToolContext, canonical_order
from game.ai.director_prompt import (
    FittedRequest,
    fit_situation,
    is_small,
    offered_events,
    tool_schema,
    tool_summary,
)
from game.director.plan import TOOL_NAME
from game.director.source import PlanReply, PlanRequest

SCOPE = "director"
ROLE = "Director"
HINT = "Decide the next director plan and submit it with set_director_plan."  # large-window models only
MAX_TOKENS = 200  # a plan of the longest texts the grammar allows fits (tests/llm/test_director_fit.py)
MIN_DEADLINE_S = 6.0  # a decision may always take this long before it is superseded
MAX_DEADLINE_S = 25.0  # ...and never longer (the director asks again every 10 s) ...
COLD_DEADLINE_S = 60.0  # ... once measured: a first decision also pays the cold prompt prefix (8-30 s loaded)
DEADLINE_FACTOR = 2.5  # the deadline is this many times the source's typical latency

_log = logger.bind(feature="director")


class PlanCapture:
    """Plans the tool received, per trace id (worker threads write, the reply future reads). A trace id is
    expected while the director waits for it; a call outside the director's own requests is not captured."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._plans: dict[str, dict[str, Any]] = {}
        self._expected: set[str] = set()

    def expect(self, trace_id: str) -> None:
        with self._lock:
            self._expected.add(trace_id)

    def expects(self, trace_id: str) -> bool:
        with self._lock:
            return trace_id in self._expected

    def put(self, trace_id: str, plan: dict[str, Any]) -> None:
        with self._lock:
            self._plans[trace_id] = plan

    def pop(self, trace_id: str) -> dict[str, Any] | None:
        with self._lock:
            self._expected.discard(trace_id)
            return self._plans.pop(trace_id, None)


ApplyPlan = Callable[[dict[str, Any]], dict[str, Any]]
"""Apply a plan to the running director at once (main thread): the path of a plan that is not an answer to
the director's own request (an MCP client, a chat). Raises ``CommandRejected``."""


def install_director_tools(
    runtime: CoreAiRuntime,
    prefabs: Collection[str],
    events: Collection[str],
    capture: PlanCapture,
    apply: ApplyPlan | None = None,
) -> None:
    """Give the ``Director`` role its one tool. Its brief is ``prompts/roles/Director.md``; the full reference
    ``prompts/skills/director.md`` is for MCP clients (too long for a small model's window).

    Call again when the event list changes (a mod offered one): the tool's grammar names the events."""
    orch = runtime.orchestrator
    orch.roles[ROLE] = RoleConfig(ROLE, max_tokens=MAX_TOKENS, temperature=0.2)
    plan = plan_tool(prefabs, offered_events(events), capture, apply)
    orch.add_tool(plan, roles=(ROLE,), mcp=("direct",))  # MCP clients steer the same director


def plan_tool(
    prefabs: Collection[str], events: Collection[str], capture: PlanCapture, apply: ApplyPlan | None = None
) -> Tool:
    """``set_director_plan``, one tool for the director's own requests (captured, answered through the plan
    source) and for everyone else (with ``apply``: applied on the main thread at once, e.g. over MCP)."""
    schema = tool_schema(prefabs, events)

    class PlanArgs(BaseModel):
        """Lenient on purpose: a plan the director would reject still reaches it, to be counted."""

        model_config = ConfigDict(extra="allow")

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return json.loads(json.dumps(schema))

    def invoke(args: BaseModel, ctx: ToolContext) -> dict[str, Any]:
        # No second round for a bad plan: the director validates it (and counts a rejection) at once, so a
        # decision costs one model call, and the previous plan keeps running meanwhile.
        plan = dict(args.model_extra or {})
        if apply is not None and not capture.expects(ctx.trace_id):
            fn = lambda: apply(plan)  # noqa: E731
            applied: dict[str, Any] = ctx.on_main(
                CallOnMain(fn=fn, label=TOOL_NAME, agent=ctx.role, trace_id=ctx.trace_id)
            )
            return applied
        capture.put(ctx.trace_id, plan)
        return {"received": True, "note": "the director validates and applies it on the next tick"}

    return Tool(
        name=TOOL_NAME,
        description=(
            "Submit your decision for the next ~10 seconds of play. "
            "pressure: ease_off | hold | raise | spike. "
            f"Optional: {tool_summary()}, event, "
            "note (a line for your memory). Always give a one-line reason and a short announcer line. "
            'Example: {"pressure": "raise", "reason": "player cruising"}'
        ),
        args_model=PlanArgs,
        invoke=invoke,
        mutating=True,
        terminal=True,
    )


class AgentPlanSource:
    """A director mode backed by one LLM backend (``local``, ``openai``, a discovered server, or ``stub``)."""

    def __init__(self, runtime: CoreAiRuntime, backend: str, capture: PlanCapture) -> None:
        self.runtime = runtime
        self.backend = backend
        self.name = backend
        self.capture = capture
        self.last_fit: FittedRequest | None = None
        self._latency_s: float | None = None  # a running mean of answered requests (seconds)
        self._prefix_cache: tuple[str, int] | None = None

    # ---- what the model can do ----------------------------------------------------------------------------
    def _client(self) -> Any:
        return self.runtime.router.backends().get(self.backend)

    @property
    def n_ctx(self) -> int | None:
        n = getattr(self._client(), "n_ctx", None)
        return n if isinstance(n, int) else None

    @property
    def deadline_s(self) -> float:
        """How long a decision may take before the director supersedes it (set from measured latency)."""
        if self._latency_s is None:
            return max(COLD_DEADLINE_S, self.runtime.settings.llm.timeout_s)
        return min(MAX_DEADLINE_S, max(MIN_DEADLINE_S, DEADLINE_FACTOR * self._latency_s))

    def _call_timeout(self) -> float | None:
        """A first call pays the cold prefix: it may take ``COLD_DEADLINE_S`` even where ``[llm] timeout_s``
        is shorter (None: the setting applies)."""
        cold = self._latency_s is None and self.runtime.settings.llm.timeout_s < COLD_DEADLINE_S
        return COLD_DEADLINE_S if cold else None

    @property
    def prompt_line(self) -> str:
        return self.last_fit.line() if self.last_fit is not None else ""

    def observe_latency(self, seconds: float) -> None:
        self._latency_s = seconds if self._latency_s is None else 0.7 * self._latency_s + 0.3 * seconds

    # ---- the request --------------------------------------------------------------------------------------
    def task(self, req: PlanRequest) -> AiTaskRequest:
        """The task for ``req``, with the situation fitted to the model's window (logged per section)."""
        fit = self.fit(req)
        self.last_fit = fit
        _log.bind(trace_id=req.trace_id).debug(
            "director request tokens: prefix {} + tail {} + max_tokens {} = {} / n_ctx {}{}",
            fit.prefix_tokens,
            fit.tail_tokens,
            fit.max_tokens,
            fit.total_tokens,
            fit.n_ctx or "?",
            f" (trimmed: {fit.notes_dropped} notes, level {fit.level})" if fit.trimmed else "",
        )
        return self._bare(fit.instructions).model_copy(
            update={
                "priority": 5,
                "cancellation_scope": SCOPE,
                "trace_id": req.trace_id,
                "timeout_s": self._call_timeout(),
            }
        )

    def fit(self, req: PlanRequest) -> FittedRequest:
        n_ctx = self.n_ctx
        counter = getattr(self._client(), "tokens", None)
        if n_ctx is None or counter is None:
            return fit_situation(
                req.situation, n_ctx=None, max_tokens=MAX_TOKENS, prefix_tokens=0, tail_tokens=lambda t: 0
            )
        orch = self.runtime.orchestrator
        prefix_text = self._prefix_text()
        if self._prefix_cache is None or self._prefix_cache[0] != prefix_text:
            count = counter.count_messages([{"role": "system", "content": prefix_text}])
            self._prefix_cache = (prefix_text, count)
        prefix_tokens = self._prefix_cache[1]

        def tail_tokens(instructions: str) -> int:
            prompt, _, _ = orch.compose(self._bare(instructions), "fit")
            head = [{"role": "system", "content": prefix_text}]
            tail = [{"role": m.role, "content": m.content} for m in prompt.messages[1:]]
            # counted after the prefix (a chat template may add a default system turn to a lone user turn)
            return int(counter.count_messages(head + tail)) - prefix_tokens

        return fit_situation(
            req.situation,
            n_ctx=n_ctx,
            max_tokens=MAX_TOKENS,
            prefix_tokens=prefix_tokens,
            tail_tokens=tail_tokens,
        )

    def _bare(self, situation: str) -> AiTaskRequest:
        """The request with ``situation`` as its user message: the whole volatile tail. A small-window model
        gets nothing else after its cached prefix (whose forced-tool note says what to do); a large one also
        gets the ``HINT`` line."""
        text = situation if is_small(self.n_ctx) or not situation else f"{situation}\n\n{HINT}"
        return AiTaskRequest(
            role=ROLE,
            hint=text,
            allowed_tools=[TOOL_NAME],
            force_tool=TOOL_NAME,
            backend=self.backend,  # this request only: no role route changes
        )

    def _prefix_text(self) -> str:
        """The first system message as the local backend sends it (the forced tool's note included)."""
        orch = self.runtime.orchestrator
        prompt, tools, _ = orch.compose(self._bare(""), "fit")
        specs = tuple(t.spec() for t in canonical_order(tools.values()))
        llm_req = LlmRequest(prompt.messages[:1], role=ROLE, tools=specs, tool_choice=TOOL_NAME)
        return str(prepare_prompt(llm_req, MAX_TOKENS, self.backend).messages[0]["content"])

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        future: Future[PlanReply] = Future()
        started = time.perf_counter()
        try:
            self.capture.expect(req.trace_id)
            handle = self.runtime.submit(self.task(req))
        except CoreAIError as exc:
            self.capture.pop(req.trace_id)
            future.set_exception(exc)
            return future

        def done(h: Any) -> None:
            if future.cancelled():
                return
            latency = time.perf_counter() - started
            try:
                result = h.result(0)
            except BaseException as exc:  # cancelled or failed: the director counts it, keeps its plan
                proposed = self.capture.pop(req.trace_id)
                if proposed is not None and not h.cancel_event.is_set():
                    future.set_result(
                        PlanReply(json.dumps(proposed), proposed, self.backend, latency, req.trace_id)
                    )
                else:
                    future.set_exception(exc)
                return
            self.observe_latency(latency)
            plan = self.capture.pop(req.trace_id)
            raw = json.dumps(plan) if plan is not None else result.content
            future.set_result(PlanReply(raw, plan, result.backend, latency, req.trace_id))

        handle.add_done_callback(done)
        original_cancel = future.cancel

        def cancel() -> bool:
            handle.cancel()
            return original_cancel()

        future.cancel = cancel  # type: ignore[method-assign]
        return future
