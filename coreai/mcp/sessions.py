"""Resource subscriptions for 2025-era clients: ``resources/subscribe`` / ``resources/unsubscribe`` and the
``notifications/resources/updated`` they ask for.

A 2025-11-25 client (the official TypeScript SDK, and the clients built on it) initializes a session
(``coreai.mcp.dualmode`` sends it to the SDK's stateful app), subscribes to a URI, and opens the session's
standalone ``GET`` stream; the server pushes an update on that stream whenever the resource changes.
``LegacySubscriptions`` keeps, per live session, the URIs it subscribed to; ``UpdateHub`` hands it every
coalesced update (``publish``). A session that ends (``DELETE``, idle timeout, server stop) takes its
subscriptions with it. 2026-07-28 clients use ``subscriptions/listen`` instead (``coreai.mcp.resources``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from loguru import logger
from mcp.server.connection import Connection
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams

from coreai.mcp.rpcerrors import unknown_resource

_log = logger.bind(feature="mcp", trace_id="-")
MAX_PER_SESSION = 64


def _pattern(uri: str) -> re.Pattern[str]:
    """A served URI (a template's ``{param}`` parts match one path segment) as a regex."""
    parts = re.split(r"(\{[^}]+\})", uri)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


class LegacySubscriptions:
    def __init__(self, uris: Iterable[str] = ()) -> None:
        self._served = [(u, _pattern(u)) for u in uris]
        self._subs: dict[int, tuple[Connection, set[str]]] = {}

    def count(self) -> int:
        return sum(len(uris) for _, uris in self._subs.values())

    def _known(self, uri: str) -> bool:
        return any(p.match(uri) for _, p in self._served)

    @staticmethod
    def _connection(ctx: ServerRequestContext[Any, Any]) -> Connection | None:
        conn = getattr(ctx.session, "_connection", None)  # the SDK keeps the session's connection here
        return conn if isinstance(conn, Connection) else None

    async def subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        uri = str(params.uri)
        if not self._known(uri):
            raise unknown_resource(uri, [u for u, _ in self._served])
        conn = self._connection(ctx)
        if conn is None or conn.session_id is None or not conn.has_standalone_channel:
            raise MCPError(
                -32600,
                "resources/subscribe needs a session: initialize first (the answer carries Mcp-Session-Id), "
                "then open the GET stream that carries the updates",
            )
        key = id(conn)
        if key not in self._subs:
            self._subs[key] = (conn, set())
            conn.exit_stack.callback(self._subs.pop, key, None)  # the session ended: its subscriptions too
        uris = self._subs[key][1]
        if uri not in uris and len(uris) >= MAX_PER_SESSION:
            raise MCPError(-32600, f"at most {MAX_PER_SESSION} subscriptions per session")
        uris.add(uri)
        _log.info("session {} subscribed to {}", conn.session_id[:8], uri)
        return EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        conn = self._connection(ctx)
        if conn is not None and id(conn) in self._subs:
            self._subs[id(conn)][1].discard(str(params.uri))
        return EmptyResult()

    async def publish(self, uri: str) -> int:
        """Tell every session subscribed to ``uri`` (on the server's loop); how many were told."""
        told = 0
        for conn, uris in list(self._subs.values()):
            if uri in uris:
                await conn.send_resource_updated(uri)  # best effort: never raises
                told += 1
        return told
