"""The MCP server inside the game process: the SDK's streamable-HTTP app behind admission, on a daemon thread.

``McpServerThread(settings, tools, queue).start()`` binds 127.0.0.1:<port> (a non-loopback host is
refused), builds the ``MCPServer`` serving the given ``coreai.tools.Tool`` objects (``coreai.mcp.tools``),
wraps it in ``AdmissionMiddleware`` and serves it with uvicorn on a background daemon thread, returning
once uvicorn reports ``started``. The
token and ready-to-paste client configs are logged once (feature "mcp") and written to stderr (the
console). ``stop()`` resolves every queued call first, then asks uvicorn to exit and joins the thread.
Stateless (no sessions): one JSON body per answer, except the answer to ``subscriptions/listen``: an SSE
stream that carries resource updates (``coreai.mcp.dualmode``, ``resources``).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

import uvicorn
from loguru import logger
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.tools import Tool as SdkTool
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import Prompt as MCPPrompt
from mcp_types import SubscribeRequestParams, UnsubscribeRequestParams
from mcp_types import Tool as MCPTool

from coreai.errors import McpError, SettingsError
from coreai.mainloop import MainLoopQueue
from coreai.mcp import tool_docs
from coreai.mcp.admission import AdmissionMiddleware, allowed_hosts, allowed_origins
from coreai.mcp.dualmode import ByMethod
from coreai.mcp.mainthread import MainThreadBridge
from coreai.mcp.profiles import CURRENT, EVERY, ProfileScope, visible
from coreai.mcp.resources import PromptSpec, ResourceSpec, UpdateHub
from coreai.mcp.rpcerrors import guarded_read, prompt_problem, unknown_resource
from coreai.mcp.sessions import LegacySubscriptions
from coreai.mcp.settings import McpSettings, is_loopback_host
from coreai.mcp.token import (
    ResolvedToken,
    announce,
    connect_instructions,
    resolve_token,
    store_stable_token,
)
from coreai.mcp.tools import build_tools, refresh
from coreai.mcp.transport import HeaderDeadlineH11
from coreai.tools.base import Tool

MCP_PATH = "/mcp"
SERVER_NAME = "arena-director"
MAX_SESSIONS = 32  # 2025-era sessions open at once (a 33rd client gets HTTP 503 until one ends)
SESSION_IDLE_S = 30 * 60  # a session with no request in flight and no open GET stream for this long ends
_log = logger.bind(feature="mcp", trace_id="-")


def build_app(
    settings: McpSettings,
    tools: Sequence[Tool],
    bridge: MainThreadBridge,
    *,
    port: int,
    token: str | None,
    resources: Sequence[ResourceSpec] = (),
    prompts: Sequence[PromptSpec] = (),
    hub: UpdateHub | None = None,
    profiles: Mapping[str, frozenset[str]] | None = None,
) -> tuple[AdmissionMiddleware, list[SdkTool]]:
    """The full ASGI app for ``port`` (admission outside, the SDK inside) and the SDK tools it serves."""
    served = build_tools(tools, bridge, profiles)
    hub = hub if hub is not None else UpdateHub()
    # log_level only matters if nobody configured stdlib logging yet (the SDK calls basicConfig)
    server = ProfiledServer(
        {t.name: getattr(t, "profiles", EVERY) for t in served},
        {p.name: p.profiles for p in prompts},
        SERVER_NAME,
        instructions=tool_docs.SERVER_INSTRUCTIONS,
        tools=served,
        log_level="WARNING",
        subscriptions=hub.bus,
    )
    for spec in resources:
        server.resource(spec.uri, name=spec.name, description=spec.description, mime_type=spec.mime_type)(
            guarded_read(spec.read, spec.uri)
        )
    server.served_uris = [spec.uri for spec in resources]
    # 2025-era clients subscribe per session (resources/subscribe); 2026-07-28 ones listen (hub.bus)
    hub.legacy = LegacySubscriptions(server.served_uris)
    lowlevel = server._lowlevel_server
    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, hub.legacy.subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, hub.legacy.unsubscribe)
    for prompt in prompts:
        server.add_prompt(
            Prompt.from_function(prompt.render, name=prompt.name, description=prompt.description)
        )
    # The SDK's own DNS-rebinding check stays on as a second line, with exactly our allow-lists, so it can
    # never refuse a request that admission accepted (admission answers first with 403/415/413).
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=allowed_hosts(port),
        allowed_origins=allowed_origins(port),
    )
    # one JSON body per answer, except a ``subscriptions/listen`` stream (SSE), which carries resource
    # updates, and the 2025-era sessions (their GET stream carries them) - coreai.mcp.dualmode
    json_app, sse_app, session_app = (
        server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            json_response=json_response,
            stateless_http=stateless,
            max_request_body_size=settings.max_body_bytes,
            max_sessions=MAX_SESSIONS,
            session_idle_timeout=SESSION_IDLE_S,
            transport_security=security,
            host=settings.host,
        )
        for json_response, stateless in ((True, True), (False, True), (True, False))
    )
    router = ByMethod(json_app, sse_app, on_loop=hub.bind, session_app=session_app)
    inner = ProfileScope(router, default=settings.profile)
    app = AdmissionMiddleware(
        inner,
        port=port,
        token=token,
        path=MCP_PATH,
        max_body_bytes=settings.max_body_bytes,
        auth_warning_interval_s=settings.auth_warning_interval_s,
    )
    return app, served


class ProfiledServer(MCPServer[Any]):
    """``tools/list`` and ``prompts/list`` show the request's profile only (``coreai.mcp.profiles``)."""

    def __init__(
        self,
        tool_profiles: Mapping[str, frozenset[str]],
        prompt_profiles: Mapping[str, frozenset[str]],
        *a: Any,
        **kw: Any,
    ) -> None:
        super().__init__(*a, **kw)
        self.served_uris: list[str] = []  # for the message of an unknown resource
        self._tool_profiles = dict(tool_profiles)
        self._prompt_profiles = dict(prompt_profiles)

    async def list_tools(self) -> list[MCPTool]:
        profile = CURRENT.get()
        tools = await super().list_tools()
        return [t for t in tools if visible(self._tool_profiles.get(t.name, EVERY), profile)]

    async def list_prompts(self) -> list[MCPPrompt]:
        profile = CURRENT.get()
        prompts = await super().list_prompts()
        return [p for p in prompts if visible(self._prompt_profiles.get(p.name, EVERY), profile)]

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        try:
            return await super().read_resource(uri, context)
        except ResourceNotFoundError:
            raise unknown_resource(str(uri), self.served_uris) from None

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        """Unknown prompts and arguments are -32602 naming what is available (``coreai.mcp.rpcerrors``)."""
        available = {
            p.name: [(a.name, bool(a.required)) for a in p.arguments or ()] for p in await self.list_prompts()
        }
        problem = prompt_problem(name, arguments, available)
        if problem is not None:
            raise problem
        return await super().get_prompt(name, arguments, context)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # inherited by accepted sockets: without it every response waits ~40 ms on Nagle + delayed ACK
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise McpError(f"MCP cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    sock.setblocking(False)
    return sock


class McpServerThread:
    """Owns the uvicorn server thread; ``start()`` / ``stop()`` are called from the game's main thread."""

    def __init__(
        self,
        settings: McpSettings,
        tools: Sequence[Tool],
        queue: MainLoopQueue,
        *,
        resources: Sequence[ResourceSpec] = (),
        prompts: Sequence[PromptSpec] = (),
        hub: UpdateHub | None = None,
        profiles: Mapping[str, frozenset[str]] | None = None,
    ) -> None:
        if not is_loopback_host(settings.host):  # also enforced by McpSettings; this guards model_construct
            raise SettingsError("mcp.host", f"refusing to bind '{settings.host}': loopback only")
        self.settings = settings
        self.served = list(tools)
        self.resources = list(resources)
        self.prompts = list(prompts)
        self.hub = hub if hub is not None else UpdateHub()
        self.profiles = dict(profiles or {})
        self.bridge = MainThreadBridge(queue, settings.call_timeout_s)
        store = store_stable_token if settings.stable_token else None
        self.resolved: ResolvedToken = resolve_token(
            settings.token, auth_disabled=settings.auth_disabled, store=store
        )
        self.port: int | None = None
        self.tools: list[str] = []
        self.app: AdmissionMiddleware | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self._sdk_tools: dict[str, SdkTool] = {}

    @property
    def token(self) -> str | None:
        return self.resolved.token

    @property
    def url(self) -> str:
        host = "[::1]" if self.settings.host.strip("[]") == "::1" else self.settings.host
        return f"http://{host}:{self.port}{MCP_PATH}"

    @property
    def running(self) -> bool:
        alive = self._thread is not None and self._thread.is_alive()
        return alive and self._server is not None and self._server.started

    def start(self, timeout_s: float = 10.0) -> None:
        if self._thread is not None:
            raise McpError("MCP server already started")
        self._sock = _bind(self.settings.host, self.settings.port)
        self.port = int(self._sock.getsockname()[1])
        self.app, sdk_tools = build_app(
            self.settings,
            self.served,
            self.bridge,
            port=self.port,
            token=self.resolved.token,
            resources=self.resources,
            prompts=self.prompts,
            hub=self.hub,
            profiles=self.profiles,
        )
        self._sdk_tools = {t.name: t for t in sdk_tools}
        self.tools = list(self._sdk_tools)
        config = uvicorn.Config(
            self.app,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=3,
            ws="none",
            http=HeaderDeadlineH11,  # closes connections that never finish their headers
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, name="mcp-server", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise McpError(f"MCP server did not start on {self.settings.host}:{self.port}")
            time.sleep(0.01)
        if self.resolved.token is None:
            _log.warning("MCP auth is DISABLED by setting: any local process can drive the game this session")
        for warning in self.resolved.warnings:
            _log.warning("MCP token: {}", warning)
            announce(f"WARNING: {warning}")
        instructions = connect_instructions(self.url, self.token)
        _log.info(
            "MCP server started (token from {}, tools: {})\n{}",
            self.resolved.source,
            ", ".join(self.tools) or "none",
            instructions,
        )
        announce(instructions)

    def update_tool(self, tool: Tool) -> bool:
        """Serve the new version of a tool already offered (e.g. a plan schema that lists a new event)."""
        sdk = self._sdk_tools.get(tool.name)
        if sdk is None:
            return False
        refresh(sdk, tool)
        self.served = [tool if t.name == tool.name else t for t in self.served]
        return True

    def stop(self, timeout_s: float = 5.0) -> None:
        """Resolve every queued call, stop uvicorn, join the thread; safe to call twice."""
        self.bridge.close()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                _log.error("MCP server thread did not stop within {:g}s", timeout_s)
                if self._server is not None:
                    self._server.force_exit = True
                self._thread.join(1.0)
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._thread is not None:
            _log.info("MCP server stopped")
        self._thread = None

    def __enter__(self) -> McpServerThread:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
