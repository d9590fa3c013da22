"""One chat turn with an agent, as the chat panel and ``python -m game ask`` run it.

``chat_request(role, text)`` builds the request: streamed, one cancellation scope per role (a new message
replaces an unanswered one), and for the Merchant the reference flow: ``get_inventory`` is forced first so
even a small local model answers from the real shelf (a "buy <item>" message lets it call ``buy_item``).

``ChatTurn`` submits it to a task queue and follows it from any thread: the visible reply as it streams
(``TextDelta`` events, reasoning never), then done / stopped / failed. ``stop()`` cancels through the task
queue (``cancel_tasks(scope)``), which sets the task's cancel event; every LLM layer and the backend stop
on it between two tokens. Main thread or not, nothing here touches the engine.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Literal

from coreai.errors import CoreAIError, TaskCancelled
from coreai.events import EventBus, TextDelta
from coreai.requests import AgentResult, AiTaskRequest, new_trace_id
from coreai.taskqueue import QueuedOrchestrator, TaskHandle

ROLES = ("Chat", "Merchant", "Creator", "Analyzer", "Programmer")
TurnState = Literal["waiting", "streaming", "done", "stopped", "failed"]
_BUY = re.compile(r"\b(buy|purchase|take)\b", re.I)


def chat_request(role: str, text: str, *, trace_id: str | None = None) -> AiTaskRequest:
    force: str | None = None
    if role == "Merchant" and not _BUY.search(text):
        force = "get_inventory"
    return AiTaskRequest(
        role=role,
        hint=text,
        cancellation_scope=f"chat:{role}",
        trace_id=trace_id or new_trace_id(),
        force_tool=force,
        stream=True,
        priority=10,  # a player waits on it: ahead of background work
    )


class ChatTurn:
    def __init__(
        self,
        queue: QueuedOrchestrator,
        events: EventBus,
        request: AiTaskRequest,
        on_piece: Callable[[str], None] | None = None,
    ) -> None:
        if not request.trace_id:  # the turn follows its pieces by trace id: it must know it up front
            request = request.model_copy(update={"trace_id": new_trace_id()})
        self.request = request
        self.role = request.role
        self.trace_id = request.trace_id or ""
        self.queue = queue
        self.on_piece = on_piece
        self.started = time.perf_counter()
        self.first_piece_s: float | None = None
        self.ended_s: float | None = None
        self._lock = threading.Lock()
        self._pieces: list[str] = []
        self._state: TurnState = "waiting"
        self.result: AgentResult | None = None
        self.error = ""
        self._sub = events.subscribe(self._on_event, kinds=(TextDelta,))
        self.handle: TaskHandle = queue.submit(request)
        self.handle.add_done_callback(self._finished)

    # -- worker threads -----------------------------------------------------------------------------------
    def _on_event(self, event: object) -> None:
        if not isinstance(event, TextDelta) or event.trace_id != self.trace_id:
            return
        with self._lock:
            if self._state not in ("waiting", "streaming"):
                return  # stopped: later pieces are dropped
            if self.first_piece_s is None:
                self.first_piece_s = time.perf_counter() - self.started
            self._state = "streaming"
            self._pieces.append(event.text)
        if self.on_piece is not None:
            self.on_piece(event.text)

    def _finished(self, handle: TaskHandle) -> None:
        self._sub.close()
        try:
            result = handle.result(0)
        except TaskCancelled as exc:
            self._end("stopped", error=exc.message)
            return
        except CoreAIError as exc:
            self._end("failed", error=str(exc))
            return
        except Exception as exc:  # a crashed task is a failed turn, never a crashed panel
            self._end("failed", error=f"{type(exc).__name__}: {exc}")
            return
        with self._lock:
            self.result = result
        self._end("done")

    def _end(self, state: TurnState, error: str = "") -> None:
        with self._lock:
            if self._state == "stopped":
                return  # the player already stopped it; that is what the panel says
            self._state = state
            self.error = error
            self.ended_s = time.perf_counter() - self.started

    # -- any thread ---------------------------------------------------------------------------------------
    @property
    def state(self) -> TurnState:
        with self._lock:
            return self._state

    @property
    def busy(self) -> bool:
        return self.state in ("waiting", "streaming")

    def text(self) -> str:
        """What the player sees: the streamed pieces, or the final visible answer once done."""
        with self._lock:
            if self._state == "done" and self.result is not None and self.result.content:
                return self.result.content
            return "".join(self._pieces)

    def streamed(self) -> str:
        """What streamed in so far (the final answer may differ)."""
        with self._lock:
            return "".join(self._pieces)

    def stop(self) -> bool:
        """Esc / Stop: cancel through the task queue; the turn reads "stopped" at once."""
        with self._lock:
            if self._state not in ("waiting", "streaming"):
                return False
            self._state = "stopped"
            self.ended_s = time.perf_counter() - self.started
        scope = self.request.cancellation_scope
        if not (scope and self.queue.cancel_tasks(scope)):
            self.handle.cancel()
        return True

    def wait(self, timeout_s: float) -> bool:
        """Block until the task is over (True) or ``timeout_s`` passed (False)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.handle.done():
                return True
            time.sleep(0.01)
        return self.handle.done()

    def tools_called(self) -> list[str]:
        return [] if self.result is None else [t.tool for t in self.result.tool_calls]
