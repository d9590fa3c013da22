"""Between waves, after the upgrade pick: the Merchant's shop. The frozen arena stays visible behind it.

Items come from the shop's inventory (``assets/shop/inventory.json``) with price, stock and effect; keys
1..9 or a click buy one, paid in coins (every kill pays a bounty). A purchase goes through the same
validated ``BuyItem`` command an agent's ``buy_item`` uses, and a refusal (unknown item, sold out, not
enough coins, maxed out) is shown in the merchant's words. T talks to the Merchant in the chat panel;
Enter or Esc leaves and the next wave starts. With a bot playing, it buys one thing (a Medkit when hurt,
else the dearest item it can afford) and the shop closes by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade
from arcade import key as K
from arcade.types import Color
from loguru import logger

from coreai.errors import CoreAIError
from game.errors import PurchaseRefused
from game.render import palette
from game.render.widgets import Label, ShadowLabel, draw_panel
from game.shop.service import ShopService
from game.shop.shop import Shop
from game.views.base import AppView

if TYPE_CHECKING:
    from game.ports import ViewHost

log = logger.bind(feature="game", trace_id="shop")

CARD_W, CARD_H, GAP = 250.0, 120.0, 18.0
COLUMNS = 3
BOT_BUY_S = 1.0  # a bot playing buys after this long (so viewers can follow)...
BOT_LEAVE_S = 2.5  # ...and leaves after this long
BUY_KEYS = {getattr(K, f"KEY_{i}"): i - 1 for i in range(1, 10)} | {
    getattr(K, f"NUM_{i}"): i - 1 for i in range(1, 10)
}
COIN = Color(255, 214, 80)


class ShopView(AppView):
    clear_color = palette.FLOOR  # draws the arena (game.render.floor)
    app: ViewHost

    def __init__(self, app: ViewHost, service: ShopService, talk: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.service = service
        self.talk = talk
        self.elapsed = 0.0
        self.message = ""
        self.message_ok = True
        self.title = ShadowLabel(
            "THE MERCHANT", 0, 0, offset=3, font_size=30, anchor_x="center", font_name=palette.FONT_DISPLAY,
            color=palette.ACCENT,
        )  # fmt: skip
        self.coins = ShadowLabel("", 0, 0, font_size=18, anchor_x="center", bold=True, color=COIN)
        self.hint = Label(
            "1-6 or click  buy        T  talk to the merchant        Enter / Esc  next wave",
            font_size=12, anchor_x="center", color=palette.TEXT_DIM,
        )  # fmt: skip
        self.status = Label("", font_size=13, anchor_x="center", bold=True)
        self.cards: list[tuple[Label, Label, Label, Label]] = []
        for i, item in enumerate(service.shop.inventory.items):
            self.cards.append(
                (
                    Label(f"{i + 1}  {item.name}", font_size=14, bold=True),
                    Label(
                        item.description, font_size=11, color=palette.TEXT_DIM, font_name=palette.FONT_NARROW
                    ),
                    Label(f"{item.price} coins", font_size=13, bold=True, color=COIN),
                    Label("", font_size=11, anchor_x="right"),
                )
            )

    @property
    def shop(self) -> Shop:
        return self.service.shop

    def _held(self) -> bool:
        """A modal panel (the chat) is open: the arena's hold mechanism, where the game has it."""
        update = getattr(self.app.backdrop, "update_held", None)
        return bool(update()) if callable(update) else False

    # ------------------------------------------------------------------ flow
    def offer(self) -> bool:
        """Open the shop if a live run is between waves; True when it is showing."""
        world = self.app.backdrop.world
        if world is None or not world.alive:
            return False
        self.shop.open = True
        self.elapsed = 0.0
        log.info("the merchant's shop opens (wave {}, {} coins)", world.wave, self.shop.purse.balance)
        self.message = "A trader has set up shop at the edge of the arena."
        self.message_ok = True
        self.window.show_view(self)
        return True

    def leave(self) -> None:
        self.shop.open = False
        self.app.resume_arena()

    def buy(self, index: int) -> bool:
        items = self.shop.inventory.items
        if not 0 <= index < len(items):
            return False
        try:
            receipt = self.service.buy_now(items[index].id)
        except PurchaseRefused as exc:
            self.message, self.message_ok = exc.reason, False
            return False
        except CoreAIError as exc:
            self.message, self.message_ok = str(exc), False
            return False
        self.message = f"Bought {receipt.name}: {receipt.effect}.  {receipt.balance} coins left."
        self.message_ok = True
        self.app.audio.play("pick")
        return True

    # ------------------------------------------------------------------ frame
    def card_rects(self) -> list[tuple[float, float, float, float]]:
        n = len(self.cards)
        w, h = self.app.play_width(), self.window.height  # left of a docked F10 panel
        cols = min(COLUMNS, n)
        total = cols * CARD_W + (cols - 1) * GAP
        left0 = (w - total) / 2
        top = h / 2 + CARD_H + GAP / 2
        return [
            (left0 + (i % cols) * (CARD_W + GAP), top - (i // cols + 1) * (CARD_H + GAP), CARD_W, CARD_H)
            for i in range(n)
        ]

    def update_content(self, dt: float) -> None:
        arena = self.app.backdrop
        arena.run_frame_hooks(dt)  # the agents keep answering (the Merchant's tools run on this thread)
        if self._held():
            return  # the chat (or another modal panel) is open
        before, self.elapsed = self.elapsed, self.elapsed + dt
        if arena.bot is None:
            return
        if before < BOT_BUY_S <= self.elapsed and (pick := self.bot_pick()) is not None:
            self.buy(pick)
        if self.elapsed >= BOT_LEAVE_S:
            self.leave()

    def bot_pick(self) -> int | None:
        """A bot's purchase: a Medkit when below 70% HP, else the dearest item it can afford."""
        world = self.app.backdrop.world
        items = self.shop.inventory.items
        ok = [
            i
            for i, it in enumerate(items)
            if self.shop.stock.get(it.id, 0) > 0 and self.shop.purse.can_pay(it.price)
        ]
        if not ok or world is None:
            return None
        hurt = world.player.hp < 0.7 * world.player.stats.max_hp
        heals = [i for i in ok if items[i].effect.kind == "heal"]
        if hurt and heals:
            return heals[0]
        upgrades = [i for i in ok if items[i].effect.kind == "upgrade"] or ok
        return max(upgrades, key=lambda i: items[i].price)

    def draw_content(self) -> None:
        arena = self.app.backdrop
        arena.draw_world()
        w, h = self.app.play_width(), self.window.height  # left of a docked F10 panel
        arcade.draw_lbwh_rectangle_filled(0, 0, w, h, Color(4, 6, 14, 190))
        rects = self.card_rects()
        top = rects[0][1] + CARD_H if rects else h / 2
        self.title.move(w / 2, top + 76)
        self.title.draw()
        self.coins.set(f"{self.shop.purse.balance} coins")
        self.coins.move(w / 2, top + 40)
        self.coins.draw()
        for i, (card, (left, bottom, cw, ch)) in enumerate(zip(self.cards, rects, strict=True)):
            item = self.shop.inventory.items[i]
            left_n = self.shop.stock.get(item.id, 0)
            can = left_n > 0 and self.shop.purse.can_pay(item.price)
            draw_panel(left, bottom, cw, ch, edge=COIN if can else palette.PANEL_EDGE)
            name, desc, price, stock = card
            name.move(left + 14, bottom + ch - 28)
            desc.move(left + 14, bottom + ch - 52)
            price.move(left + 14, bottom + 16)
            price.set_color(COIN if can else palette.TEXT_DIM)
            stock.set(f"{left_n} left" if left_n else "sold out")
            stock.set_color(palette.TEXT if left_n else palette.HP)
            stock.move(left + cw - 14, bottom + 16)
            for lbl in card:
                lbl.draw()
        bottom = rects[-1][1] if rects else h / 2
        self.status.set(self.message)
        self.status.set_color(palette.GOOD if self.message_ok else palette.WARN)
        self.status.move(w / 2, bottom - 34)
        self.status.draw()
        self.hint.move(w / 2, bottom - 64)
        self.hint.draw()

    # ------------------------------------------------------------------ input
    def handle_key(self, symbol: int, modifiers: int) -> bool:
        if symbol in BUY_KEYS and self.app.backdrop.bot is None:
            self.buy(BUY_KEYS[symbol])
            return True
        if symbol in (K.ENTER, K.RETURN, K.NUM_ENTER, K.ESCAPE):
            self.leave()
            return True
        if symbol == K.T and self.talk is not None:
            self.talk()
            return True
        return False

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.app.backdrop.bot is not None or self._held():
            return  # a click on an open chat panel is the panel's
        for i, (left, bottom, cw, ch) in enumerate(self.card_rects()):
            if left <= x <= left + cw and bottom <= y <= bottom + ch:
                self.buy(i)
                return
