"""A misbehaving OpenAI-compatible server on 127.0.0.1 (stdlib ``http.server`` on a thread).

The request's ``model`` picks the fault, so one server covers every case. It records each request body and,
for the slow stream, how many chunks it had sent when the client hung up.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HUGE_REPLY_CHARS = 1 << 20


def chunk(
    content: str | None = None,
    *,
    finish: str | None = None,
    tool_calls: list[Any] | None = None,
    reasoning: str | None = None,
) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if content is not None:
        delta["content"] = content
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    if reasoning is not None:
        delta["reasoning_content"] = reasoning
    return {
        "id": "chatcmpl-fault",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fault",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


PLAN_WITH_FAKE_PREFAB = {
    "pressure": "raise",
    "spawn_per_wave": 4,
    "elite_percent": 10,
    "prefabs": ["grunt", "dragon_king"],
    "reason": "test the player",
}
VALID_PLAN = {
    "pressure": "hold",
    "spawn_per_wave": 3,
    "elite_percent": 5,
    "prefabs": ["archer"],
    "reason": "steady pace",
}


class _Handler(BaseHTTPRequestHandler):
    server: FaultServer

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/nomodels/"):
            self._json(404, {"error": {"message": "no such route"}})
        elif self.path.endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fault-model", "object": "model"}]})
        else:
            self._json(404, {"error": {"message": "no such route"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.server.record(body)
        scenario = SCENARIOS.get(str(body.get("model")), _ok)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            scenario(self, body)

    def _json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _raw(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def sse(self, events: list[Any], *, done: bool = True, delay_s: float = 0.0) -> int:
        """Send SSE events (dicts as JSON, strings raw); returns how many went out before a hang-up."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        sent = 0
        try:
            for event in events:
                data = event if isinstance(event, str) else json.dumps(event)
                self.wfile.write(f"data: {data}\n\n".encode())
                self.wfile.flush()
                sent += 1
                if delay_s:
                    time.sleep(delay_s)
            if done:
                self.wfile.write(b"data: [DONE]\n\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        return sent


def _ok(h: _Handler, body: dict[str, Any]) -> None:
    h.sse([chunk("Hello "), chunk("arena."), chunk(finish="stop")])


def _plan(h: _Handler, body: dict[str, Any]) -> None:
    h.sse([chunk(json.dumps(VALID_PLAN)), chunk(finish="stop")])


def _slow(h: _Handler, body: dict[str, Any]) -> None:
    sent = h.sse([chunk(f"tick{i} ") for i in range(40)] + [chunk(finish="stop")], delay_s=0.1)
    h.server.slow_sent.append(sent)


def _schema_rejected(h: _Handler, body: dict[str, Any]) -> None:
    if "schema" in (body.get("response_format") or {}):
        h._json(400, {"error": {"message": "response_format.schema is not supported"}})
    else:
        _plan(h, body)


def _accepts(*shapes: str) -> Callable[[_Handler, dict[str, Any]], None]:
    """A server that takes only these structured-output shapes ("json_schema", "json_object_schema",
    "json_object", "none"); others get the status code real servers answer with."""

    def reply(h: _Handler, body: dict[str, Any]) -> None:
        fmt = body.get("response_format")
        shape = "none" if not fmt else fmt.get("type")
        if shape == "json_object" and "schema" in fmt:
            shape = "json_object_schema"
        if shape in shapes:
            _plan(h, body)
        elif shape == "json_schema":  # llama_cpp.server's answer, verbatim but shortened
            message = "1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format')}"
            h._json(500, {"error": {"message": message}})
        else:  # LM Studio: "'response_format.type' must be 'json_schema' or 'text'"
            h._json(400, {"error": {"message": f"'response_format.type' {shape} is not supported"}})

    return reply


def _whole_json(h: _Handler, body: dict[str, Any]) -> None:
    h._json(
        200,
        {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "fault",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "Plain body."},
                }
            ],
            "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
        },
    )


