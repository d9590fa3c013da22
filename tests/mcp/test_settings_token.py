"""Settings defaults, loopback-only binding, token resolution order, the start-up log with client configs."""

from __future__ import annotations

import socket

import pytest
from loguru import logger
from pydantic import ValidationError

from coreai.errors import McpError, SettingsError
from coreai.mainloop import MainLoopQueue
from coreai.mcp import McpServerThread, McpSettings, SkillLibrary
from coreai.mcp.client_configs import CLIENTS, client_config
from coreai.mcp.token import ENV_TOKEN, connect_instructions, resolve_token
from coreai.tools.view_tools import read_skill_tool
from coreai.world import CoreAiBindings


def test_defaults_are_off_loopback_8590() -> None:
    s = McpSettings()
    assert (s.enabled, s.host, s.port, s.token, s.auth_disabled) == (False, "127.0.0.1", 8590, None, False)
    assert (s.call_timeout_s, s.max_resolution, s.max_body_bytes) == (30.0, 1024, 4 * 1024 * 1024)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2", "::ffff:127.0.0.1"])
def test_loopback_hosts_are_accepted(host: str) -> None:
    assert McpSettings(host=host).host == host


def test_binding_a_public_address_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValidationError, match=r"refusing to bind MCP to '0\.0\.0\.0': only loopback"):
        McpSettings(host="0.0.0.0")
    sneaky = McpSettings.model_construct(host="0.0.0.0")  # bypassing validation still cannot bind it
    with pytest.raises(SettingsError, match="loopback only"):
        McpServerThread(sneaky, [], MainLoopQueue(CoreAiBindings()))


def test_token_order_setting_then_env_then_random(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_TOKEN, "env-token-0123456789")
    assert resolve_token("setting-token-0123456789").token == "setting-token-0123456789"
    assert resolve_token(None) == resolve_token(None)  # env: stable across starts
    assert resolve_token(None).source == "env" and resolve_token(None).token == "env-token-0123456789"
    monkeypatch.setenv(ENV_TOKEN, "short")  # too short to be a secret: ignored
    assert resolve_token(None).source == "random"
    monkeypatch.delenv(ENV_TOKEN)
    a, b = resolve_token(None), resolve_token(None)
    assert a.source == "random" and a.token and b.token and a.token != b.token and len(a.token) >= 32
    assert resolve_token("setting-token-0123456789", auth_disabled=True).token is None


def test_token_setting_must_be_long() -> None:
    with pytest.raises(ValidationError):
        McpSettings(token="abc")


def test_connect_instructions_are_ready_to_paste() -> None:
    url, token = "http://127.0.0.1:8590/mcp", "tok-0123456789abcdef"
    text = connect_instructions(url, token)
    for client in CLIENTS:
        snippet = client_config(client, url, token)
        assert "\n".join("  " + ln for ln in snippet.splitlines()) in text, client
    assert f"Auth token: {token}" in text
    assert "AUTH DISABLED" in connect_instructions(url, None)


def test_start_logs_the_token_and_client_lines_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_TOKEN, raising=False)
    lines: list[str] = []
    sink = logger.add(
        lambda m: lines.append(str(m)), level="INFO", filter=lambda r: r["extra"].get("feature") == "mcp"
    )
    server = McpServerThread(
        McpSettings(port=0), [read_skill_tool(SkillLibrary())], MainLoopQueue(CoreAiBindings())
    )
    try:
        server.start()
        assert server.running and server.url == f"http://127.0.0.1:{server.port}/mcp"
        # accepted sockets inherit it; without it each response stalls ~40 ms (Nagle + delayed ACK)
        assert server._sock is not None
        assert server._sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        server.stop()
        logger.remove(sink)
    started = [ln for ln in lines if "MCP server started" in ln]
    assert len(started) == 1
    assert server.token and f'--header "Authorization: Bearer {server.token}"' in started[0]
    assert "token from random" in started[0]


def test_a_busy_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        server = McpServerThread(McpSettings(port=port), [], MainLoopQueue(CoreAiBindings()))
        with pytest.raises(McpError, match=f"cannot listen on 127.0.0.1:{port}"):
            server.start()


def test_stop_is_idempotent_and_start_twice_is_refused() -> None:
    server = McpServerThread(McpSettings(port=0), [], MainLoopQueue(CoreAiBindings()))
    server.start()
    with pytest.raises(McpError, match="already started"):
        server.start()
    server.stop()
    server.stop()
    assert not server.running
