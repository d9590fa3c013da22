"""JSON-RPC 2.0 checks of an MCP request body, made before the SDK parses it.

The SDK's own parser is unbounded (100,000 nested ``[`` answered HTTP 500) and it accepts ids JSON-RPC does
not allow (an object or a float id got 202 and no answer). ``check_body`` parses with the shared bounded
parser and returns the HTTP 400 answer for a body that is not valid JSON (-32700 Parse error) or not a valid
request (-32600 Invalid Request: not an object, an empty batch, an id that is not a string or an integer).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from coreai.persist import loads_json

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


@dataclass(frozen=True)
class RpcRefusal:
    status: int
    code: int
    message: str

    def body(self) -> bytes:
        error = {"code": self.code, "message": self.message}
        return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode("utf-8")


def valid_id(value: Any) -> bool:
    """A request id: a string or an integer (JSON-RPC 2.0; fractions are refused, booleans are not ints)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def check_body(body: bytes) -> RpcRefusal | None:
    """None when ``body`` is a JSON-RPC request, notification, response or batch the SDK may see."""
    try:
        data = loads_json(body)
    except (ValueError, UnicodeDecodeError) as exc:
        return RpcRefusal(400, PARSE_ERROR, f"Parse error: {str(exc)[:200]}")
    messages = data if isinstance(data, list) else [data]
    if not messages:
        return RpcRefusal(400, INVALID_REQUEST, "Invalid Request: empty batch")
    for message in messages:
        if not isinstance(message, dict):
            return RpcRefusal(400, INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
        if "id" in message and message["id"] is not None and not valid_id(message["id"]):
            kind = type(message["id"]).__name__
            return RpcRefusal(
                400, INVALID_REQUEST, f"Invalid Request: id must be a string or an integer, not {kind}"
            )
    return None
