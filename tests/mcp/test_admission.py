"""The admission matrix over raw HTTP against the running server, plus ASGI-level checks of the middleware.

Order matters: each request below breaks exactly one layer (or two, to show which one answers first).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from loguru import logger
from mcp_glue import TOKEN

from coreai.mcp import SkillLibrary
from coreai.mcp.admission import AdmissionMiddleware
from coreai.tools.view_tools import read_skill_tool

MIB4 = 4 * 1024 * 1024
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}


@pytest.fixture
def server(start_server: Any) -> Any:
    return start_server([read_skill_tool(SkillLibrary())])


def post(server: Any, *, body: bytes | None = None, **headers: str | None) -> httpx2.Response:
    base = {
        "Authorization": f"Bearer {TOKEN}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    for key, value in headers.items():
        name = key.replace("_", "-")
        if value is None:
            base.pop(name, None)
        else:
            base[name] = value
    data = json.dumps(INIT).encode() if body is None else body
    return httpx2.post(server.url, content=data, headers=base, timeout=10)


def test_a_well_formed_request_is_admitted(server) -> None:
    r = post(server)
    assert r.status_code == 200, r.text
    assert r.json()["result"]["serverInfo"]["name"] == "arena-director"


def test_401_missing_wrong_or_non_bearer_token(server) -> None:
    assert post(server, Authorization=None).status_code == 401
    wrong = post(server, Authorization="Bearer " + "x" * len(TOKEN))
    assert wrong.status_code == 401 and "Authorization: Bearer" in wrong.json()["error"]
    assert wrong.headers["www-authenticate"].startswith("Bearer")
    assert post(server, Authorization=f"Basic {TOKEN}").status_code == 401
    assert post(server, Authorization=f"Bearer {TOKEN}x").status_code == 401
    assert post(server, Authorization=f"bearer {TOKEN}").status_code == 200  # the scheme is case-insensitive


def test_403_host_not_loopback_on_this_port(server) -> None:
    r = post(server, Host=f"evil.example:{server.port}")
    assert r.status_code == 403 and "Host" in r.json()["error"]
    assert post(server, Host=f"127.0.0.1:{server.port + 1}").status_code == 403
    assert post(server, Host="127.0.0.1").status_code == 403  # no port: not this server


def test_403_origin_present_and_not_loopback_on_this_port(server) -> None:
    r = post(server, Origin="https://evil.example")
    assert r.status_code == 403 and "Origin" in r.json()["error"]
    assert post(server, Origin=f"http://localhost:{server.port + 1}").status_code == 403
    assert post(server, Origin="null").status_code == 403
    assert post(server, Origin=f"http://localhost:{server.port}").status_code == 200


def test_415_body_not_json(server) -> None:
    r = post(
        server, Content_Type="text/plain"
    )  # the CSRF "simple request" a web page can send without preflight
    assert r.status_code == 415
    assert post(server, Content_Type="application/x-www-form-urlencoded").status_code == 415
    assert post(server, Content_Type=None).status_code == 415
    assert post(server, Content_Type="application/json; charset=utf-8").status_code == 200


def test_413_body_over_4_mib_declared_or_streamed(server) -> None:
    big = b" " * (MIB4 + 1)
    assert post(server, body=big).status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer, counted as it streams
        for _ in range(5):
            yield b" " * (1024 * 1024)

    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    r = httpx2.post(server.url, content=chunks(), headers=headers, timeout=10)
    assert r.status_code == 413


def test_405_get_on_the_endpoint(server) -> None:
    r = httpx2.get(server.url, headers={"Authorization": f"Bearer {TOKEN}", "Accept": "text/event-stream"})
    assert r.status_code == 405 and r.headers["allow"] == "POST"


def test_layers_answer_in_order(server) -> None:
    # Host (2) before auth (5); Origin (3) before content type (4); content type (4) before auth (5);
    # auth (5) before size (6) and before the GET check (7).
    assert post(server, Host="evil.example", Authorization=None).status_code == 403
    assert post(server, Origin="https://evil.example", Content_Type="text/plain").status_code == 403
    assert post(server, Content_Type="text/plain", Authorization=None).status_code == 415
    assert post(server, Authorization=None, body=b" " * (MIB4 + 1)).status_code == 401
    assert httpx2.get(server.url).status_code == 401


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_the_sdks_own_rebinding_check_never_preempts_admission(server, host: str) -> None:
    """Every Host/Origin admission accepts also passes the SDK's transport security (no 421 / 403 from it)."""
    r = post(server, Host=f"{host}:{server.port}", Origin=f"http://{host}:{server.port}")
    assert r.status_code == 200, r.text


