"""The bearer token (setting, then env ``COREAI_MCP_TOKEN``, then, with ``stable_token``, one generated once
and stored in the user's settings, else a fresh random one) and the lines to paste.

``resolve_token`` tries the sources in order (``_SOURCES``; add a source there, e.g. a stable per-user
token file); a source that is set but refused (an env token shorter than 16 characters) is skipped with a
``warning`` saying why. ``connect_instructions`` is the endpoint, the token, and ready-to-paste
configuration for every client in ``coreai.mcp.client_configs``; ``announce`` writes it, and any warning,
to the console (stderr) as well as the log.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TextIO

ENV_TOKEN = "COREAI_MCP_TOKEN"
MIN_ENV_TOKEN_CHARS = 16
TokenSource = Literal["setting", "env", "stored", "random", "disabled"]


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


def resolve_token(
    setting: str | None,
    *,
    auth_disabled: bool = False,
    store: Callable[[str], None] | None = None,
) -> ResolvedToken:
    """Pick the token in the documented order; a refused source adds a warning and the next one is tried.
    ``store`` (the opt-in stable token) keeps a newly generated token for the next start; if storing
    fails the token still works for this start, with a warning."""
    if auth_disabled:
        return ResolvedToken(None, "disabled")
    warnings: list[str] = []
    for name, source in _SOURCES:
        token, refused = source(setting)
        if token:
            return ResolvedToken(token, name, tuple(warnings))
        if refused:
            warnings.append(refused)
    fresh = secrets.token_urlsafe(32)
    if store is not None:
        try:
            store(fresh)
            return ResolvedToken(fresh, "stored", tuple(warnings))
        except Exception as exc:  # a read-only settings file: this start still gets a token
            warnings.append(f"could not store a stable token ({exc}); a random one is used this start")
    return ResolvedToken(fresh, "random", tuple(warnings))


def store_stable_token(token: str) -> None:
    """Keep ``token`` as ``[mcp] token`` in the user's settings file (comments and other keys stay)."""
    from coreai.settings_writer import update_settings

    update_settings({"mcp": {"token": token}})


def announce(text: str, stream: TextIO | None = None) -> None:
    """Write ``text`` to the game console (stderr), where a player starting ``--mcp`` looks for it."""
    out = stream if stream is not None else sys.stderr
    try:
        out.write(text.rstrip("\n") + "\n")
        out.flush()
    except (OSError, ValueError):  # a closed console must not stop the server
        pass


def connect_instructions(url: str, token: str | None, name: str = "arena") -> str:
    """Multi-line text: the endpoint and token, then a snippet for each client (``arena mcp-config <client>``
    prints one of them alone)."""
    from coreai.mcp.client_configs import CLIENTS, TITLES, WHERE, client_config

    lines = [f"MCP server listening on {url}"]
    if token is None:
        lines.append("AUTH DISABLED (auth_disabled=True): any local process can drive the game")
    else:
        lines.append(f"Auth token: {token}")
    for client in CLIENTS:
        snippet = client_config(client, url, token, name)
        lines += ["", f"{TITLES[client]} ({WHERE[client]}):", *("  " + ln for ln in snippet.splitlines())]
    return "\n".join(lines)
