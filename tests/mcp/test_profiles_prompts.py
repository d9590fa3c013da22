"""Tools an agent can afford (issue 25): profiles limit ``tools/list`` (and refuse calls outside them), the
three workflow prompts, and screenshots as a resource link or within a byte budget. The real session with
its MCP server, the headless play loop as the main thread, the SDK's client."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from PIL import Image
from play_glue import headless_loop

from game.ai.session import AiSession
from game.options import LaunchOptions

pytestmark = pytest.mark.timeout(60)
TOKEN = "profile-token-0123456789abcdef"
PLAY = {"sim_control", "player_input", "read_skill", "screenshot", "get_inventory", "buy_item"}


@pytest.fixture
def served(saves_dir: Any) -> Iterator[AiSession]:
    from coreai.settings import Settings

    settings = Settings.model_validate(
        {"llm": {"default_backend": "stub", "backends": {}}, "mcp": {"port": 0, "token": TOKEN}}
    )
    options = LaunchOptions(headless=True, frozen=True, seed=3, mcp=True)
    session = AiSession(options, settings=settings, configure_logs=False)

    def noisy_frame(side: int) -> bytes:  # a frame that compresses badly, so budgets bite
        img = Image.effect_noise((side, side * 9 // 16), 80).convert("RGB")
        out = io.BytesIO()
        img.save(out, format="PNG")
        return out.getvalue()

    session.screenshot = noisy_frame
    with headless_loop(session, options, 3) as running:
        yield running


async def _client(url: str) -> Any:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    return http, Client(streamable_http_client(url, http_client=http), cache=None)


def test_profiles_list_and_refuse(served: AiSession) -> None:
    assert served.mcp is not None
    url = served.mcp.url

    async def scenario() -> None:
        http, c = await _client(url + "?profile=play")
        async with http, c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == PLAY
            r = await c.call_tool("execute_lua", {"code": "return 1"})
            assert r.is_error and "not in the 'play' profile" in r.content[0].text
            assert [p.name for p in (await c.list_prompts()).prompts] == ["playtest_wave"]
            prompt = await c.get_prompt("playtest_wave", {"wave": "2"})
            assert "wave 2" in prompt.messages[0].content.text
        http, c = await _client(url + "?profile=mod")
        async with http, c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert {"execute_lua", "manage_mods", "get_mod_logs", "sim_control"} <= names
            assert "player_input" not in names and "set_director_plan" not in names
        http, c = await _client(url)  # the setting's default: all
        async with http, c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert PLAY | {"execute_lua", "set_director_plan", "world_command"} <= names
            prompts = {p.name for p in (await c.list_prompts()).prompts}
            assert prompts == {"playtest_wave", "repair_mod", "tune_director"}
            repair = await c.get_prompt("repair_mod", {"mod": "kill_streak"})
            assert "get_source" in repair.messages[0].content.text

    anyio.run(scenario)
    bad = httpx2.post(
        url + "?profile=god",
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    assert bad.status_code == 400 and "unknown profile 'god'" in bad.json()["error"]


def test_screenshots_as_a_link_or_within_a_byte_budget(served: AiSession) -> None:
    assert served.mcp is not None
    url = served.mcp.url

    async def scenario() -> None:
        http, c = await _client(url + "?profile=play")
        async with http, c:
            await c.call_tool("sim_control", {"action": "step", "ticks": 5})
            small = await c.call_tool("screenshot", {"max_resolution": 1024, "max_bytes": 60_000})
            png = base64.b64decode(small.content[0].data)
            assert len(png) <= 60_000 and png[:4] == b"\x89PNG"
            linked = await c.call_tool("screenshot", {"max_resolution": 512, "as_link": True})
            link = linked.content[0]
            assert link.type == "resource_link" and link.uri.startswith("arena://screenshots/")
            assert link.mime_type == "image/png" and link.size > 1000
            read = await c.read_resource(link.uri)
            assert base64.b64decode(read.contents[0].blob)[:4] == b"\x89PNG"
            missing = await c.call_tool("screenshot", {"max_resolution": 256, "max_bytes": 4096})
            assert missing.is_error and "fits in 4096 bytes" in missing.content[0].text

    anyio.run(scenario)
