"""The Merchant's shop for one run: what is left on the shelf, the run's purse, and the sale itself.

Main thread only (the world changes): agents reach it through the ``BuyItem`` / ``GetInventory`` commands
on the main-loop queue (``game.shop.service``). A sale is checked in this order, each a
``PurchaseRefused`` with a stable code and a player-readable reason: shop_closed, unknown_item,
out_of_stock, maxed_out, not_enough_coins. Only then are the coins taken and the effect applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.errors import PurchaseRefused
from game.shop.inventory import Inventory, ShopItem
from game.sim.coins import Purse
from game.sim.upgrades import get_upgrade
from game.sim.world import World


@dataclass(frozen=True)
class Receipt:
    item: str  # id
    name: str
    price: int
    balance: int  # coins left
    stock_left: int
    effect: str  # what happened, in player words


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


class Shop:
    def __init__(self, inventory: Inventory, rates: dict[str, int] | None = None) -> None:
        self.inventory = inventory
        self.rates = dict(rates or {})  # coins per kill of each prefab
        self.purse = Purse(self.rates)
        self.stock: dict[str, int] = {}
        self.open = False  # the merchant is there between waves (the shop step) or in ``ask``
        self.sales: list[Receipt] = []
        self.reset()

    def reset(self) -> None:
        """A new run: full shelves, an empty purse, shop closed."""
        self.purse = Purse(self.rates)
        self.stock = {item.id: item.stock for item in self.inventory.items}
        self.open = False
        self.sales = []

    def find(self, name: str) -> ShopItem | None:
        """An item by id or name, ignoring case, spaces and punctuation ("rapid fire kit")."""
        key = _norm(name)
        for item in self.inventory.items:
            if key in (_norm(item.id), _norm(item.name)):
                return item
        return None

    def offer(self) -> dict[str, Any]:
        """What ``get_inventory`` returns: the shelf and the player's coins."""
        return {
            "open": self.open,
            "currency": self.inventory.currency,
            "coins": self.purse.balance,
            "items": [
                {
                    "id": i.id,
                    "name": i.name,
                    "price": i.price,
                    "stock": self.stock.get(i.id, 0),
                    "effect": i.description,
                }
                for i in self.inventory.items
            ],
        }

    def buy(self, name: str, world: World | None, trace_id: str | None = None) -> Receipt:
        if not self.open:
            raise PurchaseRefused(
                "shop_closed", "the merchant is away; the shop opens between waves", trace_id=trace_id
            )
        item = self.find(name)
        if item is None:
            names = ", ".join(i.name for i in self.inventory.items)
            raise PurchaseRefused(
                "unknown_item", f"no '{name}' on the shelf (sold here: {names})", item=name, trace_id=trace_id
            )
        left = self.stock.get(item.id, 0)
        if left <= 0:
            raise PurchaseRefused("out_of_stock", f"{item.name} is sold out", item=item.id, trace_id=trace_id)
        if world is None or not world.alive:
            raise PurchaseRefused("shop_closed", "no run in progress", item=item.id, trace_id=trace_id)
        if item.effect.kind == "upgrade":
            up = get_upgrade(str(item.effect.upgrade))
            if world.stacks.get(up.key, 0) >= up.max_stacks:
                raise PurchaseRefused(
                    "maxed_out", f"{up.name} is already at its maximum", item=item.id, trace_id=trace_id
                )
        if not self.purse.can_pay(item.price):
            raise PurchaseRefused(
                "not_enough_coins",
                f"{item.name} costs {item.price} coins; you have {self.purse.balance}",
                item=item.id,
                trace_id=trace_id,
            )
        self.purse.pay(item.price)
        self.stock[item.id] = left - 1
        receipt = Receipt(
            item.id, item.name, item.price, self.purse.balance, left - 1, self._apply(item, world)
        )
        self.sales.append(receipt)
        return receipt

    def _apply(self, item: ShopItem, world: World) -> str:
        effect = item.effect
        if effect.kind == "heal":
            before = world.player.hp
            world.player.heal(effect.amount)
            return f"healed {world.player.hp - before:.0f} HP"
        key = str(effect.upgrade)
        world.stacks[key] = world.stacks.get(key, 0) + 1
        # re-derives the player's stats from the stacks (and the director's max-HP multiplier)
        world.set_param("player_max_hp_mult", world.params.get("player_max_hp_mult"))
        return f"{get_upgrade(key).name} x{world.stacks[key]}"
