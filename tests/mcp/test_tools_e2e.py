"""End to end with the SDK's own client against the server on a free loopback port while a headless game runs.

The game is a real ``World`` stepped at 60 Hz on its own "main" thread that drains the real ``MainLoopQueue``;
every tool's work must land on that thread.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_glue import HeadlessGame, ModStoreFake, mcp_session
from PIL import Image
from pydantic import ValidationError

from coreai.commands import CallOnMain
from coreai.errors import CommandRejected
from coreai.mcp import SkillLibrary
from coreai.tools.base import Tool
from coreai.tools.lua_tools import MOD_OPS, execute_lua_tool, get_mod_logs_tool, manage_mods_tool
from coreai.tools.view_tools import read_skill_tool, screenshot_tool
from coreai.tools.world_tools import world_command_tool
from game.ai.director_agent import PlanCapture, plan_tool
from game.ai.mcp_services import director_state_tool
from game.director.plan import DirectorKnobs, DirectorPlan

ALL_TOOLS = {
    "execute_lua",
    "manage_mods",
    "get_mod_logs",
    "read_skill",
    "world_command",
    "screenshot",
    "get_director_state",
    "set_director_plan",
}


def on_main(game: HeadlessGame, fn: Any) -> Any:
    """Read the simulation from the test thread safely: run it on the game's main thread."""
    return game.queue.call(CallOnMain(fn=fn), timeout=5)


def enemy_ids(game: HeadlessGame) -> set[int]:
    return on_main(game, lambda: {int(i) for i in game.world.enemies.view("id")})


class DirectorStandIn:
    """Validates plans with the director's own ``DirectorPlan`` model (real director service pending)."""

    def __init__(self, game: HeadlessGame) -> None:
        self.game = game
        self.knobs = DirectorKnobs.model_validate({})
        self.plan: DirectorPlan | None = None
        self.threads_ok = True

    def state(self) -> dict[str, Any]:
        self.threads_ok &= self.game.on_main()
        return {"knobs": self.knobs.model_dump(), "plan": self.plan.model_dump() if self.plan else None}

    def set_plan(self, raw: dict[str, Any]) -> dict[str, Any]:
        self.threads_ok &= self.game.on_main()
        try:
            plan = DirectorPlan.model_validate(raw)
        except ValidationError as exc:
            raise CommandRejected("set_director_plan", exc.errors()[0]["msg"]) from exc
        self.plan = plan
        return {"accepted": True, "plan": plan.model_dump()}


def skills_dir(tmp_path: Path) -> Path:
    d = tmp_path / "skills"
    d.mkdir()
    (d / "lua_modding.md").write_text(
        "# Lua modding\nUse coreai_world_spawn(prefab, x, y).\n", encoding="utf-8"
    )
    (d / "mcp.md").write_text("# Driving the game over MCP\n", encoding="utf-8")
    return d


def full_tools(
    game: HeadlessGame, tmp_path: Path, mods: ModStoreFake, director: DirectorStandIn
) -> list[Tool]:
    """The same Tool objects the in-game agents use, over stand-in services."""
    return [
        execute_lua_tool(
            lambda code, sandbox, trace: {
                "ok": True,
                "mod": sandbox,
                "echo": code[:20],
                "main": game.on_main(),
            }
        ),
        manage_mods_tool(mods.manage),
        get_mod_logs_tool(mods.get_logs),
        read_skill_tool(SkillLibrary(skills_dir(tmp_path))),
        world_command_tool(game.bindings),
        screenshot_tool(game.render_png),
        director_state_tool(director.state),
        plan_tool(game.world.prefabs.names, ["meteor_shower"], PlanCapture(), director.set_plan),
    ]


def run(coro_fn: Any, timeout_s: float = 60.0) -> Any:
    async def main() -> Any:
        with anyio.fail_after(timeout_s):
            return await coro_fn()

    return anyio.run(main)


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_initialize_and_list_tools_with_schemas(game, start_server, tmp_path) -> None:
    director = DirectorStandIn(game)
    server = start_server(full_tools(game, tmp_path, ModStoreFake(game), director))

    async def main() -> dict[str, Any]:
        async with mcp_session(server.url) as session:
            listed = await session.list_tools()
            return {t.name: t for t in listed.tools}

    tools = run(main)
    assert set(tools) == ALL_TOOLS == set(server.tools)
    for tool in tools.values():
        assert tool.input_schema["type"] == "object"
        assert "Example" in (tool.description or ""), tool.name
    props = tools["world_command"].input_schema["properties"]
    assert props["action"]["enum"] == ["prefabs", "spawn", "move", "destroy", "list", "state"]
    assert props["count"]["maximum"] == 100
    assert tools["manage_mods"].input_schema["properties"]["op"]["enum"] == list(MOD_OPS)
    assert tools["execute_lua"].input_schema["required"] == ["code"]
    assert tools["read_skill"].description and "lua_modding" in tools["read_skill"].description
    plan_schema = tools["set_director_plan"].input_schema  # the plan's own fields, as in-game agents see them
    assert plan_schema["properties"]["pressure"]["enum"] == ["ease_off", "hold", "raise", "spike"]
    assert plan_schema["required"] == ["pressure", "reason"]
    assert props["limit"]["maximum"] == 500 and props["limit"]["default"] == 20
    assert "sandbox" in tools["execute_lua"].input_schema["properties"]


