"""A lightweight future for main-loop commands.

``concurrent.futures.Future`` costs about 1.6 KB and a Condition per instance; the main-loop queue creates
one per command (hundreds of thousands under stress), so this one keeps four slots and builds its wake-up
Event only when somebody actually waits. The API is the familiar subset: ``result(timeout)``,
``exception(timeout)``, ``done()``, ``cancelled()``, ``running()``, ``cancel()``, ``add_done_callback(fn)``.
A cancelled future raises ``TaskCancelled`` from ``result()``; a timed-out wait raises ``TimeoutError``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from loguru import logger

from coreai.errors import TaskCancelled

T = TypeVar("T")

_PENDING, _RUNNING, _DONE, _CANCELLED = 0, 1, 2, 3
# One lock for all futures: every critical section is a few attribute writes, and only the consumer, a
# canceller or a waiter ever takes it (producers never do).
_LOCK = threading.Lock()
_log = logger.bind(feature="world")


class CommandFuture(Generic[T]):
    __slots__ = ("_callbacks", "_event", "_exc", "_result", "_state", "label", "trace_id")

    def __init__(self, label: str = "command", trace_id: str | None = None) -> None:
        self._state = _PENDING
        self._result: Any = None
        self._exc: BaseException | None = None
        self._event: threading.Event | None = None
        self._callbacks: list[Callable[[CommandFuture[T]], None]] | None = None
        self.label = label
        self.trace_id = trace_id

    # -- caller side -------------------------------------------------------------------------------------
    def done(self) -> bool:
        return self._state >= _DONE

    def cancelled(self) -> bool:
        return self._state == _CANCELLED

    def running(self) -> bool:
        return self._state == _RUNNING

    def cancel(self) -> bool:
        """Cancel if not started yet; a cancelled command is never executed. True if it is cancelled now."""
        with _LOCK:
            if self._state == _CANCELLED:
                return True
            if self._state != _PENDING:
                return False
            self._state = _CANCELLED
        self._finish()
        return True

    def result(self, timeout: float | None = None) -> T:
        self._wait(timeout)
        if self._state == _CANCELLED:
            raise TaskCancelled(f"command '{self.label}' was cancelled before it ran", trace_id=self.trace_id)
        if self._exc is not None:
            raise self._exc
        return cast(T, self._result)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self._wait(timeout)
        if self._state == _CANCELLED:
            return TaskCancelled(
                f"command '{self.label}' was cancelled before it ran", trace_id=self.trace_id
            )
        return self._exc

    def add_done_callback(self, fn: Callable[[CommandFuture[T]], None]) -> None:
        with _LOCK:
            if self._state < _DONE:
                if self._callbacks is None:
                    self._callbacks = []
                self._callbacks.append(fn)
                return
        self._call(fn)

    # -- producer / consumer side ------------------------------------------------------------------------
    def set_running(self) -> bool:
        """Claim the future for execution; False if the caller already cancelled it (then skip it)."""
        with _LOCK:
            if self._state != _PENDING:
                return False
            self._state = _RUNNING
            return True

    def set_result(self, value: T) -> None:
        with _LOCK:
            if self._state >= _DONE:
                return
            self._result = value
            self._state = _DONE
        self._finish()

    def set_exception(self, exc: BaseException) -> None:
        with _LOCK:
            if self._state >= _DONE:
                return
            self._exc = exc
            self._state = _DONE
        self._finish()

    # -- internals ---------------------------------------------------------------------------------------
    def _wait(self, timeout: float | None) -> None:
        if self._state >= _DONE:
            return
        with _LOCK:
            if self._state >= _DONE:
                return
            if self._event is None:
                self._event = threading.Event()
            event = self._event
        if not event.wait(timeout):
            raise TimeoutError(f"command '{self.label}' not finished within {timeout}s")

    def _finish(self) -> None:
        with _LOCK:
            event, callbacks, self._callbacks = self._event, self._callbacks, None
        if event is not None:
            event.set()
        for fn in callbacks or ():
            self._call(fn)

    def _call(self, fn: Callable[[CommandFuture[T]], None]) -> None:
        try:
            fn(self)
        except Exception:
            _log.opt(exception=True).error("done-callback of command '{}' raised", self.label)
