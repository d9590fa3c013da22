"""``QueuedOrchestrator``: agent tasks on a worker pool with priorities, a concurrency cap and cancellation.

- At most ``max_concurrent`` tasks run at once; the rest wait in a queue of at most ``max_pending``.
- Higher ``priority`` starts first; equal priorities start in submission order (FIFO).
- Latest wins per ``cancellation_scope``: a new task cancels the older pending tasks of its scope (they
  never start) and signals the older running ones (their cancel event is set; the LLM request carries it).
- ``cancel_tasks(scope)``, ``stop_agent(role)`` and ``TaskHandle.cancel()`` cancel on demand; a pending
  task cancelled by anyone never starts.
- ``statistics()`` counts queued, running, done, cancelled and failed tasks.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, Protocol

from loguru import logger

from coreai.errors import TaskCancelled
from coreai.events import EventBus, TaskEvent
from coreai.requests import AgentResult, AiTaskRequest, new_trace_id

_log = logger.bind(feature="agents")


class TaskRunner(Protocol):
    def run(self, request: AiTaskRequest, cancel: threading.Event) -> AgentResult: ...


@dataclass(frozen=True)
class QueueStats:
    queued: int
    running: int
    done: int
    cancelled: int
    failed: int


class TaskHandle:
    """The caller's grip on a submitted task: wait for it, or cancel it."""

    def __init__(self, request: AiTaskRequest, seq: int) -> None:
        self.request = request
        self.seq = seq
        self.trace_id: str = request.trace_id or ""
        self.cancel_event = threading.Event()
        self.future: Future[AgentResult] = Future()

    def cancel(self) -> bool:
        """A pending task is dropped (never starts); a running one is told to stop. False if already over."""
        if self.future.cancel():
            return True
        if self.future.done():
            return False
        self.cancel_event.set()
        return True

    def result(self, timeout: float | None = None) -> AgentResult:
        """The result; ``TaskCancelled`` if cancelled, ``TimeoutError`` if not done in time."""
        try:
            return self.future.result(timeout)
        except CancelledError:
            raise TaskCancelled(
                "task cancelled before it started",
                scope=self.request.cancellation_scope,
                trace_id=self.trace_id,
            ) from None

    def done(self) -> bool:
        return self.future.done()

    def add_done_callback(self, fn: Callable[[TaskHandle], None]) -> None:
        self.future.add_done_callback(lambda _f: fn(self))


