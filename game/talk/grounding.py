"""What a right answer holds: the facts from the game's data, and the grounded template that states them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.talk.claims import Claim
    from game.talk.facts import FactBase

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Grounding:
    """One question's grounding.

    ``facts``: each must appear in a right reply (an entry may list alternatives: ``"WASD|W A S D"``).
    ``template``: the rules' own answer, stating every fact; shown when the model's reply fails the guard.
    ``context``: the facts as the model reads them. ``names`` and ``numbers``: what a reply may name at all
    (empty: no limit), so an invented item or price is caught.
    """

    role: str
    question: str
    intent: str
    facts: tuple[str, ...]
    template: str
    context: str
    names: frozenset[str] = field(default_factory=frozenset)
    numbers: frozenset[str] = field(default_factory=frozenset)
    prices: tuple[tuple[str, int], ...] = ()  # (item name, price): the shelf, for the price check
    coins: int | None = None  # the player's purse, when the question is about the shop
    effects: tuple[tuple[str, str], ...] = ()  # (item name, effect): an item's % or HP must be its own
    # the claims the grounded answer states (``game.talk.claims``) and the things they are checked against;
    # a rephrasing may only make claims among these, each true of its subject
    claims: tuple[Claim, ...] = ()
    base: FactBase | None = field(default=None, compare=False, repr=False)


def norm(text: str) -> str:
    """Lower case, one space between words: what fact matching compares."""
    return _SPACE.sub(" ", text.lower()).strip()


def holds(reply: str, fact: str) -> bool:
    """Whether ``reply`` states ``fact`` (any of its ``|`` alternatives), ignoring case and spacing."""
    text = norm(reply)
    for alt in fact.split("|"):
        a = norm(alt)
        if not a:
            continue
        if a[0].isalnum() and a[-1].isalnum():
            ending = r"(?:st|nd|rd|th)?" if a.isdigit() else r"(?:s|es|ed|ing)?"  # "5th", "kills"
            if re.search(rf"(?<![a-z0-9]){re.escape(a)}{ending}(?![a-z0-9])", text):
                return True
        elif a in text:
            return True
    return False


def missing_facts(reply: str, facts: tuple[str, ...]) -> list[str]:
    return [f for f in facts if not holds(reply, f)]
