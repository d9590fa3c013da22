"""Reading an OpenAI-compatible chat stream: chunks in, one reply out.

``StreamAccumulator`` merges streamed deltas (text, ``<think>`` spans and ``reasoning_content``, tool-call
pieces, usage, finish reason). Local servers often send tool-call deltas without ``index`` or ``id``: a
delta with neither continues the last call unless it names a new tool. ``chunks_of`` also copes with a
server that ignores ``stream=true`` and answers with one JSON body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from coreai.llm.replies import ThinkSplitter, final_text
from coreai.llm.types import LlmChunk, ToolCall, Usage
from coreai.persist import loads_json


def chunks_of(stream: Any) -> Iterator[Any]:
    """The stream's chunks; a plain JSON reply (``stream`` ignored) becomes one equivalent chunk."""
    response = getattr(stream, "response", None)
    if response is None or "json" not in response.headers.get("content-type", ""):
        yield from stream
        return
    yield whole_reply_chunk(loads_json(response.read()))


def whole_reply_chunk(body: Any) -> SimpleNamespace:
    """A non-streamed chat completion in the shape of a stream chunk; ``ValueError`` if it is not one."""
    if not isinstance(body, dict) or not isinstance(body.get("choices", []), list):
        raise ValueError("the reply is not a chat completion object")
    if "error" in body:
        raise ValueError(f"the server answered 200 with an error: {str(body['error'])[:200]}")
    choices = []
    for choice in body.get("choices", [])[:1]:
        message = choice.get("message") or {}
        calls = [
            SimpleNamespace(
                index=i,
                id=tc.get("id"),
                function=SimpleNamespace(
                    name=(tc.get("function") or {}).get("name"),
                    arguments=_as_text((tc.get("function") or {}).get("arguments")),
                ),
            )
            for i, tc in enumerate(message.get("tool_calls") or [])
        ]
        delta = SimpleNamespace(
            content=message.get("content"),
            tool_calls=calls,
            reasoning_content=message.get("reasoning_content"),
        )
        choices.append(SimpleNamespace(delta=delta, finish_reason=choice.get("finish_reason") or "stop"))
    usage = body.get("usage")
    usage_ns = (
        SimpleNamespace(
            prompt_tokens=usage.get("prompt_tokens"),
            prompt_tokens_details=None,
            completion_tokens=usage.get("completion_tokens"),
        )
        if isinstance(usage, dict)
        else None
    )
    return SimpleNamespace(model=body.get("model") or "", choices=choices, usage=usage_ns)


def _as_text(arguments: Any) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments or {})


@dataclass
class _Slot:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class StreamAccumulator:
    """Everything one stream said so far: text, reasoning, tool-call slots, usage, finish reason."""

    content: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    slots: list[_Slot] = field(default_factory=list)
    by_index: dict[int, _Slot] = field(default_factory=dict)
    by_id: dict[str, _Slot] = field(default_factory=dict)
    splitter: ThinkSplitter = field(default_factory=ThinkSplitter)
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    chunks: int = 0
    size: int = 0

    def add(self, chunk: Any) -> LlmChunk | None:
        self.chunks += 1
        self.model = getattr(chunk, "model", None) or self.model
        if (u := getattr(chunk, "usage", None)) is not None:
            details = getattr(u, "prompt_tokens_details", None)
            self.usage = Usage(
                getattr(u, "prompt_tokens", 0) or 0,
                getattr(u, "completion_tokens", 0) or 0,
                getattr(details, "cached_tokens", None) or 0,
            )
        choices = getattr(chunk, "choices", None) or []
        if not choices:
            return None
        choice = choices[0]
        delta = choice.delta
        if choice.finish_reason:
            self.finish_reason = choice.finish_reason
        for call in getattr(delta, "tool_calls", None) or []:
            self._add_call(call)
        thought = getattr(delta, "reasoning_content", None) or getattr(delta, "reasoning", None) or ""
        visible, inline_thought = self.splitter.feed(delta.content or "")
        thought = (thought if isinstance(thought, str) else "") + inline_thought
        self.content.append(visible)
        self.reasoning.append(thought)
        self.size += len(visible) + len(thought)
        return LlmChunk(content=visible, reasoning=thought) if visible or thought else None

    def _add_call(self, delta: Any) -> None:
        index = getattr(delta, "index", None)
        call_id = getattr(delta, "id", None) or ""
        fn = getattr(delta, "function", None)
        name = (getattr(fn, "name", None) or "") if fn is not None else ""
        args = (getattr(fn, "arguments", None) or "") if fn is not None else ""
        slot = self.by_index.get(index) if index is not None else None
        if slot is None and call_id:
            slot = self.by_id.get(call_id)
        anonymous = index is None and not call_id
        if slot is None and anonymous and self.slots and not (name and self.slots[-1].name):
            slot = self.slots[-1]  # a continuation without index or id
        if slot is None:
            slot = _Slot()
            self.slots.append(slot)
        if index is not None:
            self.by_index.setdefault(index, slot)
        if call_id and not slot.id:
            slot.id = call_id
            self.by_id[call_id] = slot
        if name and not slot.name:
            slot.name = name
        if args:
            slot.arguments.append(args)
            self.size += len(args)

    def text(self) -> tuple[str, str]:
        visible, thought = self.splitter.flush()
        return final_text("".join(self.content) + visible, "".join(self.reasoning) + thought)

    def tool_calls(self) -> tuple[ToolCall, ...]:
        return tuple(
            ToolCall(s.id or f"call_{i}", s.name, "".join(s.arguments) or "{}")
            for i, s in enumerate(self.slots)
        )