def _tools_without_index(h: _Handler, body: dict[str, Any]) -> None:
    h.sse(
        [
            chunk(tool_calls=[{"function": {"name": "spawn", "arguments": '{"prefab": '}}]),
            chunk(tool_calls=[{"function": {"arguments": '"grunt", "count": 2}'}}]),
            chunk(tool_calls=[{"type": "function", "function": {"name": "set_pressure", "arguments": "{"}}]),
            chunk(tool_calls=[{"function": {"arguments": '"level": "raise"}'}}]),
            chunk(finish="tool_calls"),
        ]
    )


def _director_tool(arguments: dict[str, Any]) -> Callable[[_Handler, dict[str, Any]], None]:
    """A streamed ``set_director_plan`` call with these arguments (the director's real tool)."""

    def reply(h: _Handler, body: dict[str, Any]) -> None:
        call = {
            "index": 0,
            "id": "call_1",
            "type": "function",
            "function": {"name": "set_director_plan", "arguments": json.dumps(arguments)},
        }
        h.sse([chunk(tool_calls=[call]), chunk(finish="tool_calls")])

    return reply


def _hang(h: _Handler, body: dict[str, Any]) -> None:
    time.sleep(3.0)
    _ok(h, body)


SCENARIOS: dict[str, Callable[[_Handler, dict[str, Any]], None]] = {
    "ok": _ok,
    "plan": _plan,
    "director-ok": _director_tool({"pressure": "raise", "mix": {"runner": 4.0}, "reason": "faster foes"}),
    "director-fake-prefab": _director_tool(
        {"pressure": "raise", "mix": {"dragon_king": 4.0}, "reason": "a prefab that does not exist"}
    ),
    "director-bad-types": _director_tool({"pressure": "maximum", "elite_chance": "lots", "reason": 7}),
    "slow": _slow,
    "hang": _hang,
    "schema-rejected": _schema_rejected,
    "lmstudio-like": _accepts("json_schema", "none"),
    "llamacpp-like": _accepts("json_object_schema", "json_object", "none"),
    "no-response-format": _accepts("none"),
    "whole-json": _whole_json,
    "tools-without-index": _tools_without_index,
    "rate-limited": lambda h, b: h._json(
        429, {"error": {"message": "Rate limit reached, retry in 2s", "type": "requests"}}
    ),
    "quota": lambda h, b: h._json(
        429,
        {
            "error": {
                "message": "You exceeded your current quota, check billing",
                "code": "insufficient_quota",
            }
        },
    ),
    "auth": lambda h, b: h._json(401, {"error": {"message": "Incorrect API key provided"}}),
    "forbidden": lambda h, b: h._json(403, {"error": {"message": "Project has no access"}}),
    "server-error": lambda h, b: h._json(500, {"error": {"message": "internal error"}}),
    "malformed-sse": lambda h, b: h.sse(['{"choices": [{"delta": {"content": "hi"'], done=False),
    "malformed-json": lambda h, b: h._raw(200, "application/json", b'{"choices": [{"message": '),
    "truncated": lambda h, b: h.sse([chunk("The wave"), chunk(" begins")], done=False),
    "empty": lambda h, b: h.sse([chunk(finish="stop")]),
    "unknown-tool": lambda h, b: h.sse(
        [
            chunk(
                tool_calls=[
                    {
                        "index": 0,
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "summon_meteor", "arguments": "{}"},
                    }
                ]
            ),
            chunk(finish="tool_calls"),
        ]
    ),
    "fake-prefab": lambda h, b: h.sse([chunk(json.dumps(PLAN_WITH_FAKE_PREFAB)), chunk(finish="stop")]),
    "huge": lambda h, b: h.sse([chunk("x" * HUGE_REPLY_CHARS), chunk(finish="stop")]),
    "think": lambda h, b: h.sse(
        [
            chunk("<thi"),
            chunk("nk>plan the wave</th"),
            chunk("ink>Two grunts."),
            chunk(reasoning="they are weak"),
            chunk(finish="stop"),
        ]
    ),
}


class FaultServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[dict[str, Any]] = []
        self.slow_sent: list[int] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, name="fault-server", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def record(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def count(self, model: str) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.get("model") == model)

    def last(self, model: str) -> dict[str, Any]:
        with self._lock:
            return [r for r in self.requests if r.get("model") == model][-1]

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(5)
