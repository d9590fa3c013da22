"""The tool execution policy: how one turn's tool calls are checked, run and reported.

Per task (one ``ToolCallPolicy`` per agent run):
- an unknown tool, a tool not available to this request, or arguments that are not valid JSON for the
  tool's model are reported back to the model as errors, never raised;
- a call identical (same tool, same canonical arguments) to one that already succeeded in an earlier turn
  is refused as a duplicate; identical calls within one turn all run (spawn three times is legitimate);
- calls run in bounded parallel (``max_parallel``, default 4), mutating tools one at a time in order;
- a turn in which every call failed counts toward ``max_consecutive_failed_turns`` (default 3); a turn
  with any success resets the count; ``should_abort()`` tells the loop to stop calling tools.
Lifecycle events (started / completed / failed) go to the event bus with sanitised arguments.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from loguru import logger
from pydantic import ValidationError

from coreai.errors import CoreAIError
from coreai.events import EventBus, ToolCallEvent, ToolCallInfo, sanitize_arguments
from coreai.llm.types import ToolCall
from coreai.persist import loads_json
from coreai.settings import ToolSettings
from coreai.tools.base import Tool, ToolContext, ToolOutcome

_log = logger.bind(feature="agents")


@dataclass(frozen=True)
class ToolPolicyConfig:
    max_parallel: int = 4
    max_roundtrips: int = 6
    max_consecutive_failed_turns: int = 3
    max_tool_history_messages: int = 20
    result_max_chars: int = 4000

    @classmethod
    def from_settings(cls, settings: ToolSettings) -> ToolPolicyConfig:
        return cls(**settings.model_dump())


@dataclass(frozen=True)
class _Prepared:
    index: int
    call: ToolCall
    tool: Tool
    args: Any
    signature: str


def _error_content(message: str) -> str:
    return json.dumps({"ok": False, "error": message}, ensure_ascii=False)


class ToolCallPolicy:
    def __init__(
        self,
        tools: Mapping[str, Tool],
        available: Collection[str],
        ctx: ToolContext,
        config: ToolPolicyConfig | None = None,
        events: EventBus | None = None,
    ) -> None:
        self.tools = dict(tools)
        self.available = set(available)
        self.ctx = ctx
        self.config = config or ToolPolicyConfig()
        self.events = events
        self.failed_turns = 0
        self.outcomes: list[ToolOutcome] = []
        self._succeeded: set[str] = set()

    def should_abort(self) -> bool:
        return self.failed_turns >= self.config.max_consecutive_failed_turns

    # -- one turn -----------------------------------------------------------------------------------------
    def run_turn(self, calls: Sequence[ToolCall]) -> list[ToolOutcome]:
        """Check and run one reply's tool calls; outcomes come back in call order."""
        results: list[ToolOutcome | None] = [None] * len(calls)
        ready: list[_Prepared] = []
        for i, call in enumerate(calls):
            prepared_or_error = self._prepare(i, call)
            if isinstance(prepared_or_error, str):
                results[i] = self._refuse(call, prepared_or_error)
            else:
                ready.append(prepared_or_error)
        for prepared, executed in self._execute(ready):
            results[prepared.index] = executed
        done = [r for r in results if r is not None]
        if done:
            if any(o.ok for o in done):
                self.failed_turns = 0
                for p in ready:
                    outcome = results[p.index]
                    if outcome is not None and outcome.ok:
                        self._succeeded.add(p.signature)
            else:
                self.failed_turns += 1
        self.outcomes.extend(done)
        return done

    def _prepare(self, index: int, call: ToolCall) -> _Prepared | str:
        tool = self.tools.get(call.name)
        if tool is None:
            known = ", ".join(sorted(self.available)) or "none"
            return f"unknown tool '{call.name}'; available tools: {known}"
        if call.name not in self.available:
            return f"tool '{call.name}' is not available for this request; do not call it"
        try:
            raw = loads_json(call.arguments) if call.arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return f"arguments are not valid JSON ({exc.msg} at char {exc.pos})"
        if not isinstance(raw, dict):
            return "arguments must be a JSON object"
        try:
            args = tool.args_model.model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in exc.errors()
            )
            return f"invalid arguments for '{call.name}': {problems}"
        signature = call.name + ":" + json.dumps(args.model_dump(mode="json"), sort_keys=True)
        if signature in self._succeeded:
            return (
                f"duplicate call: '{call.name}' with these exact arguments already succeeded earlier in this "
                "task; use that result instead of repeating it"
            )
        return _Prepared(index, call, tool, args, signature)

    def _execute(self, ready: list[_Prepared]) -> list[tuple[_Prepared, ToolOutcome]]:
        if len(ready) <= 1 or self.config.max_parallel <= 1:
            return [(p, self._invoke(p)) for p in ready]
        mutating = [p for p in ready if p.tool.mutating]
        readonly = [p for p in ready if not p.tool.mutating]
        lanes = len(readonly) + (1 if mutating else 0)
        out: list[tuple[_Prepared, ToolOutcome]] = []
        workers = min(self.config.max_parallel, lanes)
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"tools-{self.ctx.trace_id}") as pool:
            serial = pool.submit(lambda: [(p, self._invoke(p)) for p in mutating]) if mutating else None
            parallel = [(p, pool.submit(self._invoke, p)) for p in readonly]
            if serial is not None:
                out.extend(serial.result())
            out.extend((p, f.result()) for p, f in parallel)
        return out

    # -- single call --------------------------------------------------------------------------------------
    def _info(self, call: ToolCall) -> ToolCallInfo:
        return ToolCallInfo(
            trace_id=self.ctx.trace_id,
            role=self.ctx.role,
            call_id=call.id,
            tool=call.name,
            arguments=sanitize_arguments(call.arguments),
        )

    def _publish(self, event: ToolCallEvent) -> None:
        if self.events is not None:
            self.events.publish(event)

    def _refuse(self, call: ToolCall, message: str) -> ToolOutcome:
        info = self._info(call)
        _log.warning("tool {} refused: {}", call.name, message, trace_id=self.ctx.trace_id)
        self._publish(ToolCallEvent("failed", info, error=message))
        return ToolOutcome(call.id, call.name, info.arguments, False, _error_content(message), error=message)

    def _invoke(self, prepared: _Prepared) -> ToolOutcome:
        call = prepared.call
        info = self._info(call)
        if self.ctx.cancel.is_set():
            return self._refuse(call, "task cancelled before this call ran")
        self._publish(ToolCallEvent("started", info))
        started = time.perf_counter()
        try:
            result = prepared.tool.invoke(prepared.args, self.ctx)
        except CoreAIError as exc:
            return self._failed(info, str(exc), started)
        except Exception as exc:
            _log.opt(exception=exc).error("tool {} raised", call.name, trace_id=self.ctx.trace_id)
            return self._failed(info, f"{type(exc).__name__}: {exc}", started)
        elapsed = time.perf_counter() - started
        content = json.dumps({"ok": True, "result": result}, ensure_ascii=False, default=str)
        limit = self.config.result_max_chars
        if len(content) > limit:
            content = json.dumps({"ok": True, "result_truncated": content[:limit]}, ensure_ascii=False)
        _log.info("tool {} ok in {:.3f}s", call.name, elapsed, trace_id=self.ctx.trace_id)
        self._publish(ToolCallEvent("completed", info, result=content[:200], duration_s=elapsed))
        return ToolOutcome(
            call.id, call.name, info.arguments, True, content, result=result, duration_s=elapsed
        )

    def _failed(self, info: ToolCallInfo, message: str, started: float) -> ToolOutcome:
        elapsed = time.perf_counter() - started
        _log.warning("tool {} failed: {}", info.tool, message, trace_id=self.ctx.trace_id)
        self._publish(ToolCallEvent("failed", info, error=message, duration_s=elapsed))
        return ToolOutcome(
            info.call_id,
            info.tool,
            info.arguments,
            False,
            _error_content(message),
            error=message,
            duration_s=elapsed,
        )
