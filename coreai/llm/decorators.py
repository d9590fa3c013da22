"""LLM client decorators: timeout, logging and retry, stacked around the routing client.

``build_pipeline(client, ...)`` composes ``Logging(Timeout(Retry(client)))``: the timeout bounds the whole
logical call including retries, the log shows one ▶ line and one ◀ / ⏱ / ✖ line per logical call (each
retry adds a ↻ line), and retries apply only to retryable codes (timeout, rate limited, backend
unavailable). Every layer honours ``LlmRequest.cancel`` and reports failures as ``LlmError`` with a code.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import replace
from queue import Empty, SimpleQueue
from typing import Any

from loguru import logger

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.types import LlmChunk, LlmClient, LlmRequest, LlmResult

_log = logger.bind(feature="llm")
_POLL_S = 0.1  # how often a waiting call checks the caller's cancel event


def backend_for(client: Any, role: str, override: str | None = None) -> str:
    """The concrete backend name a request of ``role`` goes to (routing-aware); ``override`` is a
    request's own backend (``LlmRequest.backend``), which wins over the role's route."""
    if override:
        return override
    fn = getattr(client, "backend_for", None)
    return str(fn(role)) if callable(fn) else str(getattr(client, "name", "?"))


def unwrap(client: Any) -> Any:
    """The innermost client under any decorators."""
    while hasattr(client, "inner"):
        client = client.inner
    return client


class _Decorator:
    def __init__(self, inner: LlmClient) -> None:
        self.inner = inner
        self.name = inner.name

    def backend_for(self, role: str) -> str:
        return backend_for(self.inner, role)


def _cancelled(request: LlmRequest, backend: str) -> LlmError:
    return LlmError(
        LlmErrorCode.CANCELLED, "cancelled by the caller", backend=backend, trace_id=request.trace_id
    )


class TimeoutClient(_Decorator):
    """Bounds a call to ``request.timeout_s`` (or ``default_timeout_s``); on expiry the inner call is told
    to stop through its own cancel event, and the caller gets ``LlmError(TIMEOUT)`` right away."""

    def __init__(self, inner: LlmClient, default_timeout_s: float = 30.0, max_workers: int = 8) -> None:
        super().__init__(inner)
        self.default_timeout_s = default_timeout_s
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="llm-timeout")

    def _child(self, request: LlmRequest) -> LlmRequest:
        return replace(request, cancel=threading.Event())

    def _limit(self, request: LlmRequest) -> float:
        return request.timeout_s if request.timeout_s is not None else self.default_timeout_s

    def _timeout(self, request: LlmRequest, limit: float) -> LlmError:
        backend = backend_for(self.inner, request.role, request.backend)
        return LlmError(
            LlmErrorCode.TIMEOUT, f"no reply within {limit:g}s", backend=backend, trace_id=request.trace_id
        )

    def complete(self, request: LlmRequest) -> LlmResult:
        limit = self._limit(request)
        child = self._child(request)
        deadline = time.monotonic() + limit
        future: Future[LlmResult] = self._pool.submit(self.inner.complete, child)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                child.cancel.set()
                future.cancel()
                raise self._timeout(request, limit)
            if request.cancel.is_set():
                child.cancel.set()
                future.cancel()
                raise _cancelled(request, backend_for(self.inner, request.role, request.backend))
            wait([future], timeout=min(_POLL_S, remaining))
            if future.done():
                return future.result()

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        limit = self._limit(request)
        child = self._child(request)
        deadline = time.monotonic() + limit
        chunks: SimpleQueue[tuple[str, Any]] = SimpleQueue()

        def pump() -> None:
            try:
                for chunk in self.inner.stream(child):
                    chunks.put(("chunk", chunk))
                    if child.cancel.is_set():
                        break
                chunks.put(("end", None))
            except BaseException as exc:
                chunks.put(("error", exc))

        self._pool.submit(pump)
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self._timeout(request, limit)
                if request.cancel.is_set():
                    raise _cancelled(request, backend_for(self.inner, request.role, request.backend))
                try:
                    kind, value = chunks.get(timeout=min(_POLL_S, remaining))
                except Empty:
                    continue
                if kind == "end":
                    return
                if kind == "error":
                    raise value
                yield value
        finally:
            child.cancel.set()


class LoggingClient(_Decorator):
    """One ``LLM ▶`` line per request, then ``LLM ◀`` (reply), ``LLM ⏱`` (timeout) or ``LLM ✖`` (error)."""

    def _request_line(self, request: LlmRequest, backend: str) -> None:
        _log.info(
            "LLM ▶ role={} backend={} messages={} tools={} max_tokens={}",
            request.role,
            backend,
            len(request.messages),
            len(request.tools),
            request.max_tokens,
            trace_id=request.trace_id,
        )

    def _failure_line(self, request: LlmRequest, backend: str, exc: LlmError, elapsed: float) -> None:
        mark = "⏱" if exc.code is LlmErrorCode.TIMEOUT else "✖"
        level = "INFO" if exc.code is LlmErrorCode.CANCELLED else "WARNING"
        _log.log(
            level,
            "LLM {} role={} backend={} code={} latency={:.3f}s: {}",
            mark,
            request.role,
            backend,
            exc.code.value,
            elapsed,
            exc.message,
            trace_id=request.trace_id,
        )

    def complete(self, request: LlmRequest) -> LlmResult:
        backend = backend_for(self.inner, request.role, request.backend)
        self._request_line(request, backend)
        started = time.perf_counter()
        try:
            result = self.inner.complete(request)
        except LlmError as exc:
            self._failure_line(request, backend, exc, time.perf_counter() - started)
            raise
        _log.info(
            "LLM ◀ role={} backend={} tokens={}+{} (cached {}) tool_calls={} finish={} latency={:.3f}s",
            request.role,
            result.backend,
            result.usage.prompt_tokens,
            result.usage.completion_tokens,
            result.usage.cached_prompt_tokens,
            len(result.tool_calls),
            result.finish_reason,
            time.perf_counter() - started,
            trace_id=request.trace_id,
        )
        return result

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        backend = backend_for(self.inner, request.role, request.backend)
        self._request_line(request, backend)
        started = time.perf_counter()
        chars = 0
        try:
            for chunk in self.inner.stream(request):
                chars += len(chunk.content)
                yield chunk
        except LlmError as exc:
            self._failure_line(request, backend, exc, time.perf_counter() - started)
            raise
        _log.info(
            "LLM ◀ role={} backend={} streamed_chars={} latency={:.3f}s",
            request.role,
            backend,
            chars,
            time.perf_counter() - started,
            trace_id=request.trace_id,
        )


class RetryClient(_Decorator):
    """Retries retryable failures with jittered exponential backoff; the wait ends early on cancel.
    A stream is retried only if it failed before its first chunk."""

    def __init__(
        self, inner: LlmClient, attempts: int = 2, base_delay_s: float = 0.25, max_delay_s: float = 4.0
    ) -> None:
        super().__init__(inner)
        self.attempts = attempts
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s

    def _backoff(self, request: LlmRequest, attempt: int, exc: LlmError) -> None:
        delay = min(self.max_delay_s, self.base_delay_s * (2**attempt)) * (0.5 + random.random() / 2)
        _log.info(
            "LLM ↻ retry {}/{} in {:.2f}s after {}", attempt + 1, self.attempts, delay, exc.code.value,
            trace_id=request.trace_id,
        )  # fmt: skip
        if request.cancel.wait(delay):
            raise _cancelled(request, exc.backend) from exc

    def complete(self, request: LlmRequest) -> LlmResult:
        attempt = 0
        while True:
            try:
                return self.inner.complete(request)
            except LlmError as exc:
                if not exc.retryable or attempt >= self.attempts or request.cancel.is_set():
                    raise
                self._backoff(request, attempt, exc)
                attempt += 1

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        attempt = 0
        while True:
            started = False
            try:
                for chunk in self.inner.stream(request):
                    started = True
                    yield chunk
                return
            except LlmError as exc:
                if started or not exc.retryable or attempt >= self.attempts or request.cancel.is_set():
                    raise
                self._backoff(request, attempt, exc)
                attempt += 1


def build_pipeline(
    client: LlmClient,
    *,
    timeout_s: float = 30.0,
    retry_attempts: int = 2,
    retry_base_delay_s: float = 0.25,
    retry_max_delay_s: float = 4.0,
) -> LlmClient:
    """``Logging(Timeout(Retry(client)))``."""
    retried = RetryClient(client, retry_attempts, retry_base_delay_s, retry_max_delay_s)
    return LoggingClient(TimeoutClient(retried, default_timeout_s=timeout_s))
