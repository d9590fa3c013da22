"""Buying by talking: "buy a medkit" is read, the real purchase is made at once (the same ``BuyItem``
command a click in the shop and the Merchant's ``buy_item`` tool apply), and the grounded answer is built from
the receipt or the refusal, as claims about the live shelf after the sale. No model call: the reply is the
receipt, so it is as fast as a click.

``purchase_grounding(text, service)`` runs on the main thread (it changes the world).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from game.errors import PurchaseRefused
from game.talk.claims import Claim
from game.talk.facts import FactBase
from game.talk.grounding import Grounding
from game.talk.said import Said, agree, coins, grounding, n, named, stat, the
from game.talk.shelf import _named
from game.talk.wares import shelf_view

if TYPE_CHECKING:
    from game.shop.service import ShopService

_VERBS = ("buy", "purchase", "sell me", "give me", "gimme", "take", "get", "want", "grab", "have", "like")
_WANTED = [
    re.compile(rf"\b{verb}\s+(?:me )?(an? |the |one |some |1 )?([a-z][a-z _'-]{{1,40}})", re.I)
    for verb in _VERBS
]


def wanted(text: str) -> str:
    """What an order asks for, as written ("buy the rocket launcher" -> "a rocket launcher")."""
    m = next((found for pattern in _WANTED if (found := pattern.search(text))), None)  # "buy" first
    if m is None:
        return text.strip(" .!?")
    what = re.sub(r"\s+(?:please|now|thanks?)$", "", m.group(2).strip(" .!?'"))
    return ("an " if what[:1] in "aeiou" else "a ") + what


def purchase_grounding(text: str, service: ShopService) -> Grounding:
    shop = service.shop
    before = shelf_view(shop)
    found = _named(text, before)
    if not found:
        from game.talk.query import absent_answer

        base = FactBase.load(before)
        said = absent_answer(wanted(text), base, "Merchant")
        said.intent = "refused:unknown_item"
        return grounding(said, "Merchant", text, base)
    ware = found[0]
    try:
        receipt = service.buy_now(ware.id)
    except PurchaseRefused as exc:
        base = FactBase.load(shelf_view(shop))
        return grounding(_refused(exc, base, ware.id), "Merchant", text, base)
    base = FactBase.load(shelf_view(shop))
    item = base.by_key[f"item:{receipt.item}"]
    player = base.by_key["player"]
    out = Said("bought").say(
        f"Here is your {item.name}: {_effect(item.text)}, for {coins(receipt.price)}.",
        named(item),
        stat(item, "price"),
    )
    left = (
        f"the {item.name} is sold out now"
        if receipt.stock_left == 0
        else f"I have {n(receipt.stock_left)} more of them"
    )
    out.say(
        f"You have {coins(receipt.balance)} left, and {left}.",
        Claim("player", "coins", player.attrs["coins"]),
        stat(item, "stock"),
    )
    return grounding(out.must(item.name, str(receipt.price)), "Merchant", text, base)


def _effect(effect: str) -> str:
    return f"it gives {effect}" if effect.startswith(("+", "-")) else f"it {effect}"


def _refused(exc: PurchaseRefused, base: FactBase, item_id: str) -> Said:
    item = base.by_key[f"item:{item_id}"]
    out = Said(f"refused:{exc.code}").must(item.name)
    if exc.code == "not_enough_coins":
        have = base.by_key["player"].attrs["coins"]
        short = int(item.attrs["price"]) - int(have)
        return out.say(
            f"No deal yet: {the(item)} {agree(item, 'costs')} {coins(item.attrs['price'])} "
            f"and you have {coins(have)}, "
            f"{n(short)} short. Kill a few more enemies and come back.",
            named(item), stat(item, "price"), Claim("player", "coins", have), Claim("player", "short", short),
        ).must(str(item.attrs["price"]))  # fmt: skip
    if exc.code == "out_of_stock":
        return out.say(f"Sorry, {the(item)} is sold out.", named(item)).must("sold out")
    if exc.code == "maxed_out":
        return out.say(f"You can't carry more: {the(item)} is already at its maximum.", named(item))
    return out.say("My shop is closed: come back between waves.").must("closed|between waves")
