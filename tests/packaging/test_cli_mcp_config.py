"""``arena mcp-config <client>`` prints each client's documented configuration shape with the port and token
the game will serve, and ``--stable-token`` stores one token once in the user's settings (comments kept)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

from coreai.mcp.token import resolve_token
from coreai.paths import REPO_ROOT
from coreai.settings import load_settings


def arena(*args: str, saves: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "COREAI_MCP_TOKEN"}
    env["ARENA_SAVES_DIR"] = str(saves)
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_each_client_gets_its_documented_shape(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "settings.toml").write_text(
        "# my settings\n[mcp]\nport = 8611  # a port I picked\n", encoding="utf-8"
    )
    first = arena("mcp-config", "--stable-token", "claude", saves=saves)
    token = load_settings(saves / "settings.toml").mcp.token
    assert token and len(token) >= 32
    url = "http://127.0.0.1:8611/mcp"
    # Claude Code: claude mcp add --transport http <name> <url> --header "Authorization: Bearer <token>"
    assert first.stdout.strip() == (
        f'claude mcp add --transport http arena {url} --header "Authorization: Bearer {token}"'
    )
    text = (saves / "settings.toml").read_text(encoding="utf-8")
    assert "# my settings" in text and "# a port I picked" in text and "stable_token = true" in text

    # Codex: [mcp_servers.<name>] url + http_headers
    codex = tomllib.loads(arena("mcp-config", "codex", saves=saves).stdout)
    assert codex == {
        "mcp_servers": {"arena": {"url": url, "http_headers": {"Authorization": f"Bearer {token}"}}}
    }

    # opencode V2: "mcp": {"servers": {<name>: {"type": "remote", "url", "headers"}}}
    opencode = json.loads(arena("mcp-config", "opencode", saves=saves).stdout)
    assert opencode["$schema"] == "https://opencode.ai/config.json"
    assert opencode["mcp"]["servers"]["arena"] == {
        "type": "remote",
        "url": url,
        "headers": {"Authorization": f"Bearer {token}"},
    }
    # LM Studio and Cursor: mcp.json {"mcpServers": {<name>: {"url", "headers"}}}
    for client in ("lmstudio", "cursor"):
        doc = json.loads(arena("mcp-config", client, "--name", "game", saves=saves).stdout)
        assert doc == {"mcpServers": {"game": {"url": url, "headers": {"Authorization": f"Bearer {token}"}}}}

    # the game resolves the same token at its next start (the setting wins), so the configs keep working
    settings = load_settings(saves / "settings.toml").mcp
    assert resolve_token(settings.token).token == token
    again = arena("mcp-config", "claude", saves=saves).stdout
    assert token in again, "generated once, reused afterwards"


def test_without_a_fixed_token_it_says_so(tmp_path: Path) -> None:
    run = arena("mcp-config", "claude", "--port", "8700", saves=tmp_path)
    assert "http://127.0.0.1:8700/mcp" in run.stdout
    assert "<the token the game prints at start>" in run.stdout
    assert re.search(r"--stable-token", run.stderr)
    assert not (tmp_path / "settings.toml").exists(), "nothing is stored without opting in"


def test_a_profile_config_points_the_client_at_that_profile(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "settings.toml").write_text(
        '[mcp]\nport = 8612\ntoken = "t0123456789abcdefXYZ"\n', encoding="utf-8"
    )
    play = json.loads(arena("mcp-config", "cursor", "--profile", "play", saves=saves).stdout)
    assert play["mcpServers"]["arena-play"]["url"] == "http://127.0.0.1:8612/mcp?profile=play"
    codex = tomllib.loads(arena("mcp-config", "codex", "--profile", "mod", "--name", "m", saves=saves).stdout)
    assert codex["mcp_servers"]["m"]["url"] == "http://127.0.0.1:8612/mcp?profile=mod"
    plain = json.loads(arena("mcp-config", "cursor", "--profile", "all", saves=saves).stdout)
    assert plain["mcpServers"]["arena"]["url"] == "http://127.0.0.1:8612/mcp"  # all: the setting's default
    claude = arena("mcp-config", "claude", "--profile", "play", saves=saves).stdout
    words = shlex.split(claude.strip().splitlines()[-1])  # what a shell hands to claude (zsh globs a bare ?)
    assert words[5:7] == ["arena-play", "http://127.0.0.1:8612/mcp?profile=play"], claude
    assert '"http://127.0.0.1:8612/mcp?profile=play"' in claude
