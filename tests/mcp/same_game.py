"""One fixed playtest (the same inputs whatever happens), for "a window is the same game": the digests at
ticks 60, 600 and 1800 must be equal in a window and headless, and in two processes."""

from __future__ import annotations

from typing import Any

from mcp import Client
from play_glue import call

CHECK_TICKS = (60, 600, 1800)


async def play_fixed(c: Client) -> dict[int, dict[str, Any]]:
    """Step to each check tick with the same presses, aims and holds; the digest at each one."""
    out: dict[int, dict[str, Any]] = {}
    out[60] = await call(c, "sim_control", action="step", ticks=60)  # nothing pressed: spawns only
    await call(c, "player_input", action="press", key="shoot")
    await call(c, "player_input", action="aim", x=1400.0, y=1000.0)
    await call(c, "player_input", action="hold", key="move_up", ticks=90)
    await call(c, "player_input", action="aim", x=900.0, y=300.0, space="screen")
    await call(c, "player_input", action="hold", key="move_left", ticks=150)
    await call(c, "player_input", action="press", key="dash")
    out[600] = await call(c, "sim_control", action="step", ticks=600 - 300)
    await call(c, "player_input", action="press", key="move_right")
    await call(c, "sim_control", action="step", ticks=400)
    await call(c, "player_input", action="release", key="move_right")
    await call(c, "player_input", action="aim", x=200.0, y=600.0, space="screen")
    out[1800] = await call(c, "sim_control", action="step", ticks=1800 - 1000)
    return out


def comparable(digest: dict[str, Any]) -> dict[str, Any]:
    """The digest without the fields that describe the call rather than the game."""
    return {k: v for k, v in digest.items() if k not in ("applied_at_tick",)}
