"""The Merchant's shop: stock from ``assets/shop/inventory.json``, paid in coins (``game.sim.coins``), sold
through validated main-loop commands and the ``get_inventory`` / ``buy_item`` tools (``service``), shown
between waves by ``game.views.shop``."""

from __future__ import annotations

from loguru import logger

from coreai.errors import CoreAIError
from coreai.runtime import CoreAiRuntime
from game.shop.inventory import load_inventory
from game.shop.service import ShopService, _HasWorld
from game.shop.shop import Receipt, Shop
from game.sim.coins import bounties
from game.sim.prefabs import PrefabRegistry

__all__ = ["Receipt", "Shop", "ShopService", "install_shop"]

log = logger.bind(feature="game", trace_id="shop")


def install_shop(runtime: CoreAiRuntime, handle: _HasWorld) -> ShopService | None:
    """The shop for a session, with the Merchant's tools registered; None (logged) if the data is broken."""
    try:
        inventory = load_inventory()
    except CoreAIError as exc:
        log.error("no shop this session: {}", exc)
        return None
    prefabs = PrefabRegistry.load()
    rates = bounties({n: prefabs.get(n).score for n in prefabs.names})
    service = ShopService(
        Shop(inventory, rates), runtime.mainloop, handle, wait_s=runtime.settings.mainloop.wait_timeout_s
    )
    for tool in service.tools():
        runtime.orchestrator.add_tool(tool, roles=("Merchant",), mcp=("play",))
    return service
