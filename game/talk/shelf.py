"""The Merchant's grounded answer: the question's intent mapped to items on the shelf by their effect tags.

``merchant_grounding(question, shelf)`` takes the shelf as ``game.talk.wares.shelf_view`` copies it off the
live shop, finds the intent (healing, speed, damage, fire rate, max HP, pickup range, cheapest, dearest,
affordable with my coins, a named item's price, the whole shelf, how to earn coins) and writes the facts a
right answer holds and the template that states them. No model is involved: the stub Merchant answers with
the template.
"""

from __future__ import annotations

import re

from game.talk.facts import FactBase
from game.talk.grounding import Grounding
from game.talk.query import data_answer
from game.talk.said import grounded_claims, grounding
from game.talk.vocab import TAG_WORDS
from game.talk.wares import ShelfView, Ware

# the Merchant's other intents -> the words that ask for them (tried before the needs in ``TAG_WORDS``)
OTHER_WORDS: tuple[tuple[str, str], ...] = (
    # the player selling: the shop has no such command (``game.shop.service``: inventory and buy only)
    (
        "sell_back",
        r"\b(?:can|could|may|do) i sell\b|\bi (?:want|would like|'d like) to sell\b"
        r"|\bbuy (?:it|this|my \w+) back|\bsell (?:you|this|my)\b|\bbuy (?:from|off) me\b",
    ),
    ("earn", r"(?:get|earn|make|find) (?:more )?(?:coins|money|gold)|where do coins come"),
    ("cheapest", r"cheap|least expensive|lowest price|budget|costs? the least"),
    ("dearest", r"most expensive|priciest|dearest|costs? the most|best item|strongest item"),
    (
        "afford",
        r"afford|can i (?:buy|get)|enough (?:coins|money)|what can i (?:buy|get)|with my (?:coins|money)"
        r"|i have \d+|with \d+ (?:coins?|gold)|what should i (?:buy|get)",
    ),
    ("purse", r"how (?:many|much) (?:coins|money|gold) (?:do )?i have|my (?:coins|balance|purse)"),
)
LIST_WORDS = r"sell|sale|wares|shelf|stock|inventory|have for me|what do you have|offer|items|goods|buy"
_PRICE_Q = re.compile(r"how much|cost|price|worth|coins for", re.I)


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _line(w: Ware) -> str:
    return f"{w.name}: {_coins(w.price)}, {w.effect}, {w.stock} left" if w.stock else f"{w.name}: sold out"


def _named(question: str, shelf: ShelfView) -> list[Ware]:
    q = question.lower()
    found = []
    for w in shelf.wares:
        words = [w.name.lower(), w.id.replace("_", " ")]
        head, tail = w.name.lower().split()[0], w.name.lower().split()[-1]  # "vitality", "tonic"
        heads = [h for h in {head, tail} if len(h) > 4 and h not in ("points", "fire")]
        if any(x in q for x in words) or any(re.search(rf"\b{re.escape(h)}s?\b", q) for h in heads):
            found.append(w)
    return found


def intent_of(question: str, shelf: ShelfView) -> str:
    q = question.lower()
    if _named(question, shelf):
        return "named"
    for name, pattern in OTHER_WORDS:
        if re.search(pattern, q):
            return name
    for tag, pattern in TAG_WORDS:
        if re.search(pattern, q):
            return tag
    if re.search(LIST_WORDS, q) or not re.search(
        r"\?\s*$|^\s*(?:what|which|how|can|could|do|does|is|are|why|will|would)\b", q
    ):
        return "list"  # a greeting or a request to see the wares
    return "unknown"  # a question the shelf's data does not answer


def _afford_sentence(w: Ware, coins: int) -> str:
    if w.stock <= 0:
        return f"The {w.name} is sold out."
    if coins >= w.price:
        return f"You have {_coins(coins)}, so you can buy it."
    return f"You have {_coins(coins)}, {w.price - coins} short."


def _about(w: Ware, lead: str, coins: int) -> str:
    if w.stock <= 0:
        return f"{lead} the {w.name}, but it is sold out."
    does = f"it gives {w.effect}" if w.effect.startswith(("+", "-")) else f"it {w.effect}"
    return f"{lead} the {w.name} for {_coins(w.price)}: {does}. {_afford_sentence(w, coins)}"


def _item_facts(w: Ware) -> tuple[str, ...]:
    """What an answer about one item must hold: its name, and its price and what it does (the amount in its
    effect, e.g. 40 for "heals 40 HP"), or that it is sold out."""
    if w.stock <= 0:
        return (w.name, "sold out")
    amount = re.search(r"\d+", w.effect)
    return (w.name, str(w.price), *((amount.group(0),) if amount else ()))


