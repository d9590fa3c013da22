"""Runs MCP tool work on the game's main thread through the ``MainLoopQueue``, awaited without blocking.

The server's event loop posts a command (a typed world command, or ``CallOnMain`` around a service call)
and awaits its ``CommandFuture`` with a timeout. The rules:

* no answer within the timeout -> the queued command is cancelled (so a later frame never runs it) and
  ``MainLoopTimeout`` names why: "paused", "not draining", or "backlogged (N commands queued)";
* the client gives up (its request is cancelled) -> the queued command is cancelled the same way;
* ``close()`` (server stopping) cancels everything still queued, so every waiting request resolves at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from loguru import logger

from coreai.commands import CallOnMain, MainLoopCommand
from coreai.errors import MainLoopTimeout, TaskCancelled
from coreai.futures import CommandFuture
from coreai.mainloop import MainLoopQueue

AGENT = "mcp"
# Set per request by ``coreai.mcp.abandon``: fires when the client disconnects or cancels the request. The
# tool tasks the SDK spawns for that request inherit it (asyncio copies the context), so a call the client
# gave up on is cancelled in the queue at once, even though the SDK itself does not cancel the handler.
CLIENT_GONE: ContextVar[asyncio.Event | None] = ContextVar("mcp_client_gone", default=None)


class MainThreadBridge:
    def __init__(self, queue: MainLoopQueue, timeout_s: float = 30.0) -> None:
        self.queue = queue
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._inflight: set[CommandFuture[Any]] = set()
        self._closed = False

    def cause(self) -> str:
        """Why the main thread is not answering, from the queue's public stats."""
        stats = self.queue.stats()
        if self._closed:
            return "closed (the MCP server is stopping)"
        if stats.paused:
            return "paused"
        age = stats.last_drain_age_s
        if age is None or age > self.queue.config.not_draining_after_s:
            return "not draining"
        return f"backlogged ({stats.pending} commands queued)"

    async def call(
        self,
        label: str,
        fn: Callable[[], Any],
        *,
        trace_id: str | None = None,
        timeout_s: float | None = None,
    ) -> Any:
        """Run ``fn()`` on the main thread; its result, or the error it raised there."""
        command = CallOnMain(fn=fn, label=label[:64], agent=AGENT, trace_id=trace_id)
        return await self.submit(command, label=label, timeout_s=timeout_s)

    async def submit(
        self, command: MainLoopCommand, *, label: str | None = None, timeout_s: float | None = None
    ) -> Any:
        """Post a typed command and await its answer (``MainLoopTimeout`` / ``TaskCancelled`` on failure)."""
        what = label or command.kind
        if self._closed:
            raise TaskCancelled(f"'{what}' refused: the MCP server is stopping", scope="mcp")
        limit = self.timeout_s if timeout_s is None else timeout_s
        future = self.queue.post(command)
        if future.done():  # rejected on post (queue full, closed, rate limited)
            return future.result(0)
        loop = asyncio.get_running_loop()
        woke = asyncio.Event()

        def _wake(_f: CommandFuture[Any]) -> None:
            # RuntimeError: the server loop is already closed; nobody is waiting any more
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(woke.set)

        with self._lock:
            self._inflight.add(future)
        future.add_done_callback(_wake)
        try:
            await self._wait(woke, limit)
        except _ClientGone:
            ran = not future.cancel()  # False: it was still queued and now never runs
            logger.bind(feature="mcp", trace_id=command.trace_id).info(
                "client gave up on '{}' {}", what, "while it ran" if ran else "before it ran; cancelled"
            )
            raise TaskCancelled(f"'{what}' abandoned: the client gave up on it", scope="mcp") from None
        except TimeoutError:
            if future.cancel():
                cause = self.cause()
                logger.bind(feature="mcp", trace_id=command.trace_id).warning(
                    "'{}' timed out after {:g}s: game loop {}; cancelled, it will not run later",
                    what,
                    limit,
                    cause,
                )
                raise MainLoopTimeout(what, cause, limit, trace_id=command.trace_id) from None
            if not future.done():  # claimed by the main thread this very moment: it is running now
                raise MainLoopTimeout(
                    what,
                    "busy: the call started on the main thread but has not finished",
                    limit,
                    trace_id=command.trace_id,
                ) from None
        except asyncio.CancelledError:
            if future.cancel():
                logger.bind(feature="mcp", trace_id=command.trace_id).info(
                    "client gave up on '{}'; the queued call was cancelled and will not run", what
                )
            raise
        finally:
            with self._lock:
                self._inflight.discard(future)
        if future.cancelled():
            raise TaskCancelled(f"'{what}' was not run: the MCP server is stopping", scope="mcp")
        return future.result(0)

    @staticmethod
    async def _wait(woke: asyncio.Event, limit: float) -> None:
        """Until the answer came; ``TimeoutError`` after ``limit``; ``_ClientGone`` if the client left."""
        gone = CLIENT_GONE.get()
        if gone is None:
            await asyncio.wait_for(woke.wait(), limit)
            return
        answer = asyncio.ensure_future(woke.wait())
        left = asyncio.ensure_future(gone.wait())
        try:
            done, _ = await asyncio.wait({answer, left}, timeout=limit, return_when=asyncio.FIRST_COMPLETED)
        finally:
            answer.cancel()
            left.cancel()
        if answer in done:
            return
        if left in done:
            raise _ClientGone
        raise TimeoutError

    def pending(self) -> int:
        with self._lock:
            return len(self._inflight)

    def close(self) -> int:
        """Refuse new calls and cancel every queued one; returns how many were cancelled."""
        self._closed = True
        with self._lock:
            futures = list(self._inflight)
        cancelled = sum(1 for f in futures if f.cancel())
        if cancelled:
            logger.bind(feature="mcp", trace_id="-").info(
                "MCP stopping: {} queued call(s) cancelled", cancelled
            )
        return cancelled


class _ClientGone(Exception):
    """Internal: the client disconnected or cancelled while its call was still queued."""
