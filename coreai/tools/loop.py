"""The tool-calling loop: ask the model, run the tools it asks for, feed the results back, repeat.

It stops when the model answers without tool calls, right after a successful call of a ``terminal`` tool,
or when the roundtrip cap or the consecutive-failure guard is hit; in those two cases the model gets
exactly one final turn with tools disabled to summarise in plain text. Old tool exchanges are trimmed as
the conversation grows. Only visible content is kept: any ``<think>`` span or reasoning channel is
dropped before it can reach history, memory or the result.

A forced tool (``force_tool``) that is not terminal is forced once: after it ran, its call and result are
folded into one context message and the model answers from it with tools off. With ``on_text`` each model
call streams, and every visible content piece goes to ``on_text`` as it arrives (reasoning never does).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from loguru import logger

from coreai.errors import LlmError, LlmErrorCode, TaskCancelled
from coreai.events import EventBus
from coreai.llm.decorators import backend_for
from coreai.llm.reasoning import split_reasoning
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest, LlmResult, ToolCall, Usage
from coreai.tools.base import Tool, ToolContext, ToolOutcome, canonical_order
from coreai.tools.policy import ToolCallPolicy, ToolPolicyConfig
from coreai.tools.trim import trim_tool_history

TextSink = Callable[[str], None]

_log = logger.bind(feature="agents")

FINAL_TURN_INSTRUCTION = (
    "Tool budget exhausted. Do not call any more tools. Summarize in plain text what you did and what "
    "happened, in at most three sentences."
)

StopReason = Literal["answered", "roundtrip_cap", "tool_errors"]


@dataclass(frozen=True)
class LoopOutcome:
    content: str
    stop_reason: StopReason
    rounds: int  # model calls made, the final summary turn included
    tool_calls: tuple[ToolOutcome, ...]
    backend: str
    usage: Usage


def _visible_arguments(arguments: str) -> str:
    """Tool arguments with any inline reasoning span removed (it must not reach tools or history)."""
    if "think>" not in arguments.lower():
        return arguments
    return split_reasoning(arguments)[0]


def _forced_result_note(outcomes: Sequence[ToolOutcome]) -> ChatMessage:
    results = "\n".join(f"{o.tool} returned: {o.content}" for o in outcomes)
    return ChatMessage(
        role="user",
        content=f"{results}\nNow answer my message in a sentence or two, using this result.",
    )


def _add(a: Usage, b: Usage) -> Usage:
    return Usage(
        a.prompt_tokens + b.prompt_tokens,
        a.completion_tokens + b.completion_tokens,
        a.cached_prompt_tokens + b.cached_prompt_tokens,
    )


class ToolLoop:
    def __init__(
        self, llm: LlmClient, config: ToolPolicyConfig | None = None, events: EventBus | None = None
    ):
        self.llm = llm
        self.config = config or ToolPolicyConfig()
        self.events = events

    def run(
        self,
        messages: Sequence[ChatMessage],
        tools: Mapping[str, Tool],
        available: Collection[str],
        ctx: ToolContext,
        *,
        max_tokens: int = 256,
        temperature: float = 0.2,
        repeat_penalty: float | None = None,
        top_k: int | None = None,
        timeout_s: float | None = None,
        force_tool: str | None = None,
        backend: str | None = None,
        on_text: TextSink | None = None,
    ) -> LoopOutcome:
        specs = tuple(t.spec() for t in canonical_order(tools.values()) if t.name in available)
        forced = force_tool if force_tool and any(s.name == force_tool for s in specs) else None
        policy = ToolCallPolicy(tools, available, ctx, self.config, self.events)
        base = LlmRequest(
            messages=(),
            role=ctx.role,
            trace_id=ctx.trace_id,
            backend=backend,
            tools=specs,
            tool_choice=forced or ("auto" if specs else "none"),
            max_tokens=max_tokens,
            temperature=temperature,
            repeat_penalty=repeat_penalty,
            top_k=top_k,
            timeout_s=timeout_s,
            cancel=ctx.cancel,
        )
        history = list(messages)
        usage = Usage()
        backend = "?"
        rounds = 0
        stop: StopReason = "roundtrip_cap"
        for turn in range(self.config.max_roundtrips):
            result = self._ask(replace(base, messages=tuple(history)), ctx, on_text)
            rounds += 1
            usage, backend = _add(usage, result.usage), result.backend
            visible, _ = split_reasoning(result.content)
            if not result.tool_calls or not specs:
                return LoopOutcome(visible, "answered", rounds, tuple(policy.outcomes), backend, usage)
            calls = tuple(
                ToolCall(
                    id=c.id or f"call_{turn}_{i}", name=c.name, arguments=_visible_arguments(c.arguments)
                )
                for i, c in enumerate(result.tool_calls)
            )
            history.append(ChatMessage(role="assistant", content=visible, tool_calls=calls))
            outcomes = policy.run_turn(calls)
            history.extend(
                ChatMessage(role="tool", content=o.content, tool_call_id=o.call_id, name=o.tool)
                for o in outcomes
            )
            history = trim_tool_history(history, self.config.max_tool_history_messages)
            done = [o for o in outcomes if o.ok and o.tool in tools and tools[o.tool].terminal]
            if done:
                text = visible or f"{done[-1].tool} done"
                return LoopOutcome(text, "answered", rounds, tuple(policy.outcomes), backend, usage)
            if forced and any(o.ok and o.tool == forced for o in outcomes):
                # forced once: the exchange becomes context, and the model answers in words, tools off
                # (a small model shown its own tool call as text would only repeat it)
                history = [*history[: -(1 + len(outcomes))], _forced_result_note(outcomes)]
                base = replace(base, tools=(), tool_choice="none")
                forced = None
            if policy.should_abort():
                stop = "tool_errors"
                _log.warning(
                    "{} consecutive tool turns failed; asking for a final summary",
                    policy.failed_turns,
                    trace_id=ctx.trace_id,
                )
                break
        history.append(ChatMessage(role="user", content=FINAL_TURN_INSTRUCTION))
        final = self._ask(replace(base, messages=tuple(history), tools=(), tool_choice="none"), ctx, on_text)
        rounds += 1
        usage, backend = _add(usage, final.usage), final.backend
        visible, _ = split_reasoning(final.content)  # any tool calls in this turn are ignored
        return LoopOutcome(visible, stop, rounds, tuple(policy.outcomes), backend, usage)

    def _ask(self, request: LlmRequest, ctx: ToolContext, on_text: TextSink | None = None) -> LlmResult:
        if ctx.cancel.is_set():
            raise TaskCancelled("task cancelled", trace_id=ctx.trace_id)
        try:
            if on_text is None:
                return self.llm.complete(request)
            return self._streamed(request, on_text)
        except LlmError as exc:
            if exc.code is LlmErrorCode.CANCELLED or ctx.cancel.is_set():
                raise TaskCancelled(
                    f"task cancelled during the model call ({exc.code.value})", trace_id=ctx.trace_id
                ) from exc
            raise

    def _streamed(self, request: LlmRequest, on_text: TextSink) -> LlmResult:
        """One model call through ``stream``: visible pieces go to ``on_text``, the whole comes back."""
        content: list[str] = []
        calls: list[ToolCall] = []
        finish = "stop"
        started = time.perf_counter()
        for chunk in self.llm.stream(request):
            if chunk.content:
                content.append(chunk.content)
                on_text(chunk.content)
            if chunk.tool_call is not None:
                calls.append(chunk.tool_call)
            if chunk.finish_reason:
                finish = chunk.finish_reason
        return LlmResult(
            content="".join(content),
            tool_calls=tuple(calls),
            finish_reason=finish,
            backend=request.backend or backend_for(self.llm, request.role),
            latency_s=time.perf_counter() - started,
        )
