"""Agent activity events: a small thread-safe publish/subscribe bus with a recent-history snapshot.

The orchestrator publishes ``TaskEvent`` (queued / started / completed / failed / cancelled) and the tool
policy publishes ``ToolCallEvent`` (started / completed / failed) carrying trace id, role, call id and
sanitised arguments (secrets redacted, long strings cut). A streamed task (``AiTaskRequest.stream``) also
publishes its visible reply piece by piece as ``TextDelta`` (kept out of the history: there are many).
The HUD reads ``history()``; tests and tools ``subscribe()``. A subscriber that raises is logged and never
breaks the publisher.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from loguru import logger

from coreai.persist import loads_json

_log = logger.bind(feature="agents")
_SECRET_KEY = re.compile(r"(api[_-]?key|token|secret|password|authorization|bearer)", re.IGNORECASE)


@dataclass(frozen=True)
class ToolCallInfo:
    trace_id: str
    role: str
    call_id: str
    tool: str
    arguments: str  # sanitised JSON text


@dataclass(frozen=True)
class ToolCallEvent:
    status: Literal["started", "completed", "failed"]
    info: ToolCallInfo
    result: str = ""  # short preview of the result (completed)
    error: str = ""  # the message sent back to the model (failed)
    duration_s: float = 0.0
    ts: float = field(default_factory=time.time)


@dataclass(frozen=True)
class TaskEvent:
    status: Literal["queued", "started", "completed", "failed", "cancelled"]
    trace_id: str
    role: str
    backend: str = ""
    detail: str = ""
    ts: float = field(default_factory=time.time)


@dataclass(frozen=True)
class TextDelta:
    """A piece of an agent's visible reply as it streams (``AiTaskRequest.stream``); never reasoning."""

    trace_id: str
    role: str
    text: str
    ts: float = field(default_factory=time.time)


Event = ToolCallEvent | TaskEvent | TextDelta
Callback = Callable[[Event], None]


def _clean(value: Any, max_str: int) -> Any:
    if isinstance(value, dict):
        return {str(k): "***" if _SECRET_KEY.search(str(k)) else _clean(v, max_str) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, max_str) for v in value[:50]]
    if isinstance(value, str) and len(value) > max_str:
        return value[:max_str] + f"…(+{len(value) - max_str} chars)"
    return value


def sanitize_arguments(raw: str, *, max_str: int = 200, max_total: int = 1000) -> str:
    """Arguments as safe-to-log JSON: secret-looking keys redacted, long strings shortened."""
    try:
        parsed = loads_json(raw) if raw.strip() else {}
    except (json.JSONDecodeError, TypeError):
        text = str(raw)
        return json.dumps({"unparsed": text[:max_str]})
    out = json.dumps(_clean(parsed, max_str), sort_keys=True, ensure_ascii=False)
    return out if len(out) <= max_total else out[:max_total] + "…"


class Subscription:
    def __init__(self, bus: EventBus, token: int) -> None:
        self._bus = bus
        self._token = token

    def close(self) -> None:
        self._bus._unsubscribe(self._token)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EventBus:
    def __init__(self, history_size: int = 200) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, tuple[Callback, tuple[type, ...] | None]] = {}
        self._next = 0
        self._history: deque[Event] = deque(maxlen=history_size)

    def subscribe(self, callback: Callback, *, kinds: tuple[type, ...] | None = None) -> Subscription:
        """Call ``callback`` (on the publishing thread) for every event, or only those of ``kinds``."""
        with self._lock:
            self._next += 1
            self._subs[self._next] = (callback, kinds)
            return Subscription(self, self._next)

    def _unsubscribe(self, token: int) -> None:
        with self._lock:
            self._subs.pop(token, None)

    def publish(self, event: Event) -> None:
        with self._lock:
            if not isinstance(event, TextDelta):
                self._history.append(event)
            subs = list(self._subs.values())
        for callback, kinds in subs:
            if kinds is not None and not isinstance(event, kinds):
                continue
            try:
                callback(event)
            except Exception:
                _log.opt(exception=True).error(
                    "event subscriber {} raised", getattr(callback, "__name__", "?")
                )

    def history(self, kind: type | None = None, limit: int | None = None) -> list[Event]:
        """Recent events, oldest first (optionally only one kind, only the last ``limit``)."""
        with self._lock:
            items = [e for e in self._history if kind is None or isinstance(e, kind)]
        return items[-limit:] if limit else items

    def clear_history(self) -> None:
        with self._lock:
            self._history.clear()
