"""The shop as the AI core sees it: two validated main-loop commands and two agent tools.

- ``GetInventory`` / ``get_inventory``: the shelf (id, name, price, stock, effect) and the player's coins.
- ``BuyItem`` / ``buy_item``: buy one item by id or name; refusals (``PurchaseRefused``) come back to the
  model as tool errors with the reason, and to the shop screen as the same words.

Agents call the tools on their worker threads, MCP clients on the server's (``install_shop`` registers both
with ``mcp=("play",)``); the tools send the commands through ``ctx.on_main`` (the main-loop queue for
agents, the bridge for MCP) and wait for the game's main thread, which applies them
against the live world. The shop screen (main thread) applies the same command
with ``MainLoopQueue.apply_now``, so a click and an agent's purchase obey one set of rules.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict, Field

from coreai.commands import MainLoopCommand
from coreai.mainloop import MainLoopQueue
from coreai.tools.base import Tool, ToolContext
from game.shop.shop import Receipt, Shop
from game.sim.world import World


class _HasWorld(Protocol):
    world: World | None


class GetInventory(MainLoopCommand):
    kind: ClassVar[str] = "get_inventory"


class BuyItem(MainLoopCommand):
    kind: ClassVar[str] = "buy"
    mutating: ClassVar[bool] = True

    item: str = Field(min_length=1, max_length=64)


class InventoryArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BuyArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    item: str = Field(min_length=1, max_length=64, description="the item's id or name, e.g. 'medkit'")


class ShopService:
    def __init__(self, shop: Shop, queue: MainLoopQueue, handle: _HasWorld, wait_s: float = 5.0) -> None:
        self.shop = shop
        self.queue = queue
        self.handle = handle
        self.wait_s = wait_s
        queue.register(GetInventory, lambda cmd: shop.offer())
        queue.register(BuyItem, self._buy)

    def _buy(self, cmd: BuyItem) -> Receipt:
        return self.shop.buy(cmd.item, self.handle.world, trace_id=cmd.trace_id)

    def buy_now(self, item: str) -> Receipt:
        """The shop screen's purchase (main thread): the same command, applied at once."""
        receipt: Receipt = self.queue.apply_now(BuyItem(item=item))
        return receipt

    def tools(self) -> tuple[Tool, Tool]:
        def inventory(args: InventoryArgs, ctx: ToolContext) -> Any:
            return ctx.on_main(GetInventory(agent=ctx.role, trace_id=ctx.trace_id), self.wait_s)

        def buy(args: BuyArgs, ctx: ToolContext) -> Any:
            cmd = BuyItem(item=args.item, agent=ctx.role, trace_id=ctx.trace_id)
            receipt: Receipt = ctx.on_main(cmd, self.wait_s)
            return asdict(receipt)

        return (
            Tool(
                name="get_inventory",
                description="The Merchant's shelf: every item with its price in coins, stock and effect, "
                "and how many coins the player has. Example: {}",
                args_model=InventoryArgs,
                invoke=inventory,
            ),
            Tool(
                name="buy_item",
                description="Sell one item to the player (by id or name). Refused when it is unknown, "
                'sold out, or the player cannot pay. Example: {"item": "medkit"}',
                args_model=BuyArgs,
                invoke=buy,
                mutating=True,
            ),
        )
