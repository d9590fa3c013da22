"""MCP serves the same ``coreai.tools.Tool`` objects the in-game agents use: ``build_tools(tools, bridge)``.

Each ``Tool`` becomes an SDK tool whose input schema is the tool's own pydantic argument model
(``Tool.schema()``) and whose call validates the arguments with that model, then runs ``tool.invoke`` on a
worker thread with a ``ToolContext`` whose ``main`` posts through the ``MainThreadBridge``: the same
main-loop queue as the agents, plus the bridge's rules (a call the client gives up on, or that times out,
is cancelled in the queue and never runs later). Failures map to what the client sees:

* main thread did not answer (paused / not draining / stopping) or the call was abandoned -> JSON-RPC
  error -32603 naming the cause;
* the game refused or failed (``CoreAIError``: Lua error, bad mod, unknown prefab...) -> a tool error
  result (``isError``) carrying that message (``ToolFailed``: its structured data as JSON), which the
  agent can read and fix; invalid arguments -> a tool error naming the field.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import anyio
from loguru import logger
from mcp.server.mcpserver import Image
from mcp.server.mcpserver.exceptions import ToolError as SdkToolError
from mcp.server.mcpserver.tools import Tool as SdkTool
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, ResourceLink
from pydantic import Field, ValidationError
from pydantic_core import to_jsonable_python

from coreai.commands import MainLoopCommand
from coreai.errors import CoreAIError, MainLoopTimeout, TaskCancelled, ToolFailed
from coreai.mcp.mainthread import AGENT, CLIENT_GONE, MainThreadBridge
from coreai.mcp.profiles import CURRENT, EVERY, visible
from coreai.tools.base import ImageResult, LinkResult, Tool, ToolContext


def _trace() -> str:
    return "mcp-" + uuid.uuid4().hex[:8]


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=str)


class BridgePort:
    """``ToolContext.main`` for one MCP call: a blocking ``call`` (from the tool's worker thread) that awaits
    ``bridge.submit`` on the server loop, keeping the request's client-gone signal."""

    def __init__(self, bridge: MainThreadBridge, loop: asyncio.AbstractEventLoop, label: str) -> None:
        self.bridge = bridge
        self.loop = loop
        self.label = label
        self.gone = CLIENT_GONE.get()
        self._lock = threading.Lock()
        self._futures: set[concurrent.futures.Future[Any]] = set()

    def call(self, command: MainLoopCommand, timeout: float | None = None) -> Any:
        async def submit() -> Any:
            CLIENT_GONE.set(self.gone)  # this task's own context copy
            return await self.bridge.submit(command, label=self.label)

        future = asyncio.run_coroutine_threadsafe(submit(), self.loop)
        with self._lock:
            self._futures.add(future)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise TaskCancelled(f"'{self.label}' abandoned: the client gave up on it", scope="mcp") from None
        finally:
            with self._lock:
                self._futures.discard(future)

    def cancel(self) -> None:
        with self._lock:
            for future in self._futures:
                future.cancel()


def _arg_errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:4]:
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        got = err.get("input")
        shown = f" (got {str(got)[:40]!r})" if isinstance(got, str | int | float) and err["loc"] else ""
        parts.append(f"{where}: {err['msg']}{shown}")
    return "; ".join(parts)


def _relay_gone(ctx: ToolContext) -> asyncio.Future[None] | None:
    """A client that gives up on a call already running (``notifications/cancelled`` on a stateless request,
    or a dropped connection) sets the tool's cancel event: a step then ends at its next tick."""
    gone = CLIENT_GONE.get()
    if gone is None:
        return None

    async def relay() -> None:
        await gone.wait()
        ctx.cancel.set()

    return asyncio.ensure_future(relay())


