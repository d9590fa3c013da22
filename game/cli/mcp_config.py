"""Print an MCP client's configuration (claude, codex, opencode, lmstudio, cursor) for this game's server."""

from __future__ import annotations

import argparse
import sys

from coreai.errors import SettingsError
from coreai.mcp.client_configs import CLIENTS, TITLES, WHERE, client_config
from coreai.mcp.profiles import PROFILES
from coreai.mcp.token import resolve_token, store_stable_token
from coreai.settings import Settings, load_settings
from coreai.settings_writer import update_settings

PLACEHOLDER = "<the token the game prints at start>"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="arena mcp-config", description=__doc__)
    p.add_argument("client", choices=CLIENTS)
    p.add_argument(
        "--port", type=int, default=None, help="the port the game serves on (default: the setting)"
    )
    p.add_argument(
        "--name", default=None, help="the server's name in the client (default: arena, or arena-<profile>)"
    )
    p.add_argument(
        "--profile",
        choices=PROFILES,
        default=None,
        help="the tools this client sees: play (sim_control, player_input, ...), mod (Lua), direct (the "
        "director), all (default: the [mcp] profile setting)",
    )
    p.add_argument(
        "--stable-token",
        action="store_true",
        help="opt in to one token for every start: generated once, stored in your settings as [mcp] token",
    )
    ns = p.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        sys.stderr.write(f"arena mcp-config: the settings file is not valid ({exc}); using defaults\n")
        settings = Settings()
    mcp = settings.mcp
    if ns.stable_token and not mcp.stable_token:
        try:
            update_settings({"mcp": {"stable_token": True}})
        except SettingsError as exc:
            sys.stderr.write(f"arena mcp-config: cannot store the stable token setting: {exc}\n")
            return 1
    stable = ns.stable_token or mcp.stable_token
    resolved = resolve_token(
        mcp.token, auth_disabled=mcp.auth_disabled, store=store_stable_token if stable else None
    )
    for warning in resolved.warnings:
        sys.stderr.write(f"note: {warning}\n")
    token = resolved.token
    if resolved.source == "random":
        token = PLACEHOLDER
        sys.stderr.write(
            "note: no fixed token: the game makes a new one each start and prints it.\n"
            "For a config that keeps working: `arena mcp-config --stable-token <client>` once\n"
            "(or export COREAI_MCP_TOKEN).\n"
        )
    elif resolved.source == "stored":
        sys.stderr.write("note: a stable token was generated and stored in your settings ([mcp] token)\n")
    port = ns.port if ns.port is not None else mcp.port
    url = f"http://127.0.0.1:{port}/mcp"
    name = ns.name or "arena"
    if ns.profile is not None and ns.profile != mcp.profile:  # the URL picks the profile for this client
        url += f"?profile={ns.profile}"
        name = ns.name or f"arena-{ns.profile}"
    profile = ns.profile or mcp.profile
    sys.stderr.write(
        f"# {TITLES[ns.client]}: {WHERE[ns.client]}; start the game with `arena --mcp` (profile {profile})\n"
    )
    sys.stdout.write(client_config(ns.client, url, token, name) + "\n")
    return 0
