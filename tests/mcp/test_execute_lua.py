"""execute_lua over MCP with the real Lua stack: the snippet spawns enemies the simulation then contains.

The mod manager runs on the game's main thread (created there too); its ``ModHost`` is test glue over the
real ``World``. If ``coreai.lua`` is not importable yet, the test is an expected failure saying why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_glue import HeadlessGame, mcp_session

from coreai.commands import CallOnMain
from coreai.tools.lua_tools import execute_lua_tool

try:
    from coreai.lua.manager import ModManager

    LUA_ERROR = ""
except Exception as exc:  # pragma: no cover - depends on the Lua package landing
    ModManager = None  # type: ignore[assignment,misc]
    LUA_ERROR = f"{type(exc).__name__}: {exc}"


class WorldModHost:
    """``coreai.lua.host.ModHost`` over the live World; called on the main thread by the mod manager."""

    def __init__(self, game: HeadlessGame) -> None:
        self.world = game.world

    def spawn(self, prefab: str, x: float, y: float, count: int, *, source: str) -> list[int]:
        return [self.world.spawn_enemy(prefab, x, y, source=source) for _ in range(count)]

    def move(self, entity_id: int, x: float, y: float, *, source: str) -> bool:
        return self.world.move_enemy(entity_id, x, y)

    def destroy(self, entity_id: int, *, source: str) -> bool:
        return self.world.destroy_enemy(entity_id)

    def state(self) -> dict[str, Any]:
        return self.world.game_state()

    def params(self) -> dict[str, tuple[float, float]]:
        return self.world.params.bounds()

    def set_param(self, name: str, value: float, *, source: str) -> float:
        return self.world.set_param(name, value)


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


@pytest.mark.xfail(ModManager is None, reason=f"coreai.lua not importable yet: {LUA_ERROR}", strict=False)
def test_execute_lua_spawns_an_enemy_the_simulation_contains(game, start_server, saves_dir: Path) -> None:
    assert ModManager is not None, LUA_ERROR
    mods_root = saves_dir / "no_mods"
    mods_root.mkdir()
    host = WorldModHost(game)
    manager = game.queue.call(
        CallOnMain(fn=lambda: ModManager(host, roots=[mods_root], user_root=mods_root)), timeout=10
    )

    def execute_lua(code: str, sandbox: str, trace_id: str | None) -> dict[str, Any]:
        assert game.on_main()
        return manager.execute(code, sandbox, trace_id=trace_id).model_dump(mode="json")

    server = start_server([execute_lua_tool(execute_lua)])
    spawn = (
        "local s = game.state()\n"
        "local ids = coreai_world_spawn('grunt', s.player.x + 150, s.player.y, 2)\n"
        "report('spawned ' .. #ids)\n"
        "return ids"
    )

    async def main() -> tuple[Any, Any, Any]:
        with anyio.fail_after(60):
            async with mcp_session(server.url) as session:
                ok = await session.call_tool("execute_lua", {"code": spawn})
                broken = await session.call_tool("execute_lua", {"code": "local x = nil\nreturn x.y"})
                spin = await session.call_tool("execute_lua", {"code": "while true do end"})
                return ok, broken, spin

    ok, broken, spin = anyio.run(main)
    try:
        assert not ok.is_error, text_of(ok)
        ids = ok.structured_content["values"][0]
        assert len(ids) == 2
        assert any("spawned 2" in line for line in ok.structured_content["output"])
        game.wait_frames(5)
        alive = game.queue.call(CallOnMain(fn=lambda: set(game.world.enemies.view("id").tolist())), timeout=5)
        assert set(ids) <= alive
        assert broken.is_error and '"ok": false' in text_of(broken) and '"line": 2' in text_of(broken)
        assert spin.is_error and "budget" in text_of(spin)
        game.wait_frames(5)  # the game kept running after the runaway loop was killed
    finally:
        game.queue.call(CallOnMain(fn=manager.close), timeout=10)


def test_execute_lua_string_amplification_does_not_freeze_the_game(
    game, start_server, saves_dir: Path
) -> None:
    """Issue 12 item 1 through MCP: concatenating a 4 MiB string in a loop used to hold the main thread
    36 s ("game loop not draining" for every other client); now it is killed near its 1 s deadline."""
    assert ModManager is not None, LUA_ERROR
    import time

    mods_root = saves_dir / "no_mods"
    mods_root.mkdir()
    host = WorldModHost(game)
    manager = game.queue.call(
        CallOnMain(fn=lambda: ModManager(host, roots=[mods_root], user_root=mods_root)), timeout=10
    )

    def execute_lua(code: str, sandbox: str, trace_id: str | None) -> dict[str, Any]:
        return manager.execute(code, sandbox, trace_id=trace_id).model_dump(mode="json")

    server = start_server([execute_lua_tool(execute_lua)])
    attack = 'local s = string.rep("x", 4 * 2^20) while true do local t = s .. s .. "y" end'

    async def main() -> tuple[Any, Any, float]:
        with anyio.fail_after(60):
            async with mcp_session(server.url) as session:
                started = time.perf_counter()
                hit = await session.call_tool("execute_lua", {"code": attack})
                took = time.perf_counter() - started
                after = await session.call_tool("execute_lua", {"code": "return 40 + 2"})
                return hit, after, took

    hit, after, took = anyio.run(main)
    try:
        assert hit.is_error and "deadline" in text_of(hit), text_of(hit)
        assert took < 2 * 1.0 + 0.05 + 3.0, (
            f"execute_lua held the game {took:.1f}s"
        )  # bound + transport slack
        assert not after.is_error and after.structured_content["values"] == [42]
        game.wait_frames(5)  # the loop keeps draining
    finally:
        game.queue.call(CallOnMain(fn=manager.close), timeout=10)
