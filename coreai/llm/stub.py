"""``StubLlmClient``: a scripted backend for tests and offline play.

A script is a list of replies (consumed in order) or a callable that answers each request. A reply is a
plain string (inline ``<think>`` spans become reasoning, as a real backend would split them), an
``LlmResult`` (for tool calls, reasoning, finish reasons), or an exception to raise (``LlmError`` codes for
failure tests). ``tool_reply`` builds a tool-calling result. Every request is recorded in ``requests``.
Without a script the stub answers every role with one short offline line.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from itertools import count
from typing import Any

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.reasoning import split_reasoning
from coreai.llm.types import LlmChunk, LlmRequest, LlmResult, ToolCall, Usage

StubItem = str | LlmResult | BaseException
StubScript = Sequence[StubItem | Callable[[LlmRequest], StubItem]] | Callable[[LlmRequest], StubItem]

_ids = count(1)


def tool_reply(
    *calls: tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], str], content: str = ""
) -> LlmResult:
    """A result asking for tool calls: ``tool_reply(("memory", {"action": "clear"}), ...)``."""
    made = []
    for call in calls:
        name, args = call[0], call[1]
        call_id = call[2] if len(call) > 2 else f"call_{next(_ids)}"
        made.append(ToolCall(id=call_id, name=name, arguments=json.dumps(args)))
    return LlmResult(content=content, tool_calls=tuple(made), finish_reason="tool_calls")


class StubLlmClient:
    def __init__(
        self,
        script: StubScript | None = None,
        *,
        name: str = "stub",
        delay_s: float = 0.0,
        repeat_last: bool = False,
    ) -> None:
        self.name = name
        self.delay_s = delay_s
        self.repeat_last = repeat_last
        self._script = script
        self._pos = 0
        self._lock = threading.Lock()
        self.requests: list[LlmRequest] = []

    def _next_item(self, request: LlmRequest) -> StubItem:
        script = self._script
        if script is None:
            return f"(offline) The {request.role} agent has no language model attached; nothing changes."
        if callable(script):
            return script(request)
        with self._lock:
            if self._pos >= len(script):
                if not (self.repeat_last and script):
                    raise LlmError(
                        LlmErrorCode.EMPTY_RESPONSE,
                        f"stub script exhausted after {len(script)} replies",
                        backend=self.name,
                        trace_id=request.trace_id or None,
                    )
                item = script[-1]
            else:
                item = script[self._pos]
                self._pos += 1
        return item(request) if callable(item) else item

    def complete(self, request: LlmRequest) -> LlmResult:
        started = time.perf_counter()
        with self._lock:
            self.requests.append(request)
        if request.cancel.is_set() or (self.delay_s and request.cancel.wait(self.delay_s)):
            raise LlmError(
                LlmErrorCode.CANCELLED, "cancelled", backend=self.name, trace_id=request.trace_id or None
            )
        item = self._next_item(request)
        if isinstance(item, BaseException):
            raise item
        result = LlmResult(content=item) if isinstance(item, str) else item
        visible, inline = split_reasoning(result.content)
        reasoning = "\n".join(r for r in (result.reasoning, inline) if r)
        prompt_chars = sum(len(m.content) for m in request.messages)
        return replace(
            result,
            content=visible,
            reasoning=reasoning,
            backend=self.name,
            model=result.model or "scripted",
            usage=result.usage
            if result.usage != Usage()
            else Usage(prompt_tokens=prompt_chars // 4, completion_tokens=len(result.content) // 4),
            latency_s=time.perf_counter() - started,
        )

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        result = self.complete(request)
        if result.reasoning:
            yield LlmChunk(reasoning=result.reasoning)
        text = result.content
        for i in range(0, len(text), 16):
            if request.cancel.is_set():
                raise LlmError(LlmErrorCode.CANCELLED, "cancelled", backend=self.name)
            yield LlmChunk(content=text[i : i + 16])
        for call in result.tool_calls:
            yield LlmChunk(tool_call=call)
        yield LlmChunk(finish_reason=result.finish_reason)
