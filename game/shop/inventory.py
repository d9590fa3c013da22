"""The Merchant's stock as data: ``assets/shop/inventory.json`` (item id, name, price, stock, effect).

Pydantic models validate the file; a broken file is a ``PersistenceError`` naming what is wrong (the game
then plays without a shop rather than crash). An effect is a heal (``amount`` HP) or one stack of an
upgrade the upgrade screen also offers (``upgrade`` names it). ``tags`` say what an item is for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from coreai.errors import PersistenceError
from coreai.paths import shipped
from coreai.persist import loads_json
from coreai.validation import reason
from game.sim.upgrades import UPGRADE_KEYS


class ItemEffect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["heal", "upgrade"]
    amount: float = Field(default=0.0, ge=0.0, le=1000.0, description="heal: HP restored")
    upgrade: str | None = Field(default=None, description="upgrade: the upgrade key that gains a stack")

    @model_validator(mode="after")
    def _complete(self) -> ItemEffect:
        if self.kind == "heal" and self.amount <= 0:
            raise ValueError("a heal needs an amount > 0")
        if self.kind == "upgrade" and self.upgrade not in UPGRADE_KEYS:
            raise ValueError(f"upgrade must be one of {', '.join(UPGRADE_KEYS)}, not {self.upgrade!r}")
        return self


class ShopItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")
    name: str = Field(min_length=1, max_length=40)
    price: int = Field(ge=1, le=100_000)
    stock: int = Field(ge=0, le=99)
    effect: ItemEffect
    description: str = Field(min_length=1, max_length=80)
    # What the item is for, as the Merchant's grounded talk maps a question to it (``game.talk.shelf``).
    tags: tuple[Literal["heal", "speed", "pickup", "fire_rate", "damage", "max_hp"], ...] = ()


class Inventory(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = 1
    currency: str = "coins"
    items: tuple[ShopItem, ...] = Field(min_length=1, max_length=9)

    @model_validator(mode="after")
    def _unique(self) -> Inventory:
        ids = [i.id for i in self.items]
        if len(set(ids)) != len(ids):
            raise ValueError("item ids must be unique")
        return self


def load_inventory(path: Path | None = None) -> Inventory:
    """The shipped inventory (``assets/shop/inventory.json``), or the file at ``path``."""
    source = path if path is not None else shipped("assets", "shop", "inventory.json")
    try:
        return Inventory.model_validate(loads_json(source.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValidationError) as exc:
        raise PersistenceError(str(source), f"shop inventory is unusable: {reason(exc)}") from exc
