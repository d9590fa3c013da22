"""The ``local`` backend: a GGUF model run in this process by llama-cpp-python.

A ``Llama`` object is not thread-safe, so each ``LocalLlmClient`` owns one ``Llama`` and one owner thread
that loads it and runs every request, fed by a queue. Callers on any thread block only on their own request
(``complete``) or iterate its chunks (``stream``); the game's frame thread never calls in directly.

Generation always streams inside the owner thread, so ``LlmRequest.cancel`` (or a timeout, or a consumer
that stops iterating) stops it between two tokens. Structured replies and tool calls are forced by a
grammar built from a JSON schema (``coreai.llm.local_prompt``; one generation is ``coreai.llm.local_run``);
``<think>`` spans go to the reasoning channel. llama.cpp reuses the KV state of the longest common token
prefix with the previous request on the same context, so the requests of one role (which share a
byte-stable system prefix) skip re-evaluating it; each role gets its own context
(``coreai.llm.local_contexts``, up to ``LocalLlmConfig.contexts``), and ``prompt_cache_mb`` or
``prompt_cache_bytes`` can add a ``LlamaRAMCache`` on top (off by default: saving a state after each
request costs time). Each role's evaluated prefix is also saved to disk once (``coreai.llm.local_state``,
``prefix_store_mb``), so the next session's first request of that role starts warm.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from loguru import logger

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm import guard
from coreai.llm.config import LocalLlmConfig
from coreai.llm.health import require_model_file
from coreai.llm.local_contexts import RoleContexts
from coreai.llm.local_run import Event, LocalJob, RunCost, failure, generate, prefill
from coreai.llm.local_state import PrefixStore, open_store
from coreai.llm.local_tokens import TokenCounter
from coreai.llm.replies import parse_structured
from coreai.llm.types import LlmChunk, LlmRequest, LlmResult

__all__ = ["LocalLlmClient", "LocalStats", "ProgressCallback", "parse_structured"]

ProgressCallback = Callable[[float, str], None]
_MAX_QUEUED = 64
_CANCEL_GRACE_S = 5.0  # how long a cancelled caller waits for the owner thread to stop between tokens
_POLL_S = 0.05
_CLOSE_WAIT_S = 30.0
BACKGROUND_PREFIX = "warmup-"  # requests with such a trace id run after every other queued request


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
        self._cache_bytes = prompt_cache_bytes or config.prompt_cache_mb * 1_000_000
        self.tokens = TokenCounter(config.model_path)
        self._on_progress = on_progress
        # (rank, seq, job): warm-up jobs (trace id "warmup-...") wait behind requests someone waits on;
        # None (close) goes first
        self._jobs: queue.PriorityQueue[tuple[int, int, LocalJob | None]] = queue.PriorityQueue(
            maxsize=_MAX_QUEUED
        )
        self._seq = itertools.count()
        self._ready = threading.Event()
        self._closed = threading.Event()
        self._current: LocalJob | None = None
        self._load_error: LlmError | None = None
        self._stats = LocalStats()
        self._stats_lock = threading.Lock()
        self._log = logger.bind(feature="llm", trace_id=f"{name}-owner")
        self._llm: Any = None
        self._contexts: RoleContexts | None = None
        self._store: PrefixStore | None = None
        self._thread = threading.Thread(target=self._owner_loop, name=f"llm-{name}-owner", daemon=True)
        self._thread.start()

    # ---- public API -------------------------------------------------------------------------------------

    @property
    def n_ctx(self) -> int:
        """The context window every request (prompt plus ``max_tokens``) must fit."""
        return self.config.n_ctx

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
            raise self._error(LlmErrorCode.TIMEOUT, f"model still loading after {timeout_s:g}s", None)
        if self._load_error is not None:
            raise self._load_error

    def complete(self, request: LlmRequest) -> LlmResult:
        guard.check_real_call(self.name)
        job = self._submit(request, streaming=False)
        deadline = None if request.timeout_s is None else time.monotonic() + request.timeout_s
        return self._await_result(job, deadline)

    def prefill(self, request: LlmRequest, timeout_s: float = 300.0) -> LlmResult:
        """Evaluate ``request``'s first message (its role's stable prompt prefix) into that role's context,
        with no reply, ahead of need (startup warm-up). It runs behind every other queued request and gives
        way, between two chunks of tokens, to any request that arrives meanwhile; what was evaluated stays.
        ``finish_reason`` is "prefilled", or "interrupted" when it gave way."""
        guard.check_real_call(self.name)
        job = self._submit(request, streaming=False, prefill=True)
        return self._await_result(job, time.monotonic() + timeout_s)

    def _await_result(self, job: LocalJob, deadline: float | None) -> LlmResult:
        """The job's final result (its streamed pieces are skipped), or its error."""
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
        """Stop the running request between two tokens, answer queued ones UNAVAILABLE, free the model."""
        self._closed.set()
        if (current := self._current) is not None:
            current.abort.set()
        if self._thread.is_alive():
            try:
                self._jobs.put((-1, next(self._seq), None), timeout=timeout_s)
            except queue.Full:
                return  # the owner thread sees ``_closed`` after its current job
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                # loading a context cannot be interrupted; a process that exits while llama.cpp runs on
                # another thread can crash, so wait for the load (seconds) rather than leave it running
                self._log.warning("owner thread still busy after {:g}s; waiting for it", timeout_s)
                self._thread.join(_CLOSE_WAIT_S)

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

    def _submit(self, request: LlmRequest, streaming: bool, prefill: bool = False) -> LocalJob:
        if self._closed.is_set() or not self._thread.is_alive():
            raise LlmError(
                LlmErrorCode.UNAVAILABLE,
                "the local model was closed",
                backend=self.name,
                trace_id=request.trace_id or None,
            )
        job = LocalJob(request, streaming, prefill=prefill)
        try:
            rank = 1 if prefill or request.trace_id.startswith(BACKGROUND_PREFIX) else 0
            self._jobs.put_nowait((rank, next(self._seq), job))
        except queue.Full:
            raise LlmError(
                LlmErrorCode.RATE_LIMITED,
                f"local model busy: {_MAX_QUEUED} requests queued",
                backend=self.name,
                trace_id=request.trace_id or None,
            ) from None
        return job

    def _next_event(self, job: LocalJob, deadline: float | None) -> Event:
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
            llm = self._new_context()
        except Exception as exc:
            raise self._error(
                LlmErrorCode.UNAVAILABLE,
                f"could not load model {cfg.model_path} ({exc}); the file may be corrupt or "
                "not a llama.cpp model; the game falls back to the rules backend",
                None,
            ) from exc
        self._llm = llm
        self._contexts = RoleContexts(self._new_context, cfg.contexts, first=llm)
        self._store = open_store(cfg)
        load_s = time.perf_counter() - t0
        with self._stats_lock:
            self._stats = replace(self._stats, load_s=load_s)
        self._progress(
            1.0,
            f"ready in {load_s:.2f}s (n_ctx={cfg.n_ctx}, threads={cfg.n_threads}, "
            f"gpu_layers={cfg.n_gpu_layers})",
        )

    def _new_context(self) -> Any:
        """A ``Llama`` over the model file (owner thread only)."""
        from llama_cpp import Llama, LlamaRAMCache

        from coreai.llm.llama_quiet import keep_process_output

        cfg = self.config
        keep_process_output()
        with _no_weight_repacking():
            llm = Llama(
                model_path=cfg.model_path,
                n_ctx=cfg.n_ctx,
                n_threads=cfg.n_threads,
                n_threads_batch=cfg.n_threads,
                n_gpu_layers=cfg.n_gpu_layers,
                chat_format=cfg.chat_format,
                verbose=False,
            )
        if self._cache_bytes > 0:
            llm.set_cache(LlamaRAMCache(capacity_bytes=self._cache_bytes))
        return llm

    def _owner_loop(self) -> None:
        try:
            self._load()
        except LlmError as exc:
            self._load_error = exc
            self._log.error("{}", exc)
        self._ready.set()
        while True:
            _, _, job = self._jobs.get()
            if job is None:
                break
            if self._closed.is_set():
                self._answer_closed(job)
                break
            if job.stopped():
                continue  # its caller already answered CANCELLED or TIMEOUT
            job.started.set()
            self._current = job
            try:
                self._run(job)
            except Exception as exc:  # llama.cpp refused the request (context overflow, bad grammar...)
                job.out.put(failure(exc, self.name, job.request.trace_id, self._log))
        self._llm = None
        if self._contexts is not None:
            self._contexts.clear()
        self._answer_leftovers()

    def _run(self, job: LocalJob) -> None:
        if self._load_error is not None:
            raise self._load_error
        assert self._contexts is not None
        llm = self._contexts.get(job.request.role)
        prefix = self._store.warm(llm, job.request, self.name) if self._store is not None else None
        try:
            if job.prefill:
                interrupted = self._foreground_waiting
                job.out.put(prefill(llm, job, backend=self.name, interrupted=interrupted, count=self._count))
            else:
                cap = self.config.max_tokens
                result = generate(
                    llm, job, max_tokens_cap=cap, backend=self.name, model=self.model, count=self._count
                )
                job.out.put(result)
        finally:  # also after a cancelled request: its prompt was evaluated all the same
            if self._store is not None and prefix is not None:
                self._store.keep(llm, job.request.role, prefix)

    def _foreground_waiting(self) -> bool:
        """A queued request that someone waits on (not a warm-up): a prefill gives way to it."""
        with self._jobs.mutex:
            return any(rank == 0 for rank, _, job in self._jobs.queue if job is not None)

    def _answer_leftovers(self) -> None:
        """Jobs still queued when the client closed get an answer instead of waiting forever."""
        while True:
            try:
                _, _, job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job is not None:
                self._answer_closed(job)

    def _answer_closed(self, job: LocalJob) -> None:
        trace = job.request.trace_id or None
        job.out.put(self._error(LlmErrorCode.UNAVAILABLE, "the local model was closed", trace))

    def _count(self, cost: RunCost) -> None:
        with self._stats_lock:
            s = self._stats
            self._stats = replace(
                s,
                requests=s.requests + 1,
                cancelled=s.cancelled + int(cost.cancelled),
                completion_tokens=s.completion_tokens + cost.completion_tokens,
                last_prompt_tokens=cost.prompt_tokens,
                last_cached_tokens=cost.cached_tokens,
                last_completion_tokens=cost.completion_tokens,
                last_prompt_eval_s=cost.prompt_eval_s,
            )


_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def _no_weight_repacking() -> Iterator[None]:
    """Load the model without llama.cpp's extra CPU buffer types (weight repacking, AMX): with them,
    llama-cpp-python 0.3.36 built on an AMX Xeon (this project's CI and dev machines) segfaults in the
    first multi-token decode. ``Llama`` takes no such argument, so its default model params are wrapped
    while it loads (one load at a time)."""
    import llama_cpp.llama as llama_module

    module = llama_module.llama_cpp
    default = module.llama_model_default_params

    def params() -> Any:
        p = default()
        if hasattr(p, "use_extra_bufts"):
            p.use_extra_bufts = False
        return p

    with _PARAMS_LOCK:
        module.llama_model_default_params = params
        try:
            yield
        finally:
            module.llama_model_default_params = default
