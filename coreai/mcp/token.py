"""The bearer token (setting, then env ``COREAI_MCP_TOKEN``, then a fresh random one) and the lines to paste.

``resolve_token`` tries the sources in order (``_SOURCES``; add a source there, e.g. a stable per-user
token file); a source that is set but refused (an env token shorter than 16 characters) is skipped with a
``warning`` saying why. ``connect_instructions`` is the endpoint, the token, and ready-to-paste
configuration for Claude Code, Codex and opencode; ``announce`` writes it, and any warning, to the console
(stderr) as well as the log.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TextIO

ENV_TOKEN = "COREAI_MCP_TOKEN"
MIN_ENV_TOKEN_CHARS = 16
TokenSource = Literal["setting", "env", "random", "disabled"]


@dataclass(frozen=True)
class ResolvedToken:
    token: str | None  # None only when auth is disabled
    source: TokenSource
    warnings: tuple[str, ...] = ()  # sources that were set but refused, and why


# A source returns (token, None), (None, why it was refused) or (None, None) when it is not set.
Source = Callable[[str | None], tuple[str | None, str | None]]


def _from_setting(setting: str | None) -> tuple[str | None, str | None]:
    return (setting, None) if setting else (None, None)


def _from_env(_setting: str | None) -> tuple[str | None, str | None]:
    env = os.environ.get(ENV_TOKEN, "").strip()
    if not env:
        return None, None
    if len(env) < MIN_ENV_TOKEN_CHARS:
        return None, (
            f"{ENV_TOKEN} is set but ignored: it has {len(env)} characters, at least "
            f"{MIN_ENV_TOKEN_CHARS} are needed; a random token is used instead (see the lines below)"
        )
    return env, None


_SOURCES: tuple[tuple[TokenSource, Source], ...] = (("setting", _from_setting), ("env", _from_env))


def resolve_token(setting: str | None, *, auth_disabled: bool = False) -> ResolvedToken:
    """Pick the token in the documented order; a refused source adds a warning and the next one is tried."""
    if auth_disabled:
        return ResolvedToken(None, "disabled")
    warnings: list[str] = []
    for name, source in _SOURCES:
        token, refused = source(setting)
        if token:
            return ResolvedToken(token, name, tuple(warnings))
        if refused:
            warnings.append(refused)
    return ResolvedToken(secrets.token_urlsafe(32), "random", tuple(warnings))


def announce(text: str, stream: TextIO | None = None) -> None:
    """Write ``text`` to the game console (stderr), where a player starting ``--mcp`` looks for it."""
    out = stream if stream is not None else sys.stderr
    try:
        out.write(text.rstrip("\n") + "\n")
        out.flush()
    except (OSError, ValueError):  # a closed console must not stop the server
        pass


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