def test_only_the_given_tools_are_served(game, start_server) -> None:
    server = start_server([read_skill_tool(SkillLibrary())])

    async def main() -> list[str]:
        async with mcp_session(server.url) as session:
            return [t.name for t in (await session.list_tools()).tools]

    assert run(main) == ["read_skill"]


def test_world_command_spawns_enemies_the_simulation_contains(game, start_server, tmp_path) -> None:
    server = start_server([world_command_tool(game.bindings)])

    async def main() -> dict[str, Any]:
        async with mcp_session(server.url) as session:
            out: dict[str, Any] = {}
            out["prefabs"] = (
                await session.call_tool("world_command", {"action": "prefabs"})
            ).structured_content
            out["spawn"] = await session.call_tool(
                "world_command", {"action": "spawn", "prefab": "grunt", "x": 300, "y": 200, "count": 3}
            )
            out["bad"] = await session.call_tool(
                "world_command", {"action": "spawn", "prefab": "dragon", "x": 1, "y": 1}
            )
            out["missing"] = await session.call_tool("world_command", {"action": "move", "x": 1})
            out["list"] = await session.call_tool("world_command", {"action": "list", "limit": 500})
            out["state"] = await session.call_tool("world_command", {"action": "state"})
            return out

    out = run(main)
    assert "grunt" in out["prefabs"]["prefabs"] and len(out["prefabs"]["arena_bounds"]) == 4
    assert not out["spawn"].is_error
    ids = out["spawn"].structured_content["spawned"]
    assert len(ids) == 3
    game.wait_frames(5)  # the simulation keeps stepping with them
    assert set(ids) <= enemy_ids(game)
    listed = {e["id"]: e for e in out["list"].structured_content["entities"]}
    assert all(listed[i]["prefab"] == "grunt" for i in ids)
    assert out["state"].structured_content["enemies_by_prefab"]["grunt"] >= 3
    assert (
        out["bad"].is_error
        and "unknown prefab 'dragon'" in text_of(out["bad"])
        and "grunt" in text_of(out["bad"])
    )
    assert out["missing"].is_error and "needs entity_id, y" in text_of(out["missing"])

    async def move_and_destroy() -> tuple[Any, Any, Any]:
        async with mcp_session(server.url) as session:
            moved = await session.call_tool(
                "world_command", {"action": "move", "entity_id": ids[0], "x": 50, "y": 60}
            )
            gone = await session.call_tool("world_command", {"action": "destroy", "entity_id": ids[1]})
            again = await session.call_tool("world_command", {"action": "destroy", "entity_id": ids[1]})
            return moved, gone, again

    moved, gone, again = run(move_and_destroy)
    assert moved.structured_content == {"moved": True}
    assert gone.structured_content == {"destroyed": True} and again.structured_content == {"destroyed": False}
    assert ids[1] not in enemy_ids(game)


def test_screenshot_returns_a_png_that_decodes(game, start_server) -> None:
    server = start_server([screenshot_tool(game.render_png)])

    async def main() -> tuple[Any, Any]:
        async with mcp_session(server.url) as session:
            small = await session.call_tool("screenshot", {"max_resolution": 256})
            default = await session.call_tool("screenshot", {})
            return small, default

    small, default = run(main)
    for result, limit in ((small, 256), (default, 1024)):
        assert not result.is_error, text_of(result)
        (image,) = [c for c in result.content if c.type == "image"]
        assert image.mime_type == "image/png"
        with Image.open(io.BytesIO(base64.b64decode(image.data))) as png:
            png.load()
            assert png.format == "PNG" and max(png.size) <= limit
    # the arena is wider than 256, so the small one was really downscaled
    with Image.open(io.BytesIO(base64.b64decode(small.content[0].data))) as png:
        assert max(png.size) == 256


