"""The game's own MCP wiring: ``AiSession`` with ``--mcp`` serves every tool over the real mod manager, the
real director and the real world, driven by the SDK's client while a headless game loop runs on its own
thread."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from coreai.settings import Settings
from game.ai.backends import BackendSetup, offline_stub
from game.ai.session import AiSession
from game.options import LaunchOptions
from game.sim.config import DT
from game.sim.player import PlayerInput

TOKEN = "session-test-token-0123456789"
SETTINGS = Settings.model_validate(
    {"llm": {"default_backend": "stub", "backends": {}}, "mcp": {"port": 0, "token": TOKEN}}
)


class LoopThread:
    """Plays the role of the game's main thread: steps the world and calls the session every tick."""

    def __init__(self, session: AiSession) -> None:
        self.session = session
        self.world = session.world_factory(3)
        session.on_run_start(self.world)
        self.world.player.hp = 1e9  # keep the run alive for the whole test
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.world.phase == "upgrade":
                self.world.choose_upgrade(self.world.choices[0])
            events = self.world.step(PlayerInput())
            self.session.on_tick(self.world, events)
            self.session.on_frame(self.world, DT)
            time.sleep(DT / 4)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)


@pytest.fixture
def served(saves_dir: Path) -> Iterator[tuple[AiSession, LoopThread]]:
    setup = BackendSetup(registry={"stub": offline_stub()}, routes={})
    session = AiSession(LaunchOptions(mcp=True), settings=SETTINGS, setup=setup, configure_logs=False)
    loop = LoopThread(session)
    loop.thread.start()
    yield session, loop
    loop.stop()
    session.close()


@contextlib.asynccontextmanager
async def client(url: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def payload(result: Any) -> Any:
    assert not result.is_error, result.content
    text = result.content[0].text
    return json.loads(text)


@pytest.mark.timeout(60)
def test_every_tool_is_served_over_the_real_game(served: tuple[AiSession, LoopThread]) -> None:
    session, _loop = served
    assert session.mcp is not None and session.mcp.running
    url = session.mcp.url

    async def scenario() -> None:
        async with client(url) as mcp:
            tools = {t.name for t in (await mcp.list_tools()).tools}
            assert tools == {
                "sim_control",
                "player_input",
                "execute_lua",
                "manage_mods",
                "get_mod_logs",
                "read_skill",
                "world_command",
                "get_director_state",
                "set_director_plan",
                "screenshot",
                "get_inventory",
                "buy_item",
            }
            code = "local p = game.state().player\nreturn coreai_world_spawn('tank', p.x + 300, p.y, 2)"
            ran = payload(await mcp.call_tool("execute_lua", {"code": code}))
            ids = ran["values"][0]
            assert len(ids) == 2
            listed = payload(await mcp.call_tool("world_command", {"action": "list", "limit": 500}))
            assert set(ids) <= {e["id"] for e in listed["entities"]}
            mods = payload(await mcp.call_tool("manage_mods", {"op": "list"}))
            assert {"kill_streak", "meteor_shower", "glass_cannon"} <= {m["name"] for m in mods["mods"]}
            plan = {"pressure": "hold", "mix": {"runner": 3.0}, "reason": "agent says more runners"}
            applied = payload(await mcp.call_tool("set_director_plan", plan))  # the plan's own fields
            assert applied["ok"] is True
            state = payload(await mcp.call_tool("get_director_state", {}))
            assert state["last_reason"] == "agent says more runners"
            bad = await mcp.call_tool("set_director_plan", {**plan, "mix": {"dragon": 1.0}})
            assert bad.is_error and "dragon" in bad.content[0].text
            shot = await mcp.call_tool("screenshot", {})
            assert shot.is_error and "headless" in shot.content[0].text
            shelf = payload(await mcp.call_tool("get_inventory", {}))  # the Merchant's own tool
            assert "Medkit" in {i["name"] for i in shelf["items"]} and shelf["coins"] >= 0

    anyio.run(scenario)
    assert session.director.accepted >= 1 and session.director.rejected >= 1
    # MCP served the very objects the in-game agents call
    agents = session.runtime.orchestrator.tools
    assert [t.name for t in session.mcp.served] == session.mcp.tools
    assert all(t is agents[t.name] for t in session.mcp.served)