def merchant_grounding(question: str, shelf: ShelfView) -> Grounding:
    """The Merchant's grounded answer: a question over the data (a count, a comparison, a stat, something
    the shelf lacks, a rule of the game) first, else the question's intent on the shelf."""
    base = FactBase.load(shelf)
    said = data_answer(question, base, "Merchant")
    if said is not None:
        return grounding(said, "Merchant", question, base, **_shelf_checks(shelf))
    return _shelf_grounding(question, shelf, base)


def _shelf_checks(shelf: ShelfView) -> dict[str, object]:
    """What the guard's price and effect checks need of the shelf."""
    return {
        "names": frozenset(w.name for w in shelf.wares),
        "prices": tuple((w.name, w.price) for w in shelf.wares),
        "effects": tuple((w.name, w.effect) for w in shelf.wares),
        "coins": shelf.coins,
    }


def _shelf_grounding(question: str, shelf: ShelfView, base: FactBase) -> Grounding:
    intent = intent_of(question, shelf)
    coins = shelf.coins
    stocked = [w for w in shelf.wares if w.stock > 0]
    facts: tuple[str, ...]
    if intent == "named":
        w = _named(question, shelf)[0]
        template = _about(w, "That is", coins)
        facts = _item_facts(w)
    elif intent in {t for t, _ in TAG_WORDS}:
        tagged = [w for w in shelf.wares if intent in w.tags]
        if not tagged:
            template = "I have nothing for that. " + _list_sentence(stocked)
            facts = ("nothing",)
        else:
            w = min(tagged, key=lambda x: (x.stock <= 0, x.price))
            lead = {"heal": "For healing I have", "max_hp": "For more max HP I have"}.get(
                intent, "For that I have"
            )
            template = _about(w, lead, coins)
            facts = _item_facts(w)
    elif intent == "cheapest":
        w = min(stocked or shelf.wares, key=lambda x: x.price)
        template = _about(w, "My cheapest is", coins)
        facts = _item_facts(w)
    elif intent == "dearest":
        w = max(stocked or shelf.wares, key=lambda x: x.price)
        template = _about(w, "My priciest is", coins)
        facts = _item_facts(w)
    elif intent == "afford":
        can = sorted((w for w in stocked if w.price <= coins), key=lambda x: x.price)
        if can:
            names = ", ".join(f"the {w.name} ({_coins(w.price)})" for w in can[:3])
            template = (
                f"With {_coins(coins)} you can buy {names}."
                if len(can) == 1
                else (f"With {_coins(coins)} you can buy one of these: {names}.")
            )
            facts = (str(coins), can[0].name)
        else:
            cheapest = min(stocked or shelf.wares, key=lambda x: x.price)
            template = (
                f"With {_coins(coins)} you can't buy anything yet: my cheapest is the {cheapest.name} "
                f"for {_coins(cheapest.price)}. Kill enemies to earn coins."
            )
            facts = (str(coins), cheapest.name)
    elif intent == "purse":
        template = f"You have {_coins(coins)}."
        facts = (str(coins),)
    elif intent == "sell_back":
        template = f"I only sell; I don't buy things back. You have {_coins(coins)} to spend."
        facts = ("don't buy",)
    elif intent == "unknown":
        template = "I don't know about that; I know my wares, their prices and stock. " + _list_sentence(
            stocked
        )
        facts = ("don't know",)
    elif intent == "earn":
        template = (
            "You earn coins by killing enemies; tougher enemies pay more. Spend them here between waves."
        )
        facts = ("kill|killing",)
    else:
        template = _list_sentence(stocked) + f" You have {_coins(coins)}."
        facts = tuple(w.name for w in stocked[:3]) or ("sold out",)
    context = "\n".join(f"- {_line(w)}" for w in shelf.wares) + f"\n- The player has {_coins(coins)}."
    numbers = {str(coins)}
    for w in shelf.wares:
        numbers |= {str(w.price), str(w.stock), str(max(0, w.price - coins))}
        numbers |= set(re.findall(r"\d+", w.effect))
    return Grounding(
        role="Merchant",
        question=question,
        intent=intent,
        facts=facts,
        template=template,
        context=context,
        numbers=frozenset(numbers | {"1", "2", "3"}),
        claims=grounded_claims(template, base),
        base=base,
        **_shelf_checks(shelf),  # type: ignore[arg-type]
    )


def _list_sentence(stocked: list[Ware]) -> str:
    if not stocked:
        return "My shelves are bare, friend."
    return "I sell " + "; ".join(f"{w.name} for {w.price} ({w.effect})" for w in stocked) + "."
