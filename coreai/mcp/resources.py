"""Resources (and prompts) an MCP server offers besides tools, and the hub that tells listeners of updates.

``ResourceSpec``: a URI (a template when it has ``{param}`` parts, each one a keyword argument of ``read``),
a name, a description and ``read(**params) -> str | bytes | JSON-able``. ``read`` runs on a worker thread;
it reaches the game's main thread itself when it needs to (the game's specs post through the main-loop
queue). ``PromptSpec``: a named prompt template with string arguments.

``UpdateHub``: ``updated(uri)`` from any thread (the game's main thread, a log sink) publishes a
``ResourceUpdated`` event on the SDK's subscription bus, on the server's event loop. Clients receive it as
``notifications/resources/updated``: a 2026-07-28 client on its ``subscriptions/listen`` stream (the SDK's
client opens one with ``Client.listen(resource_subscriptions=[...])``), a 2025-era client that sent
``resources/subscribe`` on its session's GET stream (``legacy``, ``coreai.mcp.sessions``). Bursts are
coalesced: one notification per URI per ``min_interval_s``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loguru import logger
from mcp.server.subscriptions import InMemorySubscriptionBus, ResourceUpdated

from coreai.mcp.sessions import LegacySubscriptions

_log = logger.bind(feature="mcp", trace_id="-")


@dataclass(frozen=True)
class ResourceSpec:
    uri: str
    name: str
    description: str
    read: Callable[..., Any]
    mime_type: str = "application/json"


@dataclass(frozen=True)
class PromptSpec:
    name: str
    description: str
    render: Callable[..., str]  # keyword arguments are the prompt's (string) arguments
    profiles: frozenset[str] = frozenset({"play", "mod", "direct", "all"})


@dataclass
class UpdateHub:
    min_interval_s: float = 0.2
    bus: InMemorySubscriptionBus = field(default_factory=InMemorySubscriptionBus)
    legacy: LegacySubscriptions = field(default_factory=LegacySubscriptions)
    _loop: asyncio.AbstractEventLoop | None = None
    _pending: set[str] = field(default_factory=set)
    _scheduled: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)
    published: int = 0

    def bind(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """The server's event loop (None when it stops: updates are dropped from then on)."""
        with self._lock:
            self._loop = loop

    def updated(self, uri: str) -> None:
        """Any thread: ``uri`` changed; listeners hear about it within ``min_interval_s``."""
        with self._lock:
            loop = self._loop
            if loop is None:
                return
            self._pending.add(uri)
            if self._scheduled:
                return
            self._scheduled = True
        try:
            loop.call_soon_threadsafe(self._schedule_flush)
        except RuntimeError:  # the loop closed meanwhile
            with self._lock:
                self._scheduled = False

    def _schedule_flush(self) -> None:
        asyncio.get_running_loop().call_later(
            self.min_interval_s, lambda: asyncio.ensure_future(self._flush())
        )

    async def _flush(self) -> None:
        with self._lock:
            uris, self._pending = self._pending, set()
            self._scheduled = False
        for uri in sorted(uris):
            self.published += 1
            await self.bus.publish(ResourceUpdated(uri=uri))
            await self.legacy.publish(uri)
