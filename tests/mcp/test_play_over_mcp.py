"""An outside agent playtests the game over MCP (issue 25): the real CLI (``python -m game --headless --mcp
--frozen``) in a subprocess and the SDK's own client.

The client steps 30 ticks exactly, holds "move right" for 60 ticks and finds the player moved speed x 1 s
to the right, aims at the nearest enemy and shoots until a kill event arrives, plays out wave 1 with
``step_until``, picks an upgrade, goes through the shop, reads the run's trajectory resource, and hears
at least one resource-update notification on a ``subscriptions/listen`` stream. Refusals name their reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from play_glue import call, client, game_process, play_out_wave, refused, shoot_until_kill

from game.sim.config import PLAYER_BASE, TICK_HZ

pytestmark = pytest.mark.timeout(240)


def test_an_agent_plays_wave_one_headless(tmp_path: Path) -> None:
    with game_process(tmp_path / "saves", "--headless", "--seed", "11") as url:
        anyio.run(_play_wave_one, url)


async def _play_wave_one(url: str) -> None:
    async with client(url) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        assert {"sim_control", "player_input"} <= names
        async with c.listen(
            resource_subscriptions=["arena://runs/current", "arena://runs/current/log"]
        ) as sub:
            # frozen at start: nothing moves between calls, however long the agent thinks
            first = await call(c, "sim_control", action="state")
            assert first["frozen"] and first["phase"] == "playing"
            await anyio.sleep(0.3)
            assert (await call(c, "sim_control", action="state"))["tick"] == first["tick"]

            stepped = await call(c, "sim_control", action="step", ticks=30)
            assert stepped["tick"] == first["tick"] + 30 and stepped["stopped"] == "ticks"
            assert stepped["stepped"] == 30 and stepped["frozen"]

            # hold move_right for 60 ticks: speed x 60 ticks of 1/60 s, to the right, nothing else
            x0, y0 = stepped["pos"]
            held = await call(c, "player_input", action="hold", key="move_right", ticks=60)
            assert held["tick"] == stepped["tick"] + 60 and held["stepped"] == 60
            assert held["applied_at_tick"] == stepped["tick"] + 1
            assert held["pos"][0] - x0 == pytest.approx(PLAYER_BASE.speed * 60 / TICK_HZ, abs=0.11)
            assert held["pos"][1] == pytest.approx(y0, abs=0.11)
            assert "held" not in held  # let go after the hold

            # refusals name the reason
            assert "one-shot" in await refused(c, "player_input", action="hold", key="pick_1", ticks=5)
            assert "shop is closed" in await refused(
                c, "player_input", action="tap", key="shop_buy", item="1"
            )
            assert "no upgrade pick is open" in await refused(c, "player_input", action="tap", key="pick_1")
            assert "key" in await refused(c, "player_input", action="press", key="jump")

            # wait for company, then shoot the nearest enemy until something dies
            state = await call(
                c, "sim_control", action="step_until", until_lua="game.state().enemies_alive > 0"
            )
            assert state["stopped"] == "condition" and state["enemies_alive"] > 0
            killed = await shoot_until_kill(c, state)
            assert killed is not None, "no kill after 40 aimed bursts"
            assert killed["matched"][0]["type"] == "enemy_killed" and killed["kills"] >= 1

            # play out wave 1, still shooting at whatever is nearest
            end = await play_out_wave(c, killed)
            assert end is not None and end["phase"] == "upgrade", end
            assert end["wave"] == 1 and end["choices"]

            # between waves: held keys are refused, a pick is taken, the shop opens, next_wave goes on
            assert "upgrade pick is open" in await refused(c, "sim_control", action="step", ticks=1)
            picked = await call(c, "player_input", action="tap", key="pick_1")
            assert picked["picked"] == end["choices"][0]
            while picked["phase"] == "upgrade":  # a level-up banked another pick
                picked = await call(c, "player_input", action="tap", key="pick_1")
            assert picked.get("shop_open") and picked["wave"] == 2
            assert "shop is open" in await refused(c, "sim_control", action="step", ticks=1)
            await call(c, "player_input", action="release_all")
            on = await call(c, "player_input", action="tap", key="next_wave")
            assert "shop_open" not in on
            after = await call(c, "sim_control", action="step", ticks=5)
            assert after["phase"] == "playing" and after["wave"] == 2

            # the run as a resource: the director's trajectory and the event log
            runs = json.loads((await c.read_resource("arena://runs")).contents[0].text)
            assert runs["current"]
            run = json.loads((await c.read_resource("arena://runs/current")).contents[0].text)
            assert run["live"] and run["id"] == runs["current"]
            assert run["trajectory"]["decisions"], "the rules director decided nothing"
            kinds = {e["type"] for e in run["events"]["list"]}
            assert {"enemy_killed", "wave_end", "wave_start"} <= kinds
            skill = (await c.read_resource("arena://skills/mcp")).contents[0].text
            assert "sim_control" in skill

            # at least one notification arrived on the listen stream
            with anyio.fail_after(5):
                async for event in sub:
                    assert event.uri in ("arena://runs/current", "arena://runs/current/log")
                    break
            # the whole run again from its record: same input (picks and purchase included), same run
            replayed = await call(c, "sim_control", action="replay", run=run["id"])
            assert replayed["identical"], json.dumps(replayed.get("diverged"))
            assert (replayed["tick"], replayed["wave"], replayed["kills"]) == (
                after["tick"],
                2,
                after["kills"],
            )
            assert replayed["pos"] == after["pos"] and replayed["hp"] == after["hp"]
            forked = await call(
                c, "sim_control", action="fork", run=run["id"], tick=killed["tick"], director="static"
            )
            assert (
                forked["identical"] and forked["kills"] == killed["kills"] and forked["director"] == "static"
            )