def test_screenshot_without_a_window_names_the_reason(game, start_server) -> None:
    def no_window(_max: int) -> bytes:
        raise CommandRejected("screenshot", "no window: the game runs headless")

    server = start_server([screenshot_tool(no_window)])

    async def main() -> Any:
        async with mcp_session(server.url) as session:
            return await session.call_tool("screenshot", {})

    result = run(main)
    assert result.is_error and "no window: the game runs headless" in text_of(result)


def test_read_skill_mods_logs_and_director(game, start_server, tmp_path) -> None:
    mods = ModStoreFake(game)
    director = DirectorStandIn(game)
    server = start_server(full_tools(game, tmp_path, mods, director))

    async def main() -> dict[str, Any]:
        async with mcp_session(server.url) as session:
            call = session.call_tool
            return {
                "skill": await call("read_skill", {"name": "Lua Modding"}),
                "no_skill": await call("read_skill", {"name": "cooking"}),
                "list": await call("manage_mods", {"op": "list"}),
                "source": await call("manage_mods", {"op": "get_source", "name": "bounty"}),
                "load": await call("manage_mods", {"op": "load", "name": "ring", "source": "report('hi')"}),
                "noname": await call("manage_mods", {"op": "reload"}),
                "badop": await call("manage_mods", {"op": "format_disk"}),
                "unknown": await call("manage_mods", {"op": "unload", "name": "ghost"}),
                "logs": await call("get_mod_logs", {"mod": "ring", "limit": 5}),
                "lua": await call("execute_lua", {"code": "report('x')"}),
                "state0": await call("get_director_state", {}),
                "plan": await call("set_director_plan", {"pressure": "raise", "reason": "too calm"}),
                "badplan": await call("set_director_plan", {"pressure": "nuke", "reason": "x"}),
                "state1": await call("get_director_state", {}),
            }

    r = run(main)
    assert text_of(r["skill"]).startswith("# Lua modding")
    assert r["no_skill"].is_error and "available: lua_modding, mcp" in text_of(r["no_skill"])
    assert r["list"].structured_content == {"mods": [{"name": "bounty", "versions": 1}]}
    assert "report('v1')" in r["source"].structured_content["source"]
    assert r["load"].structured_content == {"loaded": "ring", "version": 1}
    assert r["noname"].is_error and "needs 'name'" in text_of(r["noname"])
    assert r["badop"].is_error and "format_disk" in text_of(r["badop"])
    assert r["unknown"].is_error and "mod 'ghost': no such mod" in text_of(r["unknown"])
    assert r["logs"].structured_content == {
        "count": 1,
        "logs": [{"mod": "ring", "level": "print", "message": "loaded v1"}],
    }
    assert r["lua"].structured_content["main"] is True
    assert r["state0"].structured_content["plan"] is None
    assert r["plan"].structured_content["accepted"] is True
    assert r["badplan"].is_error and "set_director_plan" in text_of(r["badplan"])
    assert r["state1"].structured_content["plan"]["pressure"] == "raise"  # the rejected plan changed nothing
    assert mods.calls and all(main for _op, _name, main in mods.calls)  # every service ran on the main thread
    assert director.threads_ok


def test_arguments_are_validated_before_reaching_the_game(game, start_server) -> None:
    calls: list[str] = []

    def execute_lua(code: str, sandbox: str, trace_id: str | None) -> dict[str, Any]:
        calls.append(code)
        return {}

    server = start_server([execute_lua_tool(execute_lua)])

    async def main() -> list[Any]:
        async with mcp_session(server.url) as session:
            return [
                await session.call_tool("execute_lua", {"code": ""}),
                await session.call_tool("execute_lua", {"code": "x", "sandbox": "../../etc"}),
                await session.call_tool("execute_lua", {"code": "x", "mod": "old_name"}),
                await session.call_tool("execute_lua", {"code": "x" * 70_000}),
            ]

    results = run(main)
    assert all(r.is_error for r in results)
    assert calls == []


def test_unknown_tool_is_an_error(game, start_server) -> None:
    server = start_server([read_skill_tool(SkillLibrary())])

    async def main() -> Any:
        async with mcp_session(server.url) as session:
            return await session.call_tool("execute_lua", {"code": "x"})

    try:
        result = run(main)
    except MCPError as exc:  # some SDK versions answer with a JSON-RPC error
        assert "execute_lua" in str(exc)
    else:
        assert result.is_error and "execute_lua" in text_of(result)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.com"])
def test_non_loopback_bind_is_refused(host: str) -> None:
    from coreai.mcp import McpSettings

    with pytest.raises(ValidationError, match="loopback"):
        McpSettings(host=host)
