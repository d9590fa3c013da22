"""The bearer token (setting, then env ``COREAI_MCP_TOKEN``, then a fresh random one) and the lines to paste.

``connect_instructions`` is what the game logs once at start: the endpoint, the token, and ready-to-paste
configuration for Claude Code, Codex and opencode.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from typing import Literal

ENV_TOKEN = "COREAI_MCP_TOKEN"
MIN_ENV_TOKEN_CHARS = 16
TokenSource = Literal["setting", "env", "random", "disabled"]


@dataclass(frozen=True)
class ResolvedToken:
    token: str | None  # None only when auth is disabled
    source: TokenSource


def resolve_token(setting: str | None, *, auth_disabled: bool = False) -> ResolvedToken:
    """Pick the token in the documented order; an env token shorter than 16 characters is ignored."""
    if auth_disabled:
        return ResolvedToken(None, "disabled")
    if setting:
        return ResolvedToken(setting, "setting")
    env = os.environ.get(ENV_TOKEN, "").strip()
    if len(env) >= MIN_ENV_TOKEN_CHARS:
        return ResolvedToken(env, "env")
    return ResolvedToken(secrets.token_urlsafe(32), "random")


def connect_instructions(url: str, token: str | None, name: str = "arena") -> str:
    """Multi-line text: the endpoint and token, then Claude Code / Codex / opencode snippets."""
    header = f"Bearer {token}" if token else None
    lines = [f"MCP server listening on {url}"]
    if header is None:
        lines.append("AUTH DISABLED (auth_disabled=True): any local process can drive the game")
    else:
        lines.append(f"Auth token: {token}")
    claude = f"claude mcp add --transport http {name} {url}"
    if header:
        claude += f' --header "Authorization: {header}"'
    lines += ["", "Claude Code:", f"  {claude}", "", "Codex (~/.codex/config.toml):"]
    lines.append(f"  [mcp_servers.{name}]")
    lines.append(f'  url = "{url}"')
    if header:
        lines.append(f'  http_headers = {{ "Authorization" = "{header}" }}')
    remote: dict[str, object] = {"type": "remote", "url": url, "enabled": True, "oauth": False}
    if header:
        remote["headers"] = {"Authorization": header}
    opencode = json.dumps({"mcp": {name: remote}}, indent=2)
    lines += ["", "opencode (opencode.json):", *("  " + ln for ln in opencode.splitlines())]
    return "\n".join(lines)
