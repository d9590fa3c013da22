"""Structured output over OpenAI-compatible servers: the ``response_format`` shapes, tried in order, and the
shape each server accepted (remembered per ``base_url`` for the rest of the process).

Servers disagree on ``response_format``: the standard ``{"type": "json_schema", "json_schema": {"name",
"schema", "strict"}}`` (OpenAI, LM Studio, vLLM, Ollama, llama.cpp's llama-server), llama.cpp-python's
``{"type": "json_object", "schema": ...}`` (its server returns 500 for json_schema), plain ``json_object``,
then no ``response_format`` at all.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import openai

STRUCTURED_FORMATS = ("json_schema", "json_object_schema", "json_object", "none")
_FORMAT_REJECTED = (400, 415, 422)
_format_lock = threading.Lock()
_format_by_server: dict[str, str] = {}  # base_url -> the structured-output shape it accepted


def rejects_format(exc: openai.APIStatusError) -> bool:
    """A refusal of the response_format (not a sick server): a 4xx, or a 5xx whose text names the field
    (llama_cpp.server answers json_schema with a 500 carrying its validation error)."""
    if exc.status_code in _FORMAT_REJECTED:
        return True
    return exc.status_code >= 500 and "response_format" in f"{error_text(exc)} {exc.body}"


def remembered_format(base_url: str) -> str | None:
    with _format_lock:
        return _format_by_server.get(base_url)


def forget_formats() -> None:
    """Drop what was learned about servers (tests; a server that was upgraded)."""
    with _format_lock:
        _format_by_server.clear()


def _schema_name(schema: dict[str, Any]) -> str:
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "reply"))[:64]
    return name or "reply"


def _strict_ok(schema: Any) -> bool:
    """OpenAI's strict mode needs every object closed (additionalProperties false) with all keys required."""
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            props = schema.get("properties", {})
            if schema.get("additionalProperties") is not False or set(schema.get("required", [])) != set(
                props
            ):
                return False
        return all(_strict_ok(v) for v in schema.values())
    if isinstance(schema, list):
        return all(_strict_ok(v) for v in schema)
    return True


def response_format_for(shape: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The ``response_format`` value of one structured-output shape (None: send none)."""
    if shape == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": _schema_name(schema), "schema": schema, "strict": _strict_ok(schema)},
        }
    if shape == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    if shape == "json_object":
        return {"type": "json_object"}
    return None


def remember_format(base_url: str, shape: str) -> None:
    with _format_lock:
        _format_by_server[base_url] = shape


def error_text(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            return str(inner.get("message") or inner.get("code") or inner)[:300]
        return str(inner)[:300]
    return (str(body) if body else exc.message)[:300]
