"""Knowing when a client gave up on a request, so its queued main-thread call is cancelled, never run later.

Two ways a client abandons a ``tools/call``: it drops the HTTP connection, or it keeps the connection and
sends ``notifications/cancelled`` with the request's id on another POST (the SDK client does this when its
read timeout expires). ``AbandonWatch.serve`` runs the app on an already-buffered body, sets the request's
``CLIENT_GONE`` event on either signal, and ``MainThreadBridge`` cancels the queued call when it fires.

A cancel is matched on the request's ``Mcp-Session-Id`` (a 2025-era session) and its JSON-RPC id; for
stateless requests on the id alone, so two stateless clients using the same id at the same moment would
both be cancelled (each gets a clear error). ``CLIENT_GONE`` reaches a call that is already running too:
``coreai.mcp.tools`` then sets the tool's cancel event, which ends a step at its next tick.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from coreai.mcp.asgi import ASGIApp, Message, Receive, Scope, Send
from coreai.mcp.dualmode import SESSION_HEADER, header
from coreai.mcp.mainthread import CLIENT_GONE
from coreai.persist import loads_json


def _rpc(body: bytes) -> dict[str, Any] | None:
    try:
        data = loads_json(body)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _key(request_id: Any, session: str | None) -> str | None:
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        return None
    return json.dumps([session or "", request_id])


class AbandonWatch:
    def __init__(self) -> None:
        self._inflight: dict[str, set[asyncio.Event]] = {}

    def inflight(self) -> int:
        return sum(len(events) for events in self._inflight.values())

    async def serve(
        self, app: ASGIApp, scope: Scope, receive: Receive, send: Send, body: bytes, disconnected: bool
    ) -> None:
        """Run ``app`` on the buffered ``body`` while watching the socket and cancel notifications."""
        rpc = _rpc(body)
        session = header(scope, SESSION_HEADER)
        if rpc is not None and rpc.get("method") == "notifications/cancelled":
            params = rpc.get("params")
            key = _key(params.get("requestId"), session) if isinstance(params, dict) else None
            for event in self._inflight.get(key or "", ()):
                event.set()
        gone = asyncio.Event()
        if disconnected:
            gone.set()
        key = _key(rpc.get("id"), session) if rpc is not None and rpc.get("method") == "tools/call" else None
        if key is not None:
            self._inflight.setdefault(key, set()).add(gone)
        reset = CLIENT_GONE.set(gone)
        pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

        async def replay() -> Message:
            if pending:
                return pending.pop(0)
            await gone.wait()  # the watcher owns the socket from here on
            return {"type": "http.disconnect"}

        async def watch() -> None:
            while not gone.is_set():
                if (await receive())["type"] == "http.disconnect":
                    gone.set()

        watcher = asyncio.ensure_future(watch())
        try:
            await app(scope, replay, send)
        finally:
            watcher.cancel()
            CLIENT_GONE.reset(reset)
            if key is not None:
                events = self._inflight.get(key)
                if events is not None:
                    events.discard(gone)
                    if not events:
                        del self._inflight[key]
