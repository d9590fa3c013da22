"""The ``local`` backend: a GGUF model run in this process by llama-cpp-python.

A ``Llama`` object is not thread-safe, so each ``LocalLlmClient`` owns one ``Llama`` and one owner thread
that loads it and runs every request, fed by a queue. Callers on any thread block only on their own request
(``complete``) or iterate its chunks (``stream``); the game's frame thread never calls in directly.

Generation always streams inside the owner thread, so ``LlmRequest.cancel`` (or a timeout, or a consumer
that stops iterating) stops it between two tokens. Structured replies and tool calls are forced by a
grammar built from a JSON schema (see ``coreai.llm.local_prompt``); ``<think>`` spans go to the reasoning
channel. llama.cpp reuses the KV state of the longest common token prefix with the previous request, so the
requests of one role (which share a byte-stable system prefix) skip re-evaluating it; give each role its own
client, or pass ``prompt_cache_bytes`` to keep several roles' states in a ``LlamaRAMCache``.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from loguru import logger

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm import guard
from coreai.llm.config import LocalLlmConfig
from coreai.llm.health import require_model_file
from coreai.llm.local_prompt import PreparedPrompt, finish_reply, prepare_prompt
from coreai.llm.replies import ThinkSplitter
from coreai.llm.types import LlmChunk, LlmRequest, LlmResult, Usage

ProgressCallback = Callable[[float, str], None]
_Event = LlmChunk | LlmResult | LlmError
_MAX_QUEUED = 64
_CANCEL_GRACE_S = 5.0  # how long a cancelled caller waits for the owner thread to stop between tokens
_POLL_S = 0.05


@dataclass(frozen=True)
class LocalStats:
    """Counters of one client, for tests, benchmarks and the debug overlay."""

    requests: int = 0
    cancelled: int = 0
    completion_tokens: int = 0
    last_prompt_tokens: int = 0
    last_cached_tokens: int = 0
    last_completion_tokens: int = 0
    last_prompt_eval_s: float = 0.0
    load_s: float = 0.0


@dataclass
class _Job:
    request: LlmRequest
    streaming: bool
    out: queue.Queue[_Event] = field(default_factory=queue.Queue)
    abort: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)

    def stopped(self) -> bool:
        return self.abort.is_set() or self.request.cancel.is_set()


class LocalLlmClient:
    """``LlmClient`` over one llama.cpp model; loads it on its owner thread right away."""

    def __init__(
        self,
        config: LocalLlmConfig,
        *,
        name: str = "local",
        prompt_cache_bytes: int = 0,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        self.name = name
        self.config = config
        self.model = Path(config.model_path).stem
        self._cache_bytes = prompt_cache_bytes
        self._on_progress = on_progress
        self._jobs: queue.Queue[_Job | None] = queue.Queue(maxsize=_MAX_QUEUED)
        self._ready = threading.Event()
        self._load_error: LlmError | None = None
        self._stats = LocalStats()
        self._stats_lock = threading.Lock()
        self._log = logger.bind(feature="llm", trace_id=f"{name}-owner")
        self._llm: Any = None
        self._thread = threading.Thread(target=self._owner_loop, name=f"llm-{name}-owner", daemon=True)
        self._thread.start()

    # ---- public API -------------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return self._ready.is_set() and self._load_error is None

    @property
    def stats(self) -> LocalStats:
        with self._stats_lock:
            return self._stats

    def wait_ready(self, timeout_s: float = 60.0) -> None:
        """Block until the model is loaded; raise its ``LlmError`` if loading failed."""
        if not self._ready.wait(timeout_s):
            raise LlmError(LlmErrorCode.TIMEOUT, f"model still loading after {timeout_s:g}s", backend=self.name)
        if self._load_error is not None:
            raise self._load_error

    def complete(self, request: LlmRequest) -> LlmResult:
        guard.check_real_call(self.name)
        job = self._submit(request, streaming=False)
        deadline = None if request.timeout_s is None else time.monotonic() + request.timeout_s
        while True:
            event = self._next_event(job, deadline)
            if isinstance(event, LlmResult):
                return event
            if isinstance(event, LlmError):
                raise event

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        guard.check_real_call(self.name)
        return self._iterate(request)

    def close(self, timeout_s: float = 5.0) -> None:
        """Stop the owner thread (after the request it is running) and free the model."""
        if self._thread.is_alive():
            try:
                self._jobs.put(None, timeout=timeout_s)
            except queue.Full:
                return
            self._thread.join(timeout_s)

    # ---- caller side ------------------------------------------------------------------------------------

    def _iterate(self, request: LlmRequest) -> Iterator[LlmChunk]:
        job = self._submit(request, streaming=True)
        deadline = None if request.timeout_s is None else time.monotonic() + request.timeout_s
        try:
            while True:
                event = self._next_event(job, deadline)
                if isinstance(event, LlmChunk):
                    yield event
                elif isinstance(event, LlmError):
                    raise event
                else:
                    return
        finally:
            job.abort.set()  # the consumer stopped iterating: the owner thread stops at the next token

    def _submit(self, request: LlmRequest, streaming: bool) -> _Job:
        if not self._thread.is_alive():
            raise LlmError(LlmErrorCode.UNAVAILABLE, "the local model was closed", backend=self.name,
                           trace_id=request.trace_id or None)
        job = _Job(request, streaming)
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            raise LlmError(LlmErrorCode.RATE_LIMITED, f"local model busy: {_MAX_QUEUED} requests queued",
                           backend=self.name, trace_id=request.trace_id or None) from None
        return job

    def _next_event(self, job: _Job, deadline: float | None) -> _Event:
        trace = job.request.trace_id or None
        while True:
            if job.request.cancel.is_set() and not job.started.is_set():
                job.abort.set()  # never started: the owner thread will skip it
                return self._error(LlmErrorCode.CANCELLED, "cancelled before it started", trace)
            wait = _POLL_S if deadline is None else max(0.0, min(_POLL_S, deadline - time.monotonic()))
            try:
                return job.out.get(timeout=wait)
            except queue.Empty:
                pass
            if job.request.cancel.is_set():
                try:  # started: it stops between two tokens and reports CANCELLED itself
                    return job.out.get(timeout=_CANCEL_GRACE_S)
                except queue.Empty:
                    return self._error(LlmErrorCode.CANCELLED, "cancelled", trace)
            if deadline is not None and time.monotonic() >= deadline:
                job.abort.set()
                return self._error(LlmErrorCode.TIMEOUT, f"no reply within {job.request.timeout_s:g}s", trace)

    def _error(self, code: LlmErrorCode, message: str, trace_id: str | None) -> LlmError:
        return LlmError(code, message, backend=self.name, trace_id=trace_id)

    # ---- owner thread -----------------------------------------------------------------------------------

    def _progress(self, fraction: float, stage: str) -> None:
        self._log.info("model {}: {} ({:.0%})", self.model, stage, fraction)
        if self._on_progress is not None:
            try:
                self._on_progress(fraction, stage)
            except Exception as exc:  # a broken progress bar must not stop the load
                self._log.warning("progress callback failed: {}", exc)

    def _load(self) -> None:
        cfg = self.config
        t0 = time.perf_counter()
        self._progress(0.0, "checking model file")
        require_model_file(cfg.model_path)
        size_mb = Path(cfg.model_path).stat().st_size / 1e6
        self._progress(0.1, f"loading {size_mb:.0f} MB of weights")
        try:
            from llama_cpp import Llama, LlamaRAMCache

            llm = Llama(model_path=cfg.model_path, n_ctx=cfg.n_ctx, n_threads=cfg.n_threads,
                        n_threads_batch=cfg.n_threads, n_gpu_layers=cfg.n_gpu_layers,
                        chat_format=cfg.chat_format, verbose=False)
            if self._cache_bytes > 0:
                llm.set_cache(LlamaRAMCache(capacity_bytes=self._cache_bytes))
        except Exception as exc:
            raise LlmError(LlmErrorCode.UNAVAILABLE,
                           f"could not load model {cfg.model_path} ({exc}); the file may be corrupt or not a "
                           "llama.cpp model; the game falls back to the rules backend", backend=self.name) from exc
        self._llm = llm
        load_s = time.perf_counter() - t0
        with self._stats_lock:
            self._stats = replace(self._stats, load_s=load_s)
        self._progress(1.0, f"ready in {load_s:.2f}s (n_ctx={cfg.n_ctx}, threads={cfg.n_threads}, "
                            f"gpu_layers={cfg.n_gpu_layers})")

    def _owner_loop(self) -> None:
        try:
            self._load()
        except LlmError as exc:
            self._load_error = exc
            self._log.error("{}", exc)
        self._ready.set()
        while True:
            job = self._jobs.get()
            if job is None:
                break
            if job.stopped():
                continue  # its caller already answered CANCELLED or TIMEOUT
            job.started.set()
            try:
                if self._load_error is not None:
                    raise self._load_error
                job.out.put(self._run(job))
            except LlmError as exc:
                job.out.put(exc if exc.trace_id else LlmError(exc.code, _plain(exc), backend=self.name,
                                                             trace_id=job.request.trace_id or None))
            except Exception as exc:  # llama.cpp refused the request (context overflow, bad grammar...)
                self._log.exception("local generation failed")
                job.out.put(self._error(LlmErrorCode.MALFORMED_OUTPUT, f"generation failed: {exc}",
                                        job.request.trace_id or None))
        self._llm = None

    def _run(self, job: _Job) -> LlmResult:
        req, llm = job.request, self._llm
        trace = req.trace_id or None
        prepared = prepare_prompt(req, self.config.max_tokens, self.name)
        cache_keys = list(llm.cache.cache_state.keys()) if llm.cache is not None else []
        previous_ids = np.array(llm.input_ids[: llm.n_tokens], copy=True)
        t0 = time.perf_counter()
        splitter = ThinkSplitter()
        content: list[str] = []
        reasoning: list[str] = []
        prompt_len: int | None = None
        prompt_eval_s = 0.0
        finish = "length"
        chunks = llm.create_chat_completion(messages=prepared.messages, response_format=prepared.response_format,
                                            max_tokens=prepared.max_tokens, temperature=req.temperature,
                                            stream=True)
        try:
            for chunk in chunks:
                if job.stopped():
                    self._count(prompt_len or 0, 0, cancelled=True)
                    raise self._error(LlmErrorCode.CANCELLED if req.cancel.is_set() else LlmErrorCode.TIMEOUT,
                                      "stopped between tokens", trace)
                choice = chunk["choices"][0]
                text = choice["delta"].get("content")
                if text:
                    if prompt_len is None:
                        prompt_len, prompt_eval_s = llm.n_tokens, time.perf_counter() - t0
                    visible, thought = splitter.feed(text)
                    content.append(visible)
                    reasoning.append(thought)
                    if job.streaming and prepared.streams_content and (visible or thought):
                        job.out.put(LlmChunk(content=visible, reasoning=thought))
                if choice.get("finish_reason"):
                    finish = choice["finish_reason"]
        finally:
            chunks.close()
        visible, thought = splitter.flush()
        content.append(visible)
        reasoning.append(thought)
        if prompt_len is None:
            prompt_len, prompt_eval_s = llm.n_tokens, time.perf_counter() - t0
        completion = max(0, llm.n_tokens - prompt_len + (0 if finish == "stop" else 1))
        cached = _cached_prefix(previous_ids, cache_keys, llm.input_ids[:prompt_len])
        self._count(prompt_len, completion, cached=cached, prompt_eval_s=prompt_eval_s)
        result = finish_reply(prepared, "".join(content), "".join(reasoning), finish, self.name, trace)
        result = replace(result, usage=Usage(prompt_len, completion, cached), backend=self.name,
                         model=self.model, latency_s=time.perf_counter() - t0)
        if job.streaming:
            if tail := _unstreamed(prepared, result):
                job.out.put(tail)
            for call in result.tool_calls:
                job.out.put(LlmChunk(tool_call=call))
            job.out.put(LlmChunk(finish_reason=result.finish_reason))
        return result

    def _count(self, prompt: int, completion: int, *, cached: int = 0, prompt_eval_s: float = 0.0,
               cancelled: bool = False) -> None:
        with self._stats_lock:
            s = self._stats
            self._stats = replace(s, requests=s.requests + 1, cancelled=s.cancelled + int(cancelled),
                                  completion_tokens=s.completion_tokens + completion,
                                  last_prompt_tokens=prompt, last_cached_tokens=cached,
                                  last_completion_tokens=completion if not cancelled else self._partial(),
                                  last_prompt_eval_s=prompt_eval_s)

    def _partial(self) -> int:
        llm = self._llm
        return int(llm.n_tokens) - self._stats.last_prompt_tokens if llm is not None else 0


def _plain(exc: LlmError) -> str:
    return exc.message.split(": ", 1)[-1]


def _unstreamed(prepared: PreparedPrompt, result: LlmResult) -> LlmChunk | None:
    """Buffered modes (tool choice in the reply) send their free-text reply as one chunk at the end."""
    if prepared.streams_content or not result.content:
        return None
    return LlmChunk(content=result.content)


def _cached_prefix(previous: np.ndarray, cache_keys: list[tuple[int, ...]], prompt: np.ndarray) -> int:
    """How many prompt tokens llama.cpp could take from its KV state or prompt cache."""
    best = _common_prefix(previous, prompt)
    for key in cache_keys:
        best = max(best, _common_prefix(np.asarray(key, dtype=prompt.dtype), prompt))
    return best


def _common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    n = min(len(a), len(b))
    diff = np.nonzero(a[:n] != b[:n])[0]
    return int(diff[0]) if diff.size else n
