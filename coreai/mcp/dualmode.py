"""One endpoint, two answer styles: one JSON body per request, but ``subscriptions/listen`` gets SSE.

The SDK's streamable-HTTP app answers either every POST with one JSON body or every POST with an SSE
stream. A JSON body carries only the response, but the answer to ``subscriptions/listen`` (2026-07-28) *is*
a stream: the notifications about resource updates ride on it. ``ByMethod`` peeks at the (already buffered
and size-checked) JSON-RPC body: a listen request goes to the SSE-style app, everything else to the JSON
one, so plain clients (curl) keep getting plain JSON. Both apps serve the same server; their lifespans (the
session managers) run together.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from coreai.mcp.asgi import Message, Receive, Scope, Send
from coreai.persist import loads_json

STREAMED_METHODS = frozenset({"subscriptions/listen"})


def _method(body: bytes) -> str | None:
    try:
        data = loads_json(body)
    except (ValueError, UnicodeDecodeError):
        return None
    method = data.get("method") if isinstance(data, dict) else None
    return method if isinstance(method, str) else None


class ByMethod:
    def __init__(
        self,
        json_app: Any,
        sse_app: Any,
        on_loop: Callable[[asyncio.AbstractEventLoop | None], None] | None = None,
    ) -> None:
        self.json_app = json_app
        self.sse_app = sse_app
        self.on_loop = on_loop  # told the server's event loop at startup, None at shutdown

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http" or str(scope.get("method", "")).upper() != "POST":
            await self.json_app(scope, receive, send)
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

        app = self.sse_app if _method(body) in STREAMED_METHODS else self.json_app
        await app(scope, replay, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """Both Starlette apps' lifespan contexts, entered on startup and left on shutdown."""
        async with contextlib.AsyncExitStack() as stack:
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    try:
                        for app in (self.json_app, self.sse_app):
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
