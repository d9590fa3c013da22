"""The Merchant's shop without a window: the inventory data, coins from kills, every refusal, and a sale
through the validated main-loop command that both the shop screen and the Merchant's tool use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreai.errors import PersistenceError
from coreai.mainloop import MainLoopQueue
from coreai.world import CoreAiBindings
from game.errors import PurchaseRefused
from game.shop.inventory import load_inventory
from game.shop.service import BuyItem, GetInventory, ShopService
from game.shop.shop import Shop
from game.sim import events as ev
from game.sim.coins import Purse, bounties, bounty
from game.sim.prefabs import PrefabRegistry
from game.sim.world import World


class Handle:
    def __init__(self, world: World | None) -> None:
        self.world = world


def kill(score: int, elite: bool = False) -> ev.EnemyKilled:
    return ev.EnemyKilled(1, "grunt", 0.0, 0.0, elite, score, False)


def test_the_shipped_inventory_has_items_with_price_stock_and_effect() -> None:
    inv = load_inventory()
    assert len(inv.items) >= 4
    assert {"medkit", "hollow_points"} <= {i.id for i in inv.items}
    assert all(i.price > 0 and i.stock > 0 and i.description for i in inv.items)


def test_a_broken_inventory_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "inventory.json"
    bad.write_text(json.dumps({"items": [{"id": "x", "name": "X", "price": 5, "stock": 1,
                                          "effect": {"kind": "upgrade", "upgrade": "laser"},
                                          "description": "d"}]}))  # fmt: skip
    with pytest.raises(PersistenceError, match="upgrade must be one of"):
        load_inventory(bad)


def test_kills_pay_a_bounty_of_the_base_score_over_ten() -> None:
    prefabs = PrefabRegistry.load()
    rates = bounties({n: prefabs.get(n).score for n in prefabs.names})
    assert rates["grunt"] == 1 and rates["tank"] == 4 and rates["boss"] == 100
    purse = Purse(rates)

    def killed(prefab: str, score: int, elite: bool = False) -> ev.EnemyKilled:
        return ev.EnemyKilled(1, prefab, 0.0, 0.0, elite, score, False)

    # a kill streak's x3 score does not inflate coins; an elite pays three times its kind
    gained = purse.collect([killed("grunt", 30), killed("tank", 40), killed("tank", 120, elite=True)])
    assert gained == 1 + 4 + 12 == purse.balance == purse.earned
    assert purse.collect([ev.ShotFired(3)]) == 0
    assert bounty(kill(250), {}) == 25, "a prefab without a rate pays from the kill's score"


def test_a_sale_takes_the_coins_lowers_the_stock_and_applies_the_effect() -> None:
    world = World(seed=1)
    shop = Shop(load_inventory())
    shop.open = True
    shop.purse.balance = 100
    world.player.hp = 30.0
    receipt = shop.buy("Medkit", world)
    assert (receipt.price, receipt.balance, receipt.stock_left) == (6, 94, 2)
    assert world.player.hp == 70.0
    before = world.player.stats.damage
    shop.buy("hollow points", world)  # by name, any case and spacing
    assert world.stacks["damage"] == 1 and world.player.stats.damage > before
    assert shop.purse.spent == 6 + 24 and shop.purse.balance == 100 - 30


def test_every_refusal_is_clear_and_takes_nothing() -> None:
    world = World(seed=1)
    shop = Shop(load_inventory())
    shop.purse.balance = 20
    with pytest.raises(PurchaseRefused) as closed:
        shop.buy("medkit", world)
    assert closed.value.code == "shop_closed"
    shop.open = True
    with pytest.raises(PurchaseRefused) as unknown:
        shop.buy("rocket launcher", world)
    assert unknown.value.code == "unknown_item" and "Medkit" in unknown.value.reason
    with pytest.raises(PurchaseRefused) as poor:
        shop.buy("hollow_points", world)
    assert poor.value.code == "not_enough_coins" and "costs 24 coins; you have 20" in poor.value.reason
    shop.purse.balance = 1000
    for _ in range(3):
        shop.buy("medkit", world)
    with pytest.raises(PurchaseRefused) as sold:
        shop.buy("medkit", world)
    assert sold.value.code == "out_of_stock" and sold.value.reason == "Medkit is sold out"
    assert shop.purse.balance == 1000 - 3 * 6 and shop.stock["medkit"] == 0


def test_commands_go_through_the_main_loop_queue_and_refusals_come_back() -> None:
    world = World(seed=1)
    queue = MainLoopQueue(CoreAiBindings())
    service = ShopService(Shop(load_inventory()), queue, Handle(world))
    service.shop.open = True
    service.shop.purse.balance = 12
    offered = queue.post(GetInventory(agent="Merchant"))
    bought = queue.post(BuyItem(item="magnet", agent="Merchant"))
    refused = queue.post(BuyItem(item="magnet", agent="Merchant"))
    assert not offered.done(), "nothing runs before the main thread drains"
    while queue.pending():  # the main thread's drain has a time budget: it may take a few frames
        queue.drain()
    assert offered.result(0)["coins"] == 12
    assert bought.result(0).balance == 3
    with pytest.raises(PurchaseRefused, match="costs 9 coins; you have 3"):
        refused.result(0)
    with pytest.raises(ValueError):
        BuyItem(item="")