class QueuedOrchestrator:
    def __init__(
        self,
        runner: TaskRunner,
        *,
        max_concurrent: int = 2,
        max_pending: int = 64,
        events: EventBus | None = None,
    ) -> None:
        if max_concurrent < 1:
            raise ValueError("max_concurrent must be at least 1")
        self.runner = runner
        self.max_concurrent = max_concurrent
        self.max_pending = max_pending
        self.events = events
        self._lock = threading.RLock()
        self._seq = itertools.count()
        self._heap: list[tuple[int, int, TaskHandle]] = []
        self._pending: dict[int, TaskHandle] = {}
        self._running: dict[int, TaskHandle] = {}
        self._done = self._cancelled = self._failed = 0
        self._closed = False
        self._pool = ThreadPoolExecutor(max_workers=max_concurrent, thread_name_prefix="agent")

    # -- submitting ---------------------------------------------------------------------------------------
    def submit(self, request: AiTaskRequest) -> TaskHandle:
        if not request.trace_id:
            request = request.model_copy(update={"trace_id": new_trace_id()})
        handle = TaskHandle(request, next(self._seq))
        handle.future.add_done_callback(lambda _f: self._finished(handle))
        with self._lock:
            if self._closed:
                handle.future.set_exception(
                    TaskCancelled("the task queue is shut down", trace_id=handle.trace_id)
                )
                return handle
            scope = request.cancellation_scope
            if scope:
                replaced = self._cancel_where(lambda h: h.request.cancellation_scope == scope, "replaced")
                if replaced:
                    _log.info(
                        "scope {}: a newer task cancelled {} older", scope, replaced, trace_id=handle.trace_id
                    )
            if len(self._pending) >= self.max_pending:
                handle.future.set_exception(
                    TaskCancelled(
                        f"task queue full ({self.max_pending} pending)", scope=scope, trace_id=handle.trace_id
                    )
                )
                return handle
            self._pending[handle.seq] = handle
            heapq.heappush(self._heap, (-request.priority, handle.seq, handle))
            self._publish(handle, "queued")
            self._pump()
        return handle

    # -- cancelling ---------------------------------------------------------------------------------------
    def cancel_tasks(self, scope: str) -> int:
        """Cancel every pending and running task of ``scope``; returns how many."""
        return self._cancel_where(lambda h: h.request.cancellation_scope == scope, f"cancel_tasks({scope})")

    def stop_agent(self, role: str) -> int:
        """Cancel every pending and running task of ``role``; returns how many."""
        return self._cancel_where(lambda h: h.request.role == role, f"stop_agent({role})")

    def _cancel_where(self, match: Callable[[TaskHandle], bool], why: str) -> int:
        with self._lock:
            victims = [h for h in (*self._pending.values(), *self._running.values()) if match(h)]
        count = 0
        for handle in victims:
            if handle.cancel():
                count += 1
                _log.info("task cancelled by {}", why, trace_id=handle.trace_id)
        return count

    # -- running ------------------------------------------------------------------------------------------
    def _pump(self) -> None:
        with self._lock:
            while self._heap and len(self._running) < self.max_concurrent and not self._closed:
                _, seq, handle = heapq.heappop(self._heap)
                if self._pending.pop(seq, None) is None:
                    continue  # cancelled while pending
                if not handle.future.set_running_or_notify_cancel():
                    continue
                self._running[seq] = handle
                self._pool.submit(self._execute, handle)

    def _execute(self, handle: TaskHandle) -> None:
        try:
            result = self.runner.run(handle.request, handle.cancel_event)
        except BaseException as exc:
            handle.future.set_exception(exc)
            return
        if handle.cancel_event.is_set():
            handle.future.set_exception(
                TaskCancelled("task cancelled while running", scope=handle.request.cancellation_scope,
                              trace_id=handle.trace_id)
            )  # fmt: skip
        else:
            handle.future.set_result(result)

    def _finished(self, handle: TaskHandle) -> None:
        future = handle.future
        with self._lock:
            self._pending.pop(handle.seq, None)
            self._running.pop(handle.seq, None)
            if future.cancelled():
                self._cancelled += 1
                self._publish(handle, "cancelled")
            elif isinstance(future.exception(), TaskCancelled):
                self._cancelled += 1
            elif future.exception() is not None:
                self._failed += 1
            else:
                self._done += 1
            self._pump()

    def _publish(self, handle: TaskHandle, status: Literal["queued", "cancelled"]) -> None:
        if self.events is not None:
            self.events.publish(TaskEvent(status, handle.trace_id, handle.request.role))

    # -- observing / closing ------------------------------------------------------------------------------
    def statistics(self) -> QueueStats:
        with self._lock:
            return QueueStats(
                len(self._pending), len(self._running), self._done, self._cancelled, self._failed
            )

    def running_tasks(self) -> list[TaskHandle]:
        with self._lock:
            return list(self._running.values())

    def pending_tasks(self) -> list[TaskHandle]:
        with self._lock:
            return sorted(self._pending.values(), key=lambda h: (-h.request.priority, h.seq))

    def shutdown(self, wait: bool = True) -> None:
        """Cancel everything pending, tell running tasks to stop, and release the workers."""
        with self._lock:
            self._closed = True
            handles = [*self._pending.values(), *self._running.values()]
        for handle in handles:
            handle.cancel()
        self._pool.shutdown(wait=wait)
