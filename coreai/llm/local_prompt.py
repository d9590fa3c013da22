"""Turning an ``LlmRequest`` into a llama.cpp chat call, and its raw reply back into an ``LlmResult``.

Tools work with any chat template, without a function-calling chat format: a named ``tool_choice`` makes the
tool's argument schema the reply grammar; ``"auto"`` makes the reply a JSON-schema'd choice between
``{"tool": <name>, "arguments": {...}}`` for each tool and ``{"reply": "..."}``. A ``response_schema`` becomes
``response_format={"type": "json_object", "schema": ...}``. The grammar keeps enums and ``maxItems`` but not
numeric bounds, so ``max_tokens`` is capped and callers validate with ``parse_structured``.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.replies import (
    check_tool_calls,
    extract_json_text,
    final_text,
    grammar_schema,
    parse_json_object,
    with_system_note,
)
from coreai.llm.types import ChatMessage, LlmRequest, LlmResult, ToolCall, ToolSpec
from coreai.persist import loads_json

Mode = Literal["text", "schema", "tool", "tool_choice"]


@dataclass(frozen=True)
class PreparedPrompt:
    messages: list[dict[str, Any]]
    response_format: dict[str, Any] | None
    max_tokens: int
    mode: Mode
    tools: tuple[ToolSpec, ...] = ()
    forced_tool: str | None = None

    @property
    def streams_content(self) -> bool:
        """Text and schema replies stream as they come; a tool choice is known only at the end."""
        return self.mode in ("text", "schema")


def prepare_prompt(request: LlmRequest, max_tokens_cap: int, backend: str) -> PreparedPrompt:
    messages = [_to_llama(m) for m in request.messages]
    max_tokens = max(1, min(request.max_tokens, max_tokens_cap))
    tools = request.tools if request.tool_choice != "none" else ()
    if tools and request.tool_choice != "auto":
        tool = next((t for t in tools if t.name == request.tool_choice), None)
        if tool is None:
            raise LlmError(
                LlmErrorCode.MALFORMED_OUTPUT,
                f"tool_choice names '{request.tool_choice}', which the request does not offer",
                backend=backend,
                trace_id=request.trace_id or None,
            )
        note = f"Call the tool `{tool.name}` now. Reply with only its arguments: one JSON object"
        if _shows_contract(messages, tool.name):  # the prefix lists it already: no second copy of the schema
            note += " matching its schema above."
        else:
            note = (
                f"Call the tool `{tool.name}` ({tool.description}). Reply with only its arguments, one JSON "
                f"object following this schema:\n{json.dumps(tool.parameters, sort_keys=True)}"
            )
        return PreparedPrompt(
            with_system_note(messages, note),
            _json_format(tool.parameters),
            max_tokens,
            "tool",
            tools,
            tool.name,
        )
    if tools:
        return PreparedPrompt(
            with_system_note(messages, _tool_menu(tools, messages)),
            _json_format(tool_choice_schema(tools, reply_chars=max_tokens)),
            max_tokens,
            "tool_choice",
            tools,
        )
    if request.response_schema is not None:
        return PreparedPrompt(messages, _json_format(request.response_schema), max_tokens, "schema")
    return PreparedPrompt(messages, None, max_tokens, "text")


def tool_choice_schema(tools: tuple[ToolSpec, ...], reply_chars: int = 512) -> dict[str, Any]:
    """One schema for "call one of these tools, or reply in words"; ``$defs`` are hoisted to the root.

    The reply's ``maxLength`` (one character per token of budget) lets the grammar close the JSON before
    ``max_tokens`` cuts it off.
    """
    defs: dict[str, Any] = {}
    options: list[dict[str, Any]] = []
    for tool in tools:
        params = dict(tool.parameters)
        defs.update(params.pop("$defs", {}))
        options.append(
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["tool", "arguments"],
                "properties": {"tool": {"const": tool.name}, "arguments": params},
            }
        )
    options.append(
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["reply"],
            "properties": {"reply": {"type": "string", "maxLength": max(16, reply_chars)}},
        }
    )
    schema: dict[str, Any] = {"oneOf": options}
    if defs:
        schema["$defs"] = defs
    return schema


def finish_reply(
    prepared: PreparedPrompt, content: str, reasoning: str, finish: str, backend: str, trace_id: str | None
) -> LlmResult:
    """Check the raw reply of one mode and build the result; ``LlmError`` when it is empty or malformed."""
    content, reasoning = final_text(content, reasoning)
    cut = " (cut off at max_tokens)" if finish == "length" else ""
    if prepared.mode == "text":
        if not content:
            raise LlmError(
                LlmErrorCode.EMPTY_RESPONSE,
                "the model replied with no text",
                backend=backend,
                trace_id=trace_id,
            )
        return LlmResult(content=content, reasoning=reasoning, finish_reason=finish)
    if not content:
        raise LlmError(
            LlmErrorCode.EMPTY_RESPONSE, "the model replied with no JSON", backend=backend, trace_id=trace_id
        )
    obj = parse_json_object(extract_json_text(content), f"reply{cut}", backend, trace_id)
    if prepared.mode == "schema":
        return LlmResult(content=json.dumps(obj), reasoning=reasoning, finish_reason=finish)
    if prepared.mode == "tool":
        assert prepared.forced_tool is not None
        call = ToolCall(_call_id(), prepared.forced_tool, json.dumps(obj))
    elif "tool" in obj:
        args = obj.get("arguments", {})
        if not isinstance(args, dict):
            raise LlmError(
                LlmErrorCode.MALFORMED_OUTPUT,
                "tool arguments are not a JSON object",
                backend=backend,
                trace_id=trace_id,
            )
        call = ToolCall(_call_id(), str(obj["tool"]), json.dumps(args))
    elif isinstance(obj.get("reply"), str) and obj["reply"].strip():
        return LlmResult(content=obj["reply"].strip(), reasoning=reasoning, finish_reason=finish)
    else:
        raise LlmError(
            LlmErrorCode.MALFORMED_OUTPUT,
            f"reply is neither a tool call nor a reply: {content[:80]}",
            backend=backend,
            trace_id=trace_id,
        )
    check_tool_calls((call,), prepared.tools, backend, trace_id)
    return LlmResult(content="", reasoning=reasoning, tool_calls=(call,), finish_reason="tool_calls")


def _shows_contract(messages: list[dict[str, Any]], name: str) -> bool:
    """The first system message holds the tool's contract (``coreai.prompts`` renders ``### <name>``)."""
    first = messages[0] if messages else {}
    return first.get("role") == "system" and f"### {name}\n" in str(first.get("content") or "")


