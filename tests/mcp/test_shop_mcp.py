"""The Merchant's shop through a real MCP client: ``get_inventory`` and ``buy_item`` are in the exposed set,
and each call lands on the game's main thread as a validated main-loop command (the same tools the Merchant
agent calls), with the shop's refusals as tool errors naming the reason."""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp_glue import HeadlessGame, mcp_session

from coreai.commands import CallOnMain
from coreai.llm.stub import StubLlmClient
from coreai.orchestrator import Orchestrator
from game.ai.mcp_services import exposed
from game.shop.inventory import load_inventory
from game.shop.service import ShopService
from game.shop.shop import Shop


class _Handle:
    def __init__(self, game: HeadlessGame) -> None:
        self.game = game

    @property
    def world(self) -> Any:
        return self.game.world


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_a_client_reads_the_shelf_and_buys_through_the_game_thread(game: HeadlessGame, start_server) -> None:
    shop = Shop(load_inventory())
    service = ShopService(shop, game.queue, _Handle(game))
    orch = Orchestrator(StubLlmClient())
    for tool in service.tools():  # registered as install_shop does: the Merchant's, and MCP's play profile
        orch.add_tool(tool, roles=("Merchant",), mcp=("play",))
    served, profiles = exposed(orch)
    assert [t.name for t in served] == ["get_inventory", "buy_item"]
    assert profiles["buy_item"] == {"play", "all"}
    server = start_server(served)
    threads: list[bool] = []
    buy = shop.buy

    def buy_on(name: str, world: Any, trace_id: str | None = None) -> Any:
        threads.append(game.on_main())
        return buy(name, world, trace_id=trace_id)

    shop.buy = buy_on  # type: ignore[method-assign]

    def open_with(coins: int) -> None:
        shop.open = True
        shop.purse.balance = coins

    async def main() -> list[Any]:
        async with mcp_session(server.url) as session:
            listed = [t.name for t in (await session.list_tools()).tools]
            closed = await session.call_tool("buy_item", {"item": "medkit"})
            game.queue.call(CallOnMain(fn=lambda: open_with(10)), timeout=5)
            shelf = await session.call_tool("get_inventory", {})
            bought = await session.call_tool("buy_item", {"item": "Medkit"})
            unknown = await session.call_tool("buy_item", {"item": "laser sword"})
            poor = await session.call_tool("buy_item", {"item": "hollow_points"})
            bad = await session.call_tool("buy_item", {})
            return [listed, closed, shelf, bought, unknown, poor, bad]

    async def bounded() -> list[Any]:
        with anyio.fail_after(60):
            return await main()

    listed, closed, shelf, bought, unknown, poor, bad = anyio.run(bounded)
    assert listed == ["get_inventory", "buy_item"]
    assert closed.is_error and "shop opens between waves" in _text(closed)
    offer = json.loads(_text(shelf))
    offer = offer.get("result", offer)
    assert offer["coins"] == 10 and "Medkit" in {i["name"] for i in offer["items"]}
    assert not bought.is_error and shop.purse.balance == 4 and shop.purse.spent == 6
    assert unknown.is_error and "laser sword" in _text(unknown)
    assert poor.is_error and "costs 24 coins; you have 4" in _text(poor)
    assert bad.is_error  # arguments are validated before anything reaches the game
    assert threads and all(threads), "every purchase ran on the game's main thread"
