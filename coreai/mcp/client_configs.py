"""Ready-to-paste MCP client configurations for the game's streamable-HTTP endpoint and bearer token.

Each client documents its own shape; these follow the clients' documentation as checked on 2026-12-01:

- Claude Code: ``claude mcp add --transport http <name> <url> --header "Authorization: Bearer <token>"``
  (docs.anthropic.com/en/docs/claude-code/mcp, "Add a remote HTTP server").
- Codex: ``~/.codex/config.toml`` table ``[mcp_servers.<name>]`` with ``url`` and ``http_headers`` for a
  literal header (``bearer_token_env_var`` names an environment variable instead; an inline
  ``bearer_token`` is rejected) (developers.openai.com/codex/mcp).
- opencode (V2): ``opencode.json`` nests servers under ``"mcp": {"servers": {...}}``; a remote server is
  ``{"type": "remote", "url": ..., "headers": {...}}`` (opencode.ai/docs/mcp-servers: "V2 does not put server
  names directly under mcp").
- LM Studio: ``mcp.json`` (Program tab, Install > Edit mcp.json) with ``{"mcpServers": {<name>: {"url": ...,
  "headers": {...}}}}``; LM Studio follows Cursor's notation (lmstudio.ai/docs/app/mcp).
- Cursor: ``~/.cursor/mcp.json`` or ``.cursor/mcp.json``, ``{"mcpServers": {<name>: {"url": ..., "headers":
  {...}}}}`` (cursor.com/docs/mcp).
"""

from __future__ import annotations

import json
from typing import Literal, get_args

Client = Literal["claude", "codex", "opencode", "lmstudio", "cursor"]
CLIENTS: tuple[str, ...] = get_args(Client)
WHERE: dict[str, str] = {
    "claude": "run in a shell",
    "codex": "add to ~/.codex/config.toml",
    "opencode": "add to opencode.json (project) or ~/.config/opencode/opencode.json",
    "lmstudio": "add to LM Studio's mcp.json (Program tab > Install > Edit mcp.json)",
    "cursor": "add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
}
TITLES: dict[str, str] = {
    "claude": "Claude Code",
    "codex": "Codex",
    "opencode": "opencode",
    "lmstudio": "LM Studio",
    "cursor": "Cursor",
}


def _toml_str(value: str) -> str:
    return json.dumps(value)  # a JSON string literal is a valid TOML basic string


def client_config(client: str, url: str, token: str | None, name: str = "arena") -> str:
    """The configuration text for ``client`` (one of ``CLIENTS``); ``token`` None = auth disabled."""
    header = {"Authorization": f"Bearer {token}"} if token else {}
    if client == "claude":
        shown = f'"{url}"' if "?" in url else url  # a shell (zsh) would read the ? as a pattern
        line = f"claude mcp add --transport http {name} {shown}"
        if token:
            line += f' --header "Authorization: Bearer {token}"'
        return line
    if client == "codex":
        lines = [f"[mcp_servers.{name}]", f"url = {_toml_str(url)}"]
        if token:
            lines.append(f'http_headers = {{ "Authorization" = {_toml_str("Bearer " + token)} }}')
        return "\n".join(lines)
    if client == "opencode":
        remote: dict[str, object] = {"type": "remote", "url": url}
        if header:
            remote["headers"] = header
        doc = {"$schema": "https://opencode.ai/config.json", "mcp": {"servers": {name: remote}}}
        return json.dumps(doc, indent=2)
    if client in ("lmstudio", "cursor"):
        entry: dict[str, object] = {"url": url}
        if header:
            entry["headers"] = header
        return json.dumps({"mcpServers": {name: entry}}, indent=2)
    raise ValueError(f"unknown MCP client '{client}'; known: {', '.join(CLIENTS)}")
