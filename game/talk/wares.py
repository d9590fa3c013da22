"""What the Merchant's answers read off the live shop: each ware on the shelf and the player's coins.

``shelf_view(shop)`` copies them (on the main thread) into a ``ShelfView`` that the fact base
(``game.talk.facts``) and the Merchant's grounded answer (``game.talk.shelf``) read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.shop.shop import Shop


@dataclass(frozen=True)
class Ware:
    id: str
    name: str
    price: int
    stock: int
    effect: str  # "heals 40 HP"
    tags: tuple[str, ...]


@dataclass(frozen=True)
class ShelfView:
    wares: tuple[Ware, ...]
    coins: int
    open: bool = True


def shelf_view(shop: Shop) -> ShelfView:
    wares = tuple(
        Ware(i.id, i.name, i.price, shop.stock.get(i.id, 0), i.description, tuple(i.tags))
        for i in shop.inventory.items
    )
    return ShelfView(wares, shop.purse.balance, shop.open)
