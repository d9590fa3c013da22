"""A 2026-07-28 client (the Python SDK) that times out on a step cancels it (issue 35): the SDK sends
``notifications/cancelled`` on a stateless request, the step stops at its next tick (within 0.5 s of wall
time), the game is frozen again and the next step is accepted. And a step that runs past its
``max_wall_s`` answers with ``"stopped": "wall_time"`` and the ticks it did."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from play_glue import call, client, game_process

pytestmark = pytest.mark.timeout(180)
NEVER = "game.state().tick < 0"


def test_a_timed_out_step_stops_and_a_wall_time_limit_answers(tmp_path: Path) -> None:
    with game_process(tmp_path / "saves", "--headless", "--seed", "11") as url:
        anyio.run(_cancel_then_wall_time, url)


async def _cancel_then_wall_time(url: str) -> None:
    async with client(url) as c:
        with pytest.raises(MCPError, match="timed out"):
            args = {"action": "step_until", "until_lua": NEVER}
            await c.call_tool("sim_control", args, read_timeout_seconds=0.3)
        gave_up = time.monotonic()
        while (state := await call(c, "sim_control", action="state"))["stepping"]:
            assert time.monotonic() - gave_up < 5.0, "the cancelled step kept running"
        assert time.monotonic() - gave_up <= 0.5 and state["tick"] > 0
        await anyio.sleep(0.3)
        assert (await call(c, "sim_control", action="state"))["tick"] == state["tick"]
        nxt = await call(c, "sim_control", action="step", ticks=5)
        assert nxt["tick"] == state["tick"] + 5 and nxt["stopped"] == "ticks"

        started = time.monotonic()
        limited = await call(c, "sim_control", action="step_until", until_lua=NEVER, max_wall_s=0.5)
        took = time.monotonic() - started
        assert limited["stopped"] == "wall_time" and limited["stepped"] > 0, limited
        assert 0.5 <= took < 3.0 and not limited["stepping"]
