"""A client's mistake answered as the protocol says, with the server's own message, and no traceback.

* an unknown resource (no URI or template matches, or the game has no such run / skill / screenshot):
  ``-32002`` (the spec's "resource not found") with the message that names what is available;
* an unknown prompt, a missing or unknown prompt argument: ``-32602`` (invalid params) listing what is
  available;
* the game failing to read a resource it knows (a save it cannot parse): ``-32603`` with the reason.

These are logged at INFO (a client's mistake is not the server's error); a bug still logs its traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from loguru import logger
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

from coreai.errors import CoreAIError, McpError

RESOURCE_NOT_FOUND = -32002
_log = logger.bind(feature="mcp", trace_id="-")


def unknown_resource(uri: str, served: Sequence[str]) -> MCPError:
    _log.info("client asked for an unknown resource {}", uri[:200])
    return MCPError(
        RESOURCE_NOT_FOUND, f"unknown resource '{uri[:200]}'; served: {', '.join(served)}", {"uri": uri}
    )


def guarded_read(read: Callable[..., Any], uri: str) -> Callable[..., Any]:
    """``read`` with the game's errors turned into protocol errors (the signature is kept: the SDK builds
    a template's parameters from it)."""

    @functools.wraps(read)
    def wrapper(**params: Any) -> Any:
        try:
            return read(**params)
        except McpError as exc:
            shown = uri.format(**params) if params else uri
            if exc.status == 404:
                _log.info("resource {}: {}", shown[:200], exc)
                raise MCPError(RESOURCE_NOT_FOUND, str(exc), {"uri": shown}) from None
            _log.warning("resource {} failed: {}", shown[:200], exc)
            raise MCPError(INTERNAL_ERROR, str(exc), {"uri": shown}) from None
        except CoreAIError as exc:
            shown = uri.format(**params) if params else uri
            _log.warning("resource {} failed: {}", shown[:200], exc)
            raise MCPError(INTERNAL_ERROR, str(exc), {"uri": shown}) from None

    return wrapper


def prompt_problem(
    name: str, arguments: dict[str, Any] | None, available: dict[str, list[tuple[str, bool]]]
) -> MCPError | None:
    """Why ``prompts/get`` cannot render: an unknown prompt or argument, a missing required one (None: it
    can). ``available``: the prompts the client may see, each with its (argument, required) pairs."""
    if name not in available:
        listed = ", ".join(sorted(available)) or "none"
        _log.info("client asked for an unknown prompt {!r}", name[:80])
        message = f"unknown prompt '{name[:80]}'; available: {listed}"
        return MCPError(INVALID_PARAMS, message, {"available": sorted(available)})
    params = available[name]
    names = [p for p, _ in params]
    shown = ", ".join(f"{p} (required)" if req else p for p, req in params) or "none"
    given = set(arguments or {})
    extra = sorted(given - set(names))
    missing = [p for p, req in params if req and p not in given]
    if not extra and not missing:
        return None
    what = f"unknown argument(s) {', '.join(extra)}" if extra else f"missing {', '.join(missing)}"
    _log.info("prompt {}: {}", name, what)
    return MCPError(INVALID_PARAMS, f"prompt '{name}': {what}; its arguments: {shown}", {"arguments": names})
