"""Tool profiles: a client that only plays sees the play tools, not thirty others.

A tool is registered with the profiles it belongs to (``Orchestrator.add_tool(..., mcp=("play",))``;
``mcp=True``: every profile). A client picks its profile with the endpoint's query string
(``http://127.0.0.1:8590/mcp?profile=play``; ``arena mcp-config --profile play`` prints such a config), else
the ``[mcp] profile`` setting applies (default ``all``). ``tools/list`` and ``prompts/list`` list only that
profile's entries and a ``tools/call`` outside it is refused with a tool error naming the profile.
``ProfileScope`` (ASGI) reads the query and sets ``CURRENT`` for the request; an unknown profile is a 400.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Literal
from urllib.parse import parse_qs

from coreai.mcp.asgi import ASGIApp, Receive, Scope, Send

Profile = Literal["play", "mod", "direct", "all"]
PROFILES: tuple[str, ...] = ("play", "mod", "direct", "all")
EVERY = frozenset(PROFILES)
CURRENT: ContextVar[str] = ContextVar("mcp_profile", default="all")


def profiles_of(mcp: bool | Iterable[str]) -> frozenset[str]:
    """The profiles a registration names (``True``: all of them); ``all`` always includes everything."""
    if mcp is True:
        return EVERY
    if mcp is False:
        return frozenset()
    names = frozenset(mcp)
    unknown = names - EVERY
    if unknown:
        raise ValueError(f"unknown MCP profile(s) {sorted(unknown)}; known: {', '.join(PROFILES)}")
    return names | {"all"}


def visible(profiles: frozenset[str], profile: str) -> bool:
    return profile == "all" or profile in profiles


class ProfileScope:
    def __init__(self, app: ASGIApp, default: str = "all") -> None:
        self.app = app
        self.default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
        asked = query.get("profile", [self.default])[0]
        if asked not in PROFILES:
            body = json.dumps(
                {"error": f"unknown profile '{asked[:40]}'; known: {', '.join(PROFILES)}", "status": 400}
            ).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        token = CURRENT.set(asked)
        try:
            await self.app(scope, receive, send)
        finally:
            CURRENT.reset(token)
