"""One endpoint, every protocol era: which of the SDK's three apps answers a request.

* **2026-07-28** (an ``MCP-Protocol-Version`` header of that era): stateless, one JSON body per request,
  except ``subscriptions/listen``, whose answer *is* a stream (SSE) carrying resource updates;
* **2025-era sessions** (``initialize``, or any request carrying an ``Mcp-Session-Id``; also the session's
  ``GET`` stream and its ``DELETE``): the SDK's stateful app, so a 2025-11-25 client (the official
  TypeScript SDK) gets a session, ``resources/subscribe`` and its ``notifications/resources/updated`` on the
  session's standalone ``GET`` stream (``coreai.mcp.sessions``);
* anything else (curl, a script without a handshake): stateless JSON, as before.

``ByMethod`` peeks at the (already buffered and size-checked) JSON-RPC body. The apps serve the same
server; their lifespans (the session managers) run together.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from coreai.mcp.asgi import Message, Receive, Scope, Send
from coreai.persist import loads_json

STREAMED_METHODS = frozenset({"subscriptions/listen"})
SESSION_HEADER = b"mcp-session-id"
VERSION_HEADER = b"mcp-protocol-version"


def _method(body: bytes) -> str | None:
    try:
        data = loads_json(body)
    except (ValueError, UnicodeDecodeError):
        return None
    method = data.get("method") if isinstance(data, dict) else None
    return method if isinstance(method, str) else None


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class ByMethod:
    def __init__(
        self,
        json_app: Any,
        sse_app: Any,
        on_loop: Callable[[asyncio.AbstractEventLoop | None], None] | None = None,
        session_app: Any = None,
    ) -> None:
        self.json_app = json_app
        self.sse_app = sse_app
        self.session_app = session_app  # 2025-era sessions (None: stateless JSON for them too)
        self.on_loop = on_loop  # told the server's event loop at startup, None at shutdown

    def _apps(self) -> list[Any]:
        return [a for a in (self.json_app, self.sse_app, self.session_app) if a is not None]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        session = self.session_app is not None and header(scope, SESSION_HEADER) is not None
        if scope["type"] != "http" or str(scope.get("method", "")).upper() != "POST":
            await (self.session_app if session else self.json_app)(scope, receive, send)
            return
        chunks: list[bytes] = []
        first: list[Message] = []
        while True:  # admission has buffered the body: this reads it back, all of it
            message = await receive()
            first.append(message)
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)

        async def replay() -> Message:
            if first:
                return first.pop(0)
            return await receive()

        method = _method(body)
        modern = header(scope, VERSION_HEADER) in MODERN_PROTOCOL_VERSIONS
        if modern:
            app = self.sse_app if method in STREAMED_METHODS else self.json_app
        elif self.session_app is not None and (session or method == "initialize"):
            app = self.session_app
        else:
            app = self.json_app
        await app(scope, replay, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """Every Starlette app's lifespan context, entered on startup and left on shutdown."""
        async with contextlib.AsyncExitStack() as stack:
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    try:
                        for app in self._apps():
                            await stack.enter_async_context(app.router.lifespan_context(app))
                    except Exception as exc:
                        await send({"type": "lifespan.startup.failed", "message": str(exc)})
                        return
                    if self.on_loop is not None:
                        self.on_loop(asyncio.get_running_loop())
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    if self.on_loop is not None:
                        self.on_loop(None)
                    await stack.aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
