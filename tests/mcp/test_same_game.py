"""A window is the same game (issue 35): one seed and the same inputs give the same run, to the digest, in
a real window under Xvfb and headless, and in two processes (``python -m game [--headless] --mcp --frozen``
driven by the SDK's client). Then, in the window: the run is played past wave 1, a fork at tick 150 ends
it (its summary row keeps its 1831 ticks), and a replay of it re-simulates every one of those ticks,
identical to the record; the forked run has its summary row too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from play_glue import call, client, game_process
from same_game import CHECK_TICKS, comparable, play_fixed

pytestmark = pytest.mark.timeout(300)


def _headless(saves: Path) -> dict[int, dict[str, Any]]:
    async def play(url: str) -> dict[int, dict[str, Any]]:
        async with client(url) as c:
            return await play_fixed(c)

    with game_process(saves, "--headless", "--seed", "11") as url:
        return anyio.run(play, url)


def test_two_headless_processes_play_the_same_run(tmp_path: Path) -> None:
    first, second = _headless(tmp_path / "a"), _headless(tmp_path / "b")
    assert set(first) == set(CHECK_TICKS)
    for tick in CHECK_TICKS:
        assert first[tick]["tick"] == tick
        assert comparable(first[tick]) == comparable(second[tick])
    assert first[1800]["kills"] > 0 and first[600]["near"]  # a real fight, not an empty arena


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb for a real window")
def test_a_window_plays_the_same_run_as_headless(tmp_path: Path) -> None:
    from test_play_window import xvfb

    headless = _headless(tmp_path / "headless")
    found: dict[str, Any] = {}

    async def play(url: str) -> None:
        async with client(url) as c:
            found["window"] = await play_fixed(c)
            await _fork_and_replay(c)

    with (
        xvfb() as display,
        game_process(
            tmp_path / "window", "--seed", "11", "--mute", env={"DISPLAY": display}, drop=("ARCADE_HEADLESS",)
        ) as url,
    ):
        anyio.run(play, url)
    for tick in CHECK_TICKS:
        assert comparable(found["window"][tick]) == comparable(headless[tick]), f"tick {tick}"


async def _fork_and_replay(c: Client) -> None:
    """From tick 1800: wave 1's end, the picks, the shop, 30 ticks of wave 2; fork at 150; replay."""
    state = await call(c, "sim_control", action="step_until", until_event=["wave_end"])
    assert state["phase"] == "upgrade"
    while state["phase"] == "upgrade":
        state = await call(c, "player_input", action="tap", key="pick_1")
    if state.get("shop_open"):
        await call(c, "player_input", action="tap", key="next_wave")
    end = await call(c, "sim_control", action="step", ticks=30)
    played = json.loads((await c.read_resource("arena://runs")).contents[0].text)["current"]

    forked = await call(c, "sim_control", action="fork", run=played, tick=150)
    assert forked["tick"] == 150 and forked["identical"], forked
    runs = {r["id"]: r for r in json.loads((await c.read_resource("arena://runs")).contents[0].text)["runs"]}
    assert runs[played]["summary"] is not None  # the run the fork ended has its summary row
    fork_id = json.loads((await c.read_resource("arena://runs")).contents[0].text)["current"]

    replay = await call(c, "sim_control", action="replay", run=played)
    assert replay["tick"] == end["tick"] == 1831, (replay["tick"], end["tick"])  # every tick, to the last
    assert replay["identical"] and "reached_tick" not in replay, replay
    runs = {r["id"]: r for r in json.loads((await c.read_resource("arena://runs")).contents[0].text)["runs"]}
    assert runs[fork_id]["summary"] is not None  # the forked run, ended by the replay, has its row too
