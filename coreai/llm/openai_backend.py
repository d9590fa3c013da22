"""The ``openai`` backend: any OpenAI-compatible server (LM Studio, Ollama, llama.cpp server, vLLM, hosted).

Built on the official ``openai`` SDK with ``max_retries=0`` (retrying is the decorators' job) and short
connect/read timeouts. Every request streams, so ``LlmRequest.cancel`` stops it between two chunks and
``complete`` is the same stream, accumulated. Streamed tool-call deltas are merged even when a local server
leaves out their ``index`` or ``id``.

Structured output: a ``response_schema`` is sent in the first ``response_format`` shape the server accepts
(``coreai.llm.openai_formats``: the shapes, their order, and the one each server took). The schema is also
stated in the system message, for servers without grammars.
Every failure leaves as an ``LlmError`` with a stable code (see ``map_openai_error``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator, Iterator
from contextlib import closing
from typing import Any

import httpx2
import openai
from loguru import logger
from pydantic import ValidationError

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm import guard
from coreai.llm.config import OpenAILlmConfig
from coreai.llm.openai_formats import (
    STRUCTURED_FORMATS,
    error_text,
    rejects_format,
    remember_format,
    remembered_format,
    response_format_for,
)
from coreai.llm.openai_stream import StreamAccumulator, chunks_of
from coreai.llm.replies import (
    check_tool_calls,
    extract_json_text,
    grammar_schema,
    parse_json_object,
    reply_char_cap,
    schema_note,
    stops_mid_json,
    with_system_note,
)
from coreai.llm.types import ChatMessage, LlmChunk, LlmRequest, LlmResult

PLACEHOLDER_API_KEY = "sk-no-key-required"  # the SDK insists on a key; local servers ignore its value
CUT_OFF = (
    "the server cut the reply off, at max_tokens or where its context window ends (llama_cpp.server shrinks "
    "max_tokens to what the window has left, and reports a forced tool's cut-off call as finished)"
)
_ROUTE_MISSING = (404, 405, 501)


class OpenAIBackend:
    """``LlmClient`` over an OpenAI-compatible HTTP server."""

    def __init__(self, config: OpenAILlmConfig, *, name: str = "openai") -> None:
        self.name = name
        self.config = config
        self.model = config.model
        base_url = config.base_url or os.environ.get("OPENAI_BASE_URL") or None
        api_key = config.api_key or os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_API_KEY
        self._timeout = openai.Timeout(config.read_timeout_s, connect=config.connect_timeout_s)
        try:
            self._client = openai.OpenAI(
                api_key=api_key, base_url=base_url, max_retries=0, timeout=self._timeout
            )
        except Exception as exc:
            raise LlmError(
                LlmErrorCode.UNAVAILABLE, f"cannot set up the client: {exc}", backend=name
            ) from exc
        self.base_url = str(self._client.base_url).rstrip("/")
        self._first_format = STRUCTURED_FORMATS[0] if config.send_json_schema else "json_object"
        self._log = logger.bind(feature="llm", trace_id=f"{name}-client")

    # ---- LlmClient --------------------------------------------------------------------------------------

    def complete(self, request: LlmRequest) -> LlmResult:
        guard.check_real_call(self.name)
        run = self._run(request)
        while True:
            try:
                next(run)
            except StopIteration as done:
                result: LlmResult = done.value
                return result

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        guard.check_real_call(self.name)
        return self._iterate(request)

    def _iterate(self, request: LlmRequest) -> Iterator[LlmChunk]:
        yield from self._run(request)

    # ---- health -----------------------------------------------------------------------------------------

    def list_models(self) -> list[str] | None:
        """Model ids from ``GET /models``; ``None`` when the server has no such route."""
        try:
            page = self._client.models.list()
            return [m.id for m in page.data]
        except openai.APIStatusError as exc:
            if exc.status_code in _ROUTE_MISSING:
                return None
            raise map_openai_error(exc, self.name) from exc
        except Exception as exc:
            raise map_openai_error(exc, self.name) from exc

    def ping_chat(self) -> None:
        """A one-token chat POST, for servers without ``/models``."""
        guard.check_real_call(self.name)
        try:
            self._client.chat.completions.create(
                model=self.model, max_tokens=1, messages=[{"role": "user", "content": "ping"}]
            )
        except Exception as exc:
            raise map_openai_error(exc, self.name) from exc

    def close(self) -> None:
        self._client.close()

    # ---- one request ------------------------------------------------------------------------------------

    def _run(self, request: LlmRequest) -> Generator[LlmChunk, None, LlmResult]:
        trace = request.trace_id or None
        t0 = time.perf_counter()
        deadline = None if request.timeout_s is None else time.monotonic() + request.timeout_s
        kwargs = self._kwargs(request)
        cap = reply_char_cap(kwargs["max_tokens"])
        acc = StreamAccumulator()
        try:
            with closing(self._open(kwargs, request)) as stream:
                for chunk in chunks_of(stream):
                    if request.cancel.is_set():
                        raise LlmError(
                            LlmErrorCode.CANCELLED,
                            "cancelled between chunks",
                            backend=self.name,
                            trace_id=trace,
                        )
                    if deadline is not None and time.monotonic() > deadline:
                        raise LlmError(
                            LlmErrorCode.TIMEOUT,
                            f"no complete reply within {request.timeout_s:g}s",
                            backend=self.name,
                            trace_id=trace,
                        )
                    piece = acc.add(chunk)
                    if acc.size > cap:
                        raise LlmError(
                            LlmErrorCode.MALFORMED_OUTPUT,
                            f"reply exceeds {cap} characters, more than max_tokens="
                            f"{kwargs['max_tokens']} can produce",
                            backend=self.name,
                            trace_id=trace,
                        )
                    if piece is not None:
                        yield piece
        except LlmError:
            raise
        except Exception as exc:
            raise map_openai_error(exc, self.name, trace) from exc
        result = self._finish(request, acc, trace)
        for call in result.tool_calls:
            yield LlmChunk(tool_call=call)
        yield LlmChunk(finish_reason=result.finish_reason)
        return LlmResult(
            content=result.content,
            reasoning=result.reasoning,
            tool_calls=result.tool_calls,
            finish_reason=result.finish_reason,
            usage=result.usage,
            backend=self.name,
            model=acc.model or self.model,
            latency_s=time.perf_counter() - t0,
        )

    def _kwargs(self, request: LlmRequest) -> dict[str, Any]:
        messages = [_to_openai(m) for m in request.messages]
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max(1, min(request.max_tokens, self.config.max_tokens)),
            "temperature": request.temperature,
            **_penalties(request),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.timeout_s is not None:
            kwargs["timeout"] = openai.Timeout(
                min(self.config.read_timeout_s, request.timeout_s),
                connect=min(self.config.connect_timeout_s, request.timeout_s),
            )
        if request.tools and request.tool_choice != "none":
            # the schemas the in-process model's grammar gets (``grammar_schema``): a llama.cpp server builds
            # a forced tool's grammar from them the same way (string and item bounds up to 512 kept, larger
            # ones dropped, bounded numbers as choices)
            kwargs["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": grammar_schema(t.parameters),
                    },
                }
                for t in request.tools
            ]
            kwargs["tool_choice"] = (
                "auto"
                if request.tool_choice == "auto"
                else {"type": "function", "function": {"name": request.tool_choice}}
            )
        elif request.response_schema is not None:
            messages = with_system_note(messages, schema_note(request.response_schema))
            fmt = response_format_for(self._structured_format(), grammar_schema(request.response_schema))
            if fmt is not None:
                kwargs["response_format"] = fmt
        kwargs["messages"] = messages
        return kwargs

    def _structured_format(self) -> str:
        return remembered_format(self.base_url) or self._first_format

    def _next_formats(self) -> list[str]:
        start = STRUCTURED_FORMATS.index(self._structured_format())
        return list(STRUCTURED_FORMATS[start + 1 :])

    def _open(self, kwargs: dict[str, Any], request: LlmRequest) -> Any:
        structured = request.response_schema is not None and "tools" not in kwargs
        try:
            return self._client.chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            if not structured or not rejects_format(exc):
                raise
            first_error = exc
        assert request.response_schema is not None
        schema = grammar_schema(request.response_schema)
        log = self._log.bind(trace_id=request.trace_id)
        tried = self._structured_format()
        for shape in self._next_formats():
            log.warning(
                "{} rejected response_format {} ({}: {}); trying {}",
                self.base_url,
                tried,
                first_error.status_code,
                error_text(first_error)[:160],
                shape,
            )
            attempt = {k: v for k, v in kwargs.items() if k != "response_format"}
            fmt = response_format_for(shape, schema)
            if fmt is not None:
                attempt["response_format"] = fmt
            try:
                stream = self._client.chat.completions.create(**attempt)
            except openai.APIStatusError as exc:
                if not rejects_format(exc):
                    raise
                first_error, tried = exc, shape
                continue
            remember_format(self.base_url, shape)
            log.info("{} takes structured output as {} (remembered)", self.base_url, shape)
            return stream
        raise first_error

    def _finish(self, request: LlmRequest, acc: StreamAccumulator, trace: str | None) -> LlmResult:
        if acc.finish_reason is None:
            if acc.chunks == 0:
                raise LlmError(
                    LlmErrorCode.EMPTY_RESPONSE, "the server sent no reply", backend=self.name, trace_id=trace
                )
            raise LlmError(
                LlmErrorCode.UNAVAILABLE,
                "the stream ended before the reply finished (truncated)",
                backend=self.name,
                trace_id=trace,
            )
        content, reasoning = acc.text()
        calls = acc.tool_calls()
        if calls:
            for call in calls:
                if stops_mid_json(call.arguments):
                    raise LlmError(
                        LlmErrorCode.MALFORMED_OUTPUT,
                        f"arguments of tool '{call.name}' stop mid-JSON after {len(call.arguments)} "
                        f"characters (finish_reason {acc.finish_reason}): {CUT_OFF}",
                        backend=self.name,
                        trace_id=trace,
                    )
            check_tool_calls(calls, request.tools, self.name, trace)
        elif request.response_schema is not None and content:
            cut = f" ({CUT_OFF})" if acc.finish_reason == "length" or stops_mid_json(content) else ""
            obj = parse_json_object(extract_json_text(content), f"reply{cut}", self.name, trace)
            content = json.dumps(obj)
        if not content and not calls:
            raise LlmError(
                LlmErrorCode.EMPTY_RESPONSE,
                "the model replied with nothing",
                backend=self.name,
                trace_id=trace,
            )
        return LlmResult(
            content=content,
            reasoning=reasoning,
            tool_calls=calls,
            finish_reason="tool_calls" if calls else acc.finish_reason,
            usage=acc.usage,
        )


def _penalties(request: LlmRequest) -> dict[str, Any]:
    """A repeat penalty as OpenAI's ``frequency_penalty`` (0..2; llama.cpp servers honour it too)."""
    if request.repeat_penalty is None or request.repeat_penalty <= 1.0:
        return {}
    return {"frequency_penalty": round(min(2.0, request.repeat_penalty - 1.0), 3)}


