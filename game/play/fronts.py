"""What the between-waves actions mean where the game runs: ``HeadlessFront`` and ``WindowFront``.

Both follow the window's flow: the wave ends -> upgrade pick(s) -> the Merchant's shop (when the session has
one) -> ``next_wave``. In a window the agent works the real screens (``UpgradeView.pick``, the shop screen's
``leave``); headless the same steps happen on the world and the shop with no screen. A purchase is the same
``BuyItem`` command the shop screen and the Merchant's ``buy_item`` use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from coreai.errors import CoreAIError
from game.errors import PlayRefused, PurchaseRefused
from game.play.keys import ToWorld
from game.shop.service import ShopService
from game.sim.world import World

if TYPE_CHECKING:
    import arcade

    from game.ports import ArenaHooks, Navigator

    class WindowGame(Navigator, ArenaHooks, Protocol):
        """The window game as MCP play works it: its screens, the arena's camera, the window."""

        @property
        def window(self) -> arcade.Window: ...


def _item_id(service: ShopService, item: str) -> str:
    """An item by id or name, or by its shelf number 1-9 (the shop screen's keys)."""
    items = service.shop.inventory.items
    if item.isdigit():
        index = int(item) - 1
        if not 0 <= index < len(items):
            raise PlayRefused("player_input", f"the shelf has items 1-{len(items)}, not {item}")
        return items[index].id
    return item


def _buy(service: ShopService | None, item: str) -> dict[str, Any]:
    if service is None:
        raise PlayRefused("player_input", "this game has no shop")
    item_id = _item_id(service, item)
    try:
        receipt = service.buy_now(item_id)
    except PurchaseRefused as exc:
        raise PlayRefused("player_input", f"purchase refused ({exc.code}): {exc.reason}") from None
    except CoreAIError as exc:
        raise PlayRefused("player_input", str(exc)) from None
    return asdict(receipt)


class _Shop:
    """The shop side both fronts share: the session's shop service (None: a game without a shop)."""

    service: ShopService | None

    def shop_open(self) -> bool:
        return self.service is not None and self.service.shop.open

    def shop_buy(self, world: World, item: str) -> dict[str, Any]:
        return _buy(self.service, item)

    def coins(self) -> int | None:
        return None if self.service is None else self.service.shop.purse.balance


class HeadlessFront(_Shop):
    def __init__(
        self, shop: ShopService | None, bot: str | None = None, starter: Callable[[int], None] | None = None
    ) -> None:
        self.service = shop
        self.bot_name = bot
        self.starter = starter  # starts a new run with a seed (the session's; the headless loop follows it)

    def new_run(self, seed: int) -> None:
        if self.starter is None:
            raise PlayRefused("sim_control", "this game cannot start a new run")
        self.starter(seed)

    def pick(self, world: World, index: int) -> str:
        key = world.choices[index]
        world.choose_upgrade(key)
        if world.phase == "playing" and self.service is not None:
            self.service.shop.open = True  # the window shows the shop now; headless waits for next_wave too
        return key

    def next_wave(self, world: World) -> None:
        if self.service is not None:
            self.service.shop.open = False

    def to_world(self) -> ToWorld | None:
        return None

    def bot(self) -> str | None:
        return self.bot_name


class WindowFront(_Shop):
    def __init__(
        self, app: WindowGame, shop: ShopService | None, before_new_run: Callable[[], None] | None = None
    ) -> None:
        self.app = app
        self.service = shop
        self.before_new_run = before_new_run  # the run in progress gets its summary row first

    def new_run(self, seed: int) -> None:
        if self.before_new_run is not None:
            self.before_new_run()
        self.app.new_run(seed)  # as F5 does, with this seed: the arena screen shows the new run

    def pick(self, world: World, index: int) -> str:
        key = world.choices[index]
        if not self.app.pick_upgrade(index):  # on the upgrade screen, shown first if it is not up yet
            raise PlayRefused("player_input", "the upgrade screen refused the pick")
        return key

    def next_wave(self, world: World) -> None:
        from game.views.shop import ShopView

        view = self.app.window.current_view
        if isinstance(view, ShopView):
            view.leave()  # what Enter does on the shop screen
        elif self.service is not None:
            self.service.shop.open = False
            self.app.resume_arena()

    def to_world(self) -> ToWorld | None:
        return self.app.to_world()

    def bot(self) -> str | None:
        return self.app.options.bot