def _json_format(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_object", "schema": grammar_schema(schema)}


def _tool_menu(tools: tuple[ToolSpec, ...], messages: list[dict[str, Any]]) -> str:
    lines = [
        'To call a tool, reply {"tool": <name>, "arguments": {...}}; otherwise reply {"reply": "<text>"}.'
    ]
    shown = [t.name for t in tools if _shows_contract(messages, t.name)]
    if shown:  # the prefix has their contracts already: the menu only names them (fewer prompt tokens)
        lines.append(f"Tools you may call now (contracts above): {', '.join(shown)}.")
    rest = [t for t in tools if t.name not in shown]
    if rest:
        lines.append("Tools:")
        lines += [
            f"- {t.name}: {t.description} Arguments schema: {json.dumps(t.parameters, sort_keys=True)}"
            for t in rest
        ]
    return "\n".join(lines)


def _call_id() -> str:
    return f"call_{uuid.uuid4().hex[:16]}"


def _to_llama(message: ChatMessage) -> dict[str, Any]:
    """Tool traffic is rewritten as plain turns so that any model's chat template accepts it."""
    if message.role == "tool":
        return {"role": "user", "content": f"Result of tool {message.name or 'call'}: {message.content}"}
    if message.role == "assistant" and message.tool_calls:
        calls = "\n".join(
            json.dumps({"tool": c.name, "arguments": _args(c.arguments)}) for c in message.tool_calls
        )
        return {"role": "assistant", "content": f"{message.content}\n{calls}".strip()}
    return {"role": message.role, "content": message.content}


def _args(raw: str) -> Any:
    try:
        return loads_json(raw or "{}")
    except json.JSONDecodeError:
        return raw