def _to_openai(message: ChatMessage) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            # a string, never null: llama_cpp.server's request model rejects a null content (a 500 with
            # "7 validation errors"), and an empty string is what OpenAI itself accepts beside tool_calls
            "content": message.content,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}


def map_openai_error(exc: BaseException, backend: str, trace_id: str | None = None) -> LlmError:
    """The stable code of any failure the SDK or the transport raises."""
    if isinstance(exc, LlmError):
        return exc

    def err(code: LlmErrorCode, message: str) -> LlmError:
        return LlmError(code, message, backend=backend, trace_id=trace_id)

    if isinstance(exc, openai.APITimeoutError | httpx2.TimeoutException | TimeoutError):
        return err(LlmErrorCode.TIMEOUT, "the server did not answer in time")
    if isinstance(exc, openai.APIConnectionError | httpx2.TransportError | ConnectionError):
        return err(LlmErrorCode.UNAVAILABLE, f"cannot reach the server ({_cause(exc)})")
    if isinstance(exc, openai.APIStatusError):
        status, text = exc.status_code, error_text(exc)
        if status == 429:
            quota = any(w in text.lower() for w in ("quota", "billing", "credit"))
            return err(LlmErrorCode.QUOTA_EXCEEDED if quota else LlmErrorCode.RATE_LIMITED, f"429: {text}")
        if status in (401, 403):
            return err(LlmErrorCode.AUTH, f"{status}: {text} (check api_key / OPENAI_API_KEY)")
        if status == 408:
            return err(LlmErrorCode.TIMEOUT, f"408: {text}")
        if status >= 500 or status in _ROUTE_MISSING:
            return err(LlmErrorCode.UNAVAILABLE, f"{status}: {text}")
        return err(LlmErrorCode.MALFORMED_OUTPUT, f"the server refused the request ({status}: {text})")
    if isinstance(
        exc,
        openai.APIResponseValidationError
        | json.JSONDecodeError
        | ValidationError
        | ValueError
        | TypeError
        | KeyError
        | AttributeError,
    ):
        what = f"{type(exc).__name__}: {str(exc)[:150]}"
        return err(LlmErrorCode.MALFORMED_OUTPUT, f"unreadable reply ({what})")
    if isinstance(exc, openai.APIError):
        return err(LlmErrorCode.UNAVAILABLE, f"the server reported an error: {str(exc)[:200]}")
    return err(LlmErrorCode.UNAVAILABLE, f"unexpected failure ({type(exc).__name__}: {str(exc)[:160]})")


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    return f"{type(inner).__name__}: {inner}"[:200] if inner is not None else str(exc)[:200]
