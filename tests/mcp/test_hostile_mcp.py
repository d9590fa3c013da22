"""Hostile MCP input against the running server: deep JSON bodies, JSON-RPC ids, OAuth discovery, tokens.

Issue 12 item 2 (deep JSON body -> HTTP 400 / -32700) and item 7 (JSON-RPC 2.0 ids, /.well-known/oauth-*
404 before auth, a refused COREAI_MCP_TOKEN gives a console warning, the token lines go to stderr).
"""

from __future__ import annotations

import io
import json
from typing import Any

import httpx2
import pytest
from mcp_glue import TOKEN
from test_admission import INIT, post

from coreai.mainloop import MainLoopQueue
from coreai.mcp import McpServerThread, McpSettings, SkillLibrary
from coreai.mcp.rpcbody import check_body
from coreai.mcp.token import ENV_TOKEN, announce, resolve_token
from coreai.tools.view_tools import read_skill_tool
from coreai.world import CoreAiBindings


@pytest.fixture
def server(start_server: Any) -> Any:
    return start_server([read_skill_tool(SkillLibrary())])


def _rpc_error(r: httpx2.Response) -> dict[str, Any]:
    body = r.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None, body
    return dict(body["error"])


def test_a_100k_deep_body_is_a_400_parse_error_not_a_500(server) -> None:
    r = post(server, body=b"[" * 100_000)
    assert r.status_code == 400, r.text
    err = _rpc_error(r)
    assert err["code"] == -32700 and "deeper than" in err["message"]
    r = post(
        server,
        body=b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    )
    assert r.status_code == 400 and _rpc_error(r)["code"] == -32700
    assert post(server).status_code == 200  # the server is fine afterwards


def test_object_float_and_bool_ids_get_an_invalid_request_answer(server) -> None:
    for bad_id in ({"x": 1}, 1.5, True, [1]):
        r = post(server, body=json.dumps({**INIT, "id": bad_id}).encode())
        assert r.status_code == 400, (bad_id, r.status_code, r.text)
        err = _rpc_error(r)
        assert err["code"] == -32600 and "id must be a string or an integer" in err["message"]
    for good_id in (7, "abc"):
        r = post(server, body=json.dumps({**INIT, "id": good_id}).encode())
        assert r.status_code == 200 and r.json()["id"] == good_id
    assert check_body(b"[]") is not None and check_body(b"[1]") is not None  # empty batch, non-object
    assert check_body(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}') is None


def test_oauth_discovery_is_404_before_auth(server) -> None:
    base = server.url.rsplit("/mcp", 1)[0]
    for path in ("/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/mcp"):
        r = httpx2.get(base + path, timeout=10)  # no token at all
        assert r.status_code == 404, (path, r.status_code)
        assert "Bearer" in r.json()["error"]
    r = httpx2.get(base + "/.well-known/other", timeout=10)
    assert r.status_code == 401  # everything else still needs the token


def test_a_short_env_token_is_refused_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_TOKEN, "short-token")
    resolved = resolve_token(None)
    assert resolved.source == "random" and resolved.token != "short-token"
    assert len(resolved.warnings) == 1
    assert "11 characters" in resolved.warnings[0] and "at least 16" in resolved.warnings[0]
    monkeypatch.setenv(ENV_TOKEN, "long-enough-token-0123")
    assert resolve_token(None).warnings == ()
    out = io.StringIO()
    announce("hello\n", out)
    assert out.getvalue() == "hello\n"


def test_starting_the_server_writes_the_warning_and_token_lines_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_TOKEN, "tiny")
    cfg = McpSettings(enabled=True, port=0)
    server = McpServerThread(cfg, [read_skill_tool(SkillLibrary())], MainLoopQueue(CoreAiBindings()))
    server.start()
    try:
        err = capfd.readouterr().err
    finally:
        server.stop()
    assert f"WARNING: {ENV_TOKEN} is set but ignored: it has 4 characters" in err
    assert f"Auth token: {server.token}" in err and server.url in err
    assert "claude mcp add --transport http" in err and f"Bearer {server.token}" in err
    assert TOKEN not in err
