"""Settings of the MCP server (off by default; loopback only; token auth on unless explicitly disabled)."""

from __future__ import annotations

import ipaddress
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

DEFAULT_PORT = 8590
MAX_BODY_BYTES = 4 * 1024 * 1024
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and any loopback IP literal (``127.x.x.x``, ``::1``, ``[::1]``)."""
    bare = host.strip().strip("[]").lower()
    if bare == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(bare)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1 from a dual-stack socket
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


class McpSettings(BaseModel):
    """What the game passes to ``McpServerThread``; ``--mcp`` / ``--mcp-port`` map onto enabled / port."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    enabled: bool = Field(default=False, description="Serve MCP at all (off by default; --mcp turns it on).")
    host: str = Field(default="127.0.0.1", description="Bind address; only loopback is accepted.")
    port: int = Field(default=DEFAULT_PORT, ge=0, le=65535, description="0 = pick a free port (tests).")
    token: str | None = Field(
        default=None,
        min_length=16,
        max_length=256,
        description="Bearer token; None = env COREAI_MCP_TOKEN, else a fresh random one per start.",
    )
    stable_token: bool = Field(
        default=False,
        description="Opt-in: with no token set, generate one once and store it here as `token`, so saved "
        "client configs keep working across restarts.",
    )
    auth_disabled: bool = Field(
        default=False, description="Turn token auth off (loopback/Host/Origin checks stay); warns all along."
    )
    call_timeout_s: float = Field(default=30.0, gt=0, le=600, description="Main-thread answer timeout.")
    max_resolution: int = Field(default=1024, ge=64, le=8192, description="Default screenshot long side.")
    profile: Literal["play", "mod", "direct", "all"] = Field(
        default="all",
        description="The tools a client sees unless its URL asks for another profile (`/mcp?profile=play`).",
    )
    max_body_bytes: int = Field(default=MAX_BODY_BYTES, ge=1024, le=64 * 1024 * 1024)
    auth_warning_interval_s: float = Field(
        default=60.0, gt=0, le=3600, description="How often the auth-disabled warning repeats."
    )

    @field_validator("host")
    @classmethod
    def _loopback_only(cls, value: str) -> str:
        if not is_loopback_host(value):
            raise ValueError(
                f"refusing to bind MCP to '{value}': only loopback (127.0.0.1, localhost, ::1) is allowed, "
                "an open port is full control of the game"
            )
        return value
