"""Admission for the MCP endpoint, as pure ASGI middleware (never Starlette ``BaseHTTPMiddleware``).

An open MCP port is full control of the game, and binding 127.0.0.1 alone does not stop browser CSRF or DNS
rebinding, so every HTTP request passes these layers in this order before the SDK sees it:

1. the peer is not a loopback address                               -> 403
2. Host is not 127.0.0.1 / localhost / [::1] on our port             -> 403  (DNS rebinding)
3. an Origin is present and is not loopback on our port              -> 403  (browser CSRF)
4. ``/.well-known/oauth-*`` (OAuth discovery)                       -> 404  (before auth: clients must not
   drift into an OAuth flow; the server speaks bearer tokens only)
5. a request with a body is not JSON (Content-Type)                  -> 415  (no-preflight text/plain POST)
6. ``Authorization: Bearer <token>`` missing or wrong (constant time) -> 401  (any other local process)
7. the body is over the cap (Content-Length, or bytes streamed)      -> 413  (the rest of the body is read
   and dropped first, bounded, so a client still sending reads the answer, not a connection reset)
8. any method but POST on the endpoint (``GET /mcp``)                -> 405  (except GET / DELETE with an
   ``Mcp-Session-Id``: a 2025-era session's update stream and its end, ``coreai.mcp.dualmode``)
9. the body is not JSON-RPC 2.0 (``rpcbody.check_body``: bounded-depth parse, id types)
                                                                     -> 400  (-32700 / -32600 error answer)

Refusals never reach JSON-RPC: they are short JSON bodies ``{"error": "..."}`` naming the layer. The body is
buffered here (at most the cap) and replayed to the app, so an oversized chunked upload is refused before
the SDK reads a byte; ``AbandonWatch`` then runs the app and notices a client that gives up. Non-HTTP
scopes (lifespan) pass straight through.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time

from loguru import logger

from coreai.mcp.abandon import AbandonWatch
from coreai.mcp.asgi import ASGIApp, Receive, Scope, Send
from coreai.mcp.rpcbody import check_body
from coreai.mcp.settings import is_loopback_host

_log = logger.bind(feature="mcp", trace_id="-")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
SESSION_METHODS = frozenset({"GET", "DELETE"})  # a 2025-era session's update stream and its end
JSON_TYPES = ("application/json",)
REFUSAL_LOG_EVERY_S = 10.0
DRAIN_MAX_BYTES = 64 * 1024 * 1024  # an over-cap body up to this size is read and dropped before the 413
DRAIN_MAX_S = 10.0  # ... for at most this long (a slower or bigger one may still see a reset)


def allowed_hosts(port: int) -> list[str]:
    """Host header values accepted on ``port`` (a bare name only when the port is 80, as HTTP allows)."""
    names = ["127.0.0.1", "localhost", "[::1]"]
    hosts = [f"{n}:{port}" for n in names]
    return hosts + names if port == 80 else hosts


def allowed_origins(port: int) -> list[str]:
    return [f"http://{h}" for h in allowed_hosts(port)]


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media in JSON_TYPES or (media.startswith("application/") and media.endswith("+json"))


class AdmissionMiddleware:
    """Wraps the SDK's ASGI app; ``token=None`` means auth is off (only with ``auth_disabled=True``)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        port: int,
        token: str | None,
        path: str = "/mcp",
        max_body_bytes: int = 4 * 1024 * 1024,
        auth_warning_interval_s: float = 60.0,
    ) -> None:
        self.app = app
        self.port = port
        self.path = path.rstrip("/") or "/"
        self.max_body_bytes = max_body_bytes
        self._token = token.encode("utf-8") if token is not None else None
        self._hosts = frozenset(allowed_hosts(port))
        self._origins = frozenset(allowed_origins(port))
        self._warn_every = auth_warning_interval_s
        self._last_warning = time.monotonic()
        self.watch = AbandonWatch()
        self.refused: dict[int, int] = {}  # status -> count, for diagnostics
        self._last_refusal_log: dict[int, float] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        method = str(scope.get("method", "GET")).upper()
        client = scope.get("client")
        peer = str(client[0]) if client else ""
        if not peer or not is_loopback_host(peer):
            await self._refuse(send, 403, f"peer {peer or '<unknown>'} is not a loopback address")
            return
        host = headers.get("host", "").lower()
        if host not in self._hosts:
            await self._refuse(send, 403, f"Host header '{host[:100]}' is not loopback on port {self.port}")
            return
        origin = headers.get("origin")
        if origin is not None and origin.lower().rstrip("/") not in self._origins:
            await self._refuse(send, 403, f"Origin '{origin[:100]}' is not loopback on port {self.port}")
            return
        if str(scope.get("path", "")).startswith("/.well-known/oauth"):
            await self._refuse(send, 404, "no OAuth here: this server takes 'Authorization: Bearer <token>'")
            return
        if method in BODY_METHODS and not _is_json(headers.get("content-type", "")):
            await self._refuse(send, 415, "the body must be JSON (Content-Type: application/json)")
            return
        if not self._authorized(headers.get("authorization", "")):
            await self._refuse(
                send,
                401,
                "missing or wrong 'Authorization: Bearer <token>' (the game log shows the token)",
                extra=[(b"www-authenticate", b'Bearer realm="arena-mcp"')],
            )
            return
        if method not in BODY_METHODS:
            session = "mcp-session-id" in headers and method in SESSION_METHODS
            if scope.get("path", "").rstrip("/") == self.path and not session:
                await self._refuse(
                    send,
                    405,
                    f"{method} is not allowed on {self.path}: POST JSON-RPC, or GET / DELETE with an "
                    "Mcp-Session-Id (a 2025-era session's update stream / its end)",
                    extra=[(b"allow", b"POST")],
                )
                return
            await self.app(scope, receive, send)
            return
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            expects = "100-continue" in headers.get("expect", "").lower()  # then the body never comes
            if not expects and int(declared) <= DRAIN_MAX_BYTES:
                await _drain(receive)
            await self._refuse(send, 413, f"body over {self.max_body_bytes} bytes (declared {declared})")
            return
        buffered = await self._buffer(receive)
        if buffered is None:
            await self._refuse(send, 413, f"body over {self.max_body_bytes} bytes (streamed)")
            return
        if method != "POST" and scope.get("path", "").rstrip("/") == self.path:
            await self._refuse(
                send,
                405,
                f"{method} is not allowed on {self.path}: POST JSON-RPC only",
                extra=[(b"allow", b"POST")],
            )
            return
        body, disconnected = buffered
        bad = check_body(body)
        if bad is not None:
            await self._refuse(send, bad.status, bad.message, body=bad.body())
            return
        await self.watch.serve(self.app, scope, receive, send, body, disconnected)

    # -- layers ----------------------------------------------------------------------------------------------
    def _authorized(self, header: str) -> bool:
        if self._token is None:
            now = time.monotonic()
            if now - self._last_warning >= self._warn_every:
                self._last_warning = now
                _log.warning("MCP auth is DISABLED (auth_disabled=True): any local process can drive it")
            return True
        scheme, _, value = header.strip().partition(" ")
        if scheme.lower() != "bearer":
            value = ""
        # compare_digest on equal-type bytes; a length mismatch still costs the same for every wrong token
        return hmac.compare_digest(value.strip().encode("utf-8"), self._token)

    async def _buffer(self, receive: Receive) -> tuple[bytes, bool] | None:
        """The whole body, counting streamed bytes: (body, client_disconnected); None if over the cap (the
        rest of the body then read and dropped)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # http.disconnect before the body ended
                return b"".join(chunks), True
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                if message.get("more_body", False):
                    await _drain(receive)  # the rest, so the client reads the 413 (see _drain)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), False

    async def _refuse(
        self,
        send: Send,
        status: int,
        reason: str,
        extra: list[tuple[bytes, bytes]] | None = None,
        *,
        body: bytes | None = None,
    ) -> None:
        self.refused[status] = self.refused.get(status, 0) + 1
        now = time.monotonic()
        # a flood of refusals (a hostile page retrying) must not flood the log: warn per status every 10 s
        if now - self._last_refusal_log.get(status, -1e9) >= REFUSAL_LOG_EVERY_S:
            self._last_refusal_log[status] = now
            _log.warning("MCP request refused ({}): {} [{} so far]", status, reason, self.refused[status])
        else:
            _log.debug("MCP request refused ({}): {}", status, reason)
        if body is None:
            body = json.dumps({"error": reason, "status": status}).encode("utf-8")
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode("ascii")),
            *(extra or []),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})


async def _drain(receive: Receive) -> None:
    """Read and drop the rest of an over-cap body (at most ``DRAIN_MAX_BYTES`` for ``DRAIN_MAX_S``) before
    the 413. A server that answers and closes while the client is still sending makes the kernel reset the
    connection, and the client reads the reset instead of the answer (a 5 MB body did)."""
    dropped = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_MAX_S):
            while dropped <= DRAIN_MAX_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    return
                dropped += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return


def _headers(scope: Scope) -> dict[str, str]:
    """Request headers, lower-cased names, latin-1 values; a repeated header keeps its first value."""
    out: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        if name not in out:
            out[name] = raw_value.decode("latin-1")
    return out