async def call_tool(tool: Tool, bridge: MainThreadBridge, arguments: dict[str, Any]) -> Any:
    """Validate, run ``tool`` for an MCP client, and map its outcome (see the module docstring)."""
    trace = _trace()
    log = logger.bind(feature="mcp", trace_id=trace)
    try:
        args = tool.args_model.model_validate(arguments or {})
    except ValidationError as exc:
        raise SdkToolError(f"invalid arguments for '{tool.name}': {_arg_errors(exc)}") from None
    port = BridgePort(bridge, asyncio.get_running_loop(), f"mcp:{tool.name}")
    ctx = ToolContext(trace_id=trace, role=AGENT, main=port)
    relay = _relay_gone(ctx)
    try:
        result = await anyio.to_thread.run_sync(tool.invoke, args, ctx, abandon_on_cancel=True)
    except MainLoopTimeout as exc:
        log.warning("tool {} failed: {}", tool.name, exc)
        raise MCPError(INTERNAL_ERROR, str(exc), data={"tool": tool.name, "cause": exc.cause}) from exc
    except TaskCancelled as exc:
        log.warning("tool {} cancelled: {}", tool.name, exc)
        raise MCPError(INTERNAL_ERROR, str(exc), data={"tool": tool.name}) from exc
    except ToolFailed as exc:
        log.info("tool {} failed in the game: {}", tool.name, exc)
        data = _jsonable(exc.data) or {"error": str(exc)}
        raise SdkToolError(json.dumps(data, ensure_ascii=False)) from exc
    except CoreAIError as exc:
        log.info("tool {} refused by the game: {}", tool.name, exc)
        raise SdkToolError(str(exc)) from exc
    except (asyncio.CancelledError, anyio.get_cancelled_exc_class()):
        ctx.cancel.set()
        port.cancel()
        raise
    except Exception as exc:  # a bug in a tool: the client gets a clean error, the log the traceback
        log.opt(exception=exc).error("tool {} raised", tool.name)
        raise SdkToolError(f"{tool.name} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        if relay is not None:
            relay.cancel()
    log.debug("tool {} done", tool.name)
    if isinstance(result, ImageResult):
        return Image(data=result.png, format="png")
    if isinstance(result, LinkResult):
        return ResourceLink(
            uri=result.uri,
            name=result.name,
            mime_type=result.mime_type,
            size=result.size_bytes,
            description=result.note or None,
        )
    return _jsonable(result)


async def _returns_object() -> dict[str, Any]:
    return {}


async def _returns_text() -> str:
    return ""


async def _returns_image() -> Image:
    return Image(data=b"", format="png")


_SHAPES = {"object": _returns_object, "text": _returns_text, "image": _returns_image}


class CoreTool(SdkTool):
    """An SDK tool backed by a ``coreai.tools.Tool`` (schema and call both come from it), served in the
    MCP profiles it was registered for."""

    core: Any = Field(default=None, exclude=True)
    bridge: Any = Field(default=None, exclude=True)
    profiles: frozenset[str] = Field(default=EVERY, exclude=True)

    async def run(self, arguments: dict[str, Any], context: Any = None, convert_result: bool = False) -> Any:
        profile = CURRENT.get()
        if not visible(self.profiles, profile):
            raise SdkToolError(f"'{self.name}' is not in the '{profile}' profile this client connected with")
        result = await call_tool(self.core, self.bridge, arguments)
        return self.fn_metadata.convert_result(result) if convert_result else result


def sdk_tool(tool: Tool, bridge: MainThreadBridge, profiles: frozenset[str] = EVERY) -> SdkTool:
    shape = SdkTool.from_function(_SHAPES[tool.returns], name=tool.name, description=tool.description)
    fields = {name: getattr(shape, name) for name in SdkTool.model_fields}
    extra = {"parameters": tool.schema(), "core": tool, "bridge": bridge, "profiles": profiles}
    return CoreTool(**{**fields, **extra})


def refresh(sdk: SdkTool, tool: Tool) -> None:
    """Point an served SDK tool at a new version of its ``Tool`` (same name)."""
    sdk.core = tool  # type: ignore[attr-defined]
    sdk.parameters = tool.schema()
    sdk.description = tool.description


def build_tools(
    tools: Iterable[Tool], bridge: MainThreadBridge, profiles: Mapping[str, frozenset[str]] | None = None
) -> list[SdkTool]:
    """The SDK tools for ``tools`` (the game's chosen MCP subset), in the given order; ``profiles``: each
    tool's MCP profiles (absent: every profile)."""
    return [sdk_tool(t, bridge, (profiles or {}).get(t.name, EVERY)) for t in tools]
