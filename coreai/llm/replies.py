"""Reply handling shared by the real backends: ``<think>`` splitting, structured replies, tool-call checks.

``parse_structured(result, Model)`` is what callers use to turn a JSON reply into a validated pydantic model;
llama.cpp's grammar enforces the schema's shape and enums but not numeric bounds, so every structured reply
is validated here and anything off gives ``LlmError(MALFORMED_OUTPUT)``.
"""

from __future__ import annotations

import json
import math
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.reasoning import split_reasoning
from coreai.llm.types import LlmResult, ToolCall, ToolSpec
from coreai.persist import loads_json

M = TypeVar("M", bound=BaseModel)

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


class ThinkSplitter:
    """Splits streamed text into visible content and ``<think>...</think>`` reasoning.

    Tags may be cut across chunks; a possible partial tag at the end of a chunk is held back until the next
    one decides it. ``flush()`` returns what is held back when the stream ends. Whole replies go through
    ``coreai.llm.reasoning.split_reasoning`` as well (see ``final_text``).
    """

    def __init__(self) -> None:
        self._held = ""
        self._thinking = False

    def feed(self, text: str) -> tuple[str, str]:
        """Return ``(content, reasoning)`` that can be released after adding ``text``."""
        buf = self._held + text
        content: list[str] = []
        reasoning: list[str] = []
        while buf:
            tag = THINK_CLOSE if self._thinking else THINK_OPEN
            out = reasoning if self._thinking else content
            at = buf.find(tag)
            if at >= 0:
                out.append(buf[:at])
                buf = buf[at + len(tag) :]
                self._thinking = not self._thinking
                continue
            keep = _partial_suffix(buf, tag)
            out.append(buf[: len(buf) - keep])
            buf = buf[len(buf) - keep :]
            break
        self._held = buf
        return "".join(content), "".join(reasoning)

    def flush(self) -> tuple[str, str]:
        held, self._held = self._held, ""
        return ("", held) if self._thinking else (held, "")


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest end of ``text`` that is a proper start of ``tag``."""
    for k in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:k]):
            return k
    return 0


def final_text(content: str, reasoning: str) -> tuple[str, str]:
    """The whole reply once streaming ended: ``split_reasoning`` also catches a closing tag without its
    opening one (templates that open the think span in the prompt), which a stream cannot take back."""
    visible, extra = split_reasoning(content)
    return visible, "\n".join(t for t in (reasoning.strip(), extra) if t)


def extract_json_text(text: str) -> str:
    """The JSON object in a reply, without Markdown fences or chatter around it."""
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        return text
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


def parse_structured(result: LlmResult, model: type[M], *, trace_id: str | None = None) -> M:
    """Validate a structured reply against ``model``; ``LlmError(MALFORMED_OUTPUT)`` if it does not fit."""
    text = extract_json_text(result.content)
    if not text:
        raise LlmError(
            LlmErrorCode.MALFORMED_OUTPUT,
            f"empty reply where a {model.__name__} was expected",
            backend=result.backend,
            trace_id=trace_id,
        )
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()[:3]
        )
        raise LlmError(
            LlmErrorCode.MALFORMED_OUTPUT,
            f"reply is not a valid {model.__name__}: {problems}",
            backend=result.backend,
            trace_id=trace_id,
        ) from None


def parse_json_object(text: str, what: str, backend: str, trace_id: str | None) -> dict[str, Any]:
    """``json.loads`` that accepts only an object and raises ``MALFORMED_OUTPUT`` otherwise. A raw newline or
    tab inside a string (small models write them in free-text fields) is accepted, not a malformed reply."""
    try:
        value = loads_json(text, strict=False)
    except json.JSONDecodeError as exc:
        raise LlmError(
            LlmErrorCode.MALFORMED_OUTPUT,
            f"{what} is not valid JSON ({exc.msg} at {exc.pos})",
            backend=backend,
            trace_id=trace_id,
        ) from None
    if not isinstance(value, dict):
        raise LlmError(
            LlmErrorCode.MALFORMED_OUTPUT,
            f"{what} is JSON but not an object",
            backend=backend,
            trace_id=trace_id,
        )
    return value


def stops_mid_json(text: str) -> bool:
    """``text`` opens a JSON object or array and ends before closing it (inside a string or a bracket): a
    reply that was cut off, not one the model finished wrongly."""
    depth, in_string, escaped, opened = 0, False, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth, opened = depth + 1, True
        elif ch in "}]":
            depth -= 1
            if depth < 0:
                return False
    return opened and (in_string or depth > 0)


def check_tool_calls(
    calls: tuple[ToolCall, ...], tools: tuple[ToolSpec, ...], backend: str, trace_id: str | None
) -> None:
    """Every call must name an offered tool and carry a JSON object of arguments."""
    offered = {t.name for t in tools}
    for call in calls:
        if call.name not in offered:
            raise LlmError(
                LlmErrorCode.MALFORMED_OUTPUT,
                f"model called unknown tool '{call.name}' (offered: {', '.join(sorted(offered))})",
                backend=backend,
                trace_id=trace_id,
            )
        parse_json_object(call.arguments or "{}", f"arguments of tool '{call.name}'", backend, trace_id)


_MAX_ENUM_RANGE = 64


_MAX_GRAMMAR_REPEAT = 512
_NUMBER_GRID = 11


def grammar_schema(schema: Any) -> Any:
    """A copy of ``schema`` of which a grammar can enforce more.

    llama.cpp's schema grammar ignores numeric bounds; a bounded integer range of at most 64 values is
    rewritten as an enum, which it does enforce, and a bounded number as 11 evenly spaced choices.
    Length and item bounds up to 512 are kept; larger ones are dropped (see below).
    """
    if isinstance(schema, list):
        return [grammar_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: grammar_schema(value) for key, value in schema.items()}
    # llama.cpp expands a length or item bound into nested optional rules; past a couple of thousand it
    # fails to parse the grammar and the process dies (SIGSEGV, seen with maxLength 2000). Large bounds
    # are dropped from the grammar: max_tokens still caps the reply and pydantic still validates it.
    for key in ("maxLength", "minLength", "maxItems", "minItems"):
        bound = out.get(key)
        if isinstance(bound, int) and not isinstance(bound, bool) and bound > _MAX_GRAMMAR_REPEAT:
            del out[key]
    if out.get("type") == "number" and "enum" not in out:
        return _number_grid(out)
    if out.get("type") != "integer" or "enum" in out:
        return out
    lo, hi = out.get("minimum"), out.get("maximum")
    if isinstance(out.get("exclusiveMinimum"), int | float):
        lo = math.floor(out["exclusiveMinimum"]) + 1
    if isinstance(out.get("exclusiveMaximum"), int | float):
        hi = math.ceil(out["exclusiveMaximum"]) - 1
    if isinstance(lo, int | float) and isinstance(hi, int | float) and 0 <= hi - lo <= _MAX_ENUM_RANGE:
        out["enum"] = list(range(math.ceil(lo), math.floor(hi) + 1))
    return out


def _number_grid(schema: dict[str, Any]) -> dict[str, Any]:
    """A bounded number becomes a choice of evenly spaced values: llama.cpp's number grammar allows
    unlimited digits, and small models were seen writing ``1.0000000...`` until max_tokens cut the JSON."""
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if not (isinstance(lo, int | float) and isinstance(hi, int | float)) or not hi > lo:
        return schema
    values = sorted({round(lo + (hi - lo) * i / (_NUMBER_GRID - 1), 3) for i in range(_NUMBER_GRID)})
    return {**schema, "enum": values}


def reply_char_cap(max_tokens: int) -> int:
    """The longest reply ``max_tokens`` can honestly produce; anything longer is a broken server."""
    return max_tokens * 32 + 1024


def schema_note(schema: dict[str, Any]) -> str:
    return "Reply with one JSON object that follows this JSON schema:\n" + json.dumps(schema, sort_keys=True)


def with_system_note(messages: list[dict[str, Any]], note: str) -> list[dict[str, Any]]:
    """Append ``note`` to the first system message (or add one), keeping each role's prefix byte-stable."""
    if not note:
        return messages
    if messages and messages[0].get("role") == "system":
        first = dict(messages[0])
        first["content"] = f"{first.get('content') or ''}\n\n{note}".lstrip()
        return [first, *messages[1:]]
    return [{"role": "system", "content": note}, *messages]