def test_auth_disabled_admits_without_token_and_keeps_warning(start_server) -> None:
    lines: list[str] = []
    sink = logger.add(
        lambda m: lines.append(str(m)), level="WARNING", filter=lambda r: r["extra"].get("feature") == "mcp"
    )
    try:
        server = start_server(
            [read_skill_tool(SkillLibrary())],
            token=None,
            auth_disabled=True,
            auth_warning_interval_s=0.001,
        )
        assert server.token is None
        assert post(server, Authorization=None).status_code == 200
        assert post(server, Host="evil.example").status_code == 403  # the other layers stay
        assert post(server, Authorization=None).status_code == 200
    finally:
        logger.remove(sink)
    warnings = [ln for ln in lines if "auth is DISABLED" in ln]
    assert len(warnings) >= 3  # once at start, then again while requests keep coming


# -- ASGI level: what raw HTTP from this machine cannot fake --------------------------------------
class Probe:
    """An inner ASGI app recording whether admission let the request through, and the body it saw."""

    def __init__(self) -> None:
        self.called = False
        self.body = b""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.called = True
        message = await receive()
        self.body = message.get("body", b"")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def asgi_request(
    app: AdmissionMiddleware,
    *,
    client: tuple[str, int] | None = ("127.0.0.1", 50000),
    chunks: list[bytes] | None = None,
    headers: dict[str, str] | None = None,
) -> int:
    hdrs = {"host": "127.0.0.1:8590", "content-type": "application/json", "authorization": f"Bearer {TOKEN}"}
    hdrs.update(headers or {})
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/mcp",
        "client": client,
        "headers": [(k.encode(), v.encode()) for k, v in hdrs.items()],
    }
    parts = list(chunks if chunks is not None else [b"{}"])
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if parts:
            body = parts.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(parts)}
        await anyio.sleep_forever()
        raise AssertionError

    async def send(message: Any) -> None:
        sent.append(message)

    async def main() -> None:
        with anyio.fail_after(5):
            await app(scope, receive, send)

    anyio.run(main)
    return int(sent[0]["status"])


def test_403_non_loopback_peer() -> None:
    probe = Probe()
    app = AdmissionMiddleware(probe, port=8590, token=TOKEN)
    assert asgi_request(app, client=("10.1.2.3", 40000)) == 403
    assert asgi_request(app, client=("::ffff:8.8.8.8", 40000)) == 403
    assert asgi_request(app, client=None) == 403
    assert not probe.called
    assert asgi_request(app, client=("::ffff:10.0.0.1", 40000)) == 403
    assert not probe.called
    assert asgi_request(app, client=("::1", 40000)) == 200 and probe.called


def test_413_counts_streamed_chunks_and_the_app_never_sees_them() -> None:
    probe = Probe()
    app = AdmissionMiddleware(probe, port=8590, token=TOKEN, max_body_bytes=1000)
    assert asgi_request(app, chunks=[b"x" * 600, b"x" * 600]) == 413
    assert not probe.called
    assert asgi_request(app, chunks=[b"{", b'"a": 1}']) == 200
    assert probe.body == b'{"a": 1}'  # the buffered chunks reach the app as one body


def test_lifespan_passes_through() -> None:
    seen: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    app = AdmissionMiddleware(inner, port=8590, token=TOKEN)

    async def nothing() -> Any:
        return {}

    async def ignore(_message: Any) -> None:
        return None

    anyio.run(app, {"type": "lifespan"}, nothing, ignore)
    assert seen == ["lifespan"]


def test_a_flood_of_refusals_warns_once_not_per_request() -> None:
    lines: list[str] = []
    sink = logger.add(lambda m: lines.append(str(m)), level="WARNING")
    try:
        app = AdmissionMiddleware(Probe(), port=8590, token=TOKEN)
        for _ in range(20):
            assert asgi_request(app, headers={"authorization": "Bearer nope"}) == 401
    finally:
        logger.remove(sink)
    assert app.refused == {401: 20}
    assert len([ln for ln in lines if "refused (401)" in ln]) == 1
