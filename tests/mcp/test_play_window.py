"""The same playtest in a real window (issue 25): ``python -m game --mcp --frozen`` under Xvfb, driven by the
SDK's client. A frozen window keeps drawing and serving calls; a step (as fast as the simulation allows)
is exact; the screenshot after a frozen step is the frame the agent stepped to; wave 1 ends on the upgrade
screen, a pick opens the Merchant's shop screen, next_wave leaves it. Skipped where Xvfb is not installed."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from play_glue import call, client, game_process, play_out_wave, refused, shoot_until_kill

from game.sim.config import PLAYER_BASE, TICK_HZ

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb for a real window"),
]


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    for n in range(71, 99):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            break
    display = f":{n}"
    proc = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{n}").exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.skip("Xvfb did not start")
            time.sleep(0.05)
        yield display
    finally:
        proc.terminate()
        proc.wait(5)


def test_an_agent_plays_wave_one_in_a_window(tmp_path: Path) -> None:
    with (
        xvfb() as display,
        game_process(
            tmp_path / "saves", "--seed", "11", "--mute", env={"DISPLAY": display}, drop=("ARCADE_HEADLESS",)
        ) as url,
    ):
        anyio.run(_play_in_window, url, tmp_path)
    assert os.environ.get("ARCADE_HEADLESS") == "1"  # the test process itself stays headless


async def _play_in_window(url: str, tmp: Path) -> None:
    async with client(url) as c, c.listen(resource_subscriptions=["arena://runs/current"]) as sub:
        first = await call(c, "sim_control", action="state")
        assert first["frozen"] and first["tick"] == 0
        await anyio.sleep(0.5)  # the window draws frames meanwhile; the world does not move
        assert (await call(c, "sim_control", action="state"))["tick"] == 0

        stepped = await call(c, "sim_control", action="step", ticks=30)
        assert stepped["tick"] == 30 and stepped["stopped"] == "ticks"
        x0 = stepped["pos"][0]
        held = await call(c, "player_input", action="hold", key="move_right", ticks=60)
        assert held["tick"] == 90
        assert held["pos"][0] - x0 == pytest.approx(PLAYER_BASE.speed * 60 / TICK_HZ, abs=0.11)

        assert "between" in await refused(c, "sim_control", action="set_speed", speed=20)
        assert (await call(c, "sim_control", action="set_speed", speed=8))["speed"] == 8
        state = await call(c, "sim_control", action="step_until", until_lua="game.state().enemies_alive > 0")
        killed = await shoot_until_kill(c, state)
        assert killed is not None and killed["kills"] >= 1

        # a screenshot after a frozen step: the frame of the last stepped tick
        after = await call(c, "sim_control", action="step", ticks=6)
        shot = await c.call_tool("screenshot", {"max_resolution": 640})
        assert not shot.is_error
        png = base64.b64decode(shot.content[0].data)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
        (tmp / "frozen_step.png").write_bytes(png)
        assert (await call(c, "sim_control", action="state"))["tick"] == after["tick"]

        end = await play_out_wave(c, after)
        assert end is not None and end["phase"] == "upgrade" and end["wave"] == 1, end
        picked = await call(c, "player_input", action="tap", key="pick_1")
        while picked["phase"] == "upgrade":
            picked = await call(c, "player_input", action="tap", key="pick_1")
        assert picked.get("shop_open"), picked  # the Merchant's screen is up
        await anyio.sleep(0.3)  # a few frames: the shop screen stays (it is not skipped to the arena)
        assert (await call(c, "sim_control", action="state")).get("shop_open")
        assert "shop is open" in await refused(c, "sim_control", action="step", ticks=1)
        await call(c, "player_input", action="release_all")
        await call(c, "player_input", action="tap", key="next_wave")
        on = await call(c, "sim_control", action="step", ticks=10)
        assert on["phase"] == "playing" and on["wave"] == 2 and "shop_open" not in on

        run = json.loads((await c.read_resource("arena://runs/current")).contents[0].text)
        assert run["live"] and run["trajectory"]["decisions"]
        assert {"wave_end", "enemy_killed"} <= {e["type"] for e in run["events"]["list"]}
        with anyio.fail_after(5):
            async for event in sub:
                assert event.uri == "arena://runs/current"
                break
