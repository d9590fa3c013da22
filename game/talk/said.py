"""Grounded answers built from claims: each phrase is written from a claim's value, so the answer states
exactly the claims it carries (``Said.claims``) and reading it back (``game.talk.claims.read_claims``) finds
them again. ``Said`` collects the sentences and the claims; the phrase helpers below say one stat each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.talk.claims import Claim, read_claims
from game.talk.facts import FactBase, Thing, Value
from game.talk.grounding import Grounding


def n(value: Value) -> str:
    """A number as said: 30.0 -> "30", 2.2 -> "2.2"."""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def coins(value: Value) -> str:
    return f"{n(value)} coin" if value == 1 else f"{n(value)} coins"


@dataclass
class Said:
    """A grounded answer under construction: its sentences, the claims they state, the facts a right reply
    must hold (``|`` separates alternatives)."""

    intent: str
    sentences: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    def say(self, sentence: str, *claims: Claim) -> Said:
        sentence = sentence.strip()
        if sentence:
            self.sentences.append(sentence[0].upper() + sentence[1:])
        self.claims.extend(claims)
        return self

    def must(self, *facts: str) -> Said:
        self.facts.extend(f for f in facts if f and f not in self.facts)
        return self

    @property
    def text(self) -> str:
        return " ".join(self.sentences)


def named(t: Thing) -> Claim:
    return Claim(t.key, "named", "yes", t.name)


def stat(t: Thing, attr: str) -> Claim:
    return Claim(t.key, attr, t.attrs[attr], t.name)


def the(t: Thing) -> str:
    """ "the Exploder", "Dragon's Breath", "the Light Boots"."""
    return t.name if t.name.endswith("'s Breath") or t.kind == "mod" else f"the {t.name}"


_PLURAL_VERB = {"costs": "cost", "has": "have", "hits": "hit", "is": "are", "pays": "pay", "comes": "come"}


def agree(t: Thing, phrase: str) -> str:
    """``phrase`` (it starts with a verb) as said of ``t``: "the Light Boots cost more", "the Tank costs"."""
    low = t.name.lower()
    if not (low.endswith("s") and not low.endswith("ss")):
        return phrase
    verb, _, rest = phrase.partition(" ")
    return f"{_PLURAL_VERB.get(verb, verb)} {rest}".strip()


# how one attribute of an enemy, item or weapon is said (the claim reader reads each back)
PHRASE = {
    "hp": lambda v: f"{n(v)} HP",
    "damage": lambda v: f"hits for {n(v)}",
    "first_wave": lambda v: f"from wave {n(v)}",
    "coins": lambda v: f"worth {coins(v)}",
    "price": lambda v: coins(v),
    "stock": lambda v: f"{n(v)} left",
    "speed": lambda v: f"speed {n(v)}",
}
ATTR_WORDS = {
    "hp": "HP",
    "damage": "damage",
    "speed": "speed",
    "first_wave": "first wave",
    "coins": "coins per kill",
    "price": "price",
    "stock": "stock",
}


def stats(t: Thing, attrs: tuple[str, ...]) -> tuple[str, list[Claim]]:
    """ "28 HP, hits for 28, from wave 4" and its claims, for the attributes ``t`` has."""
    have = [a for a in attrs if a in t.attrs]
    return ", ".join(PHRASE[a](t.attrs[a]) for a in have), [stat(t, a) for a in have]


def grounded_claims(
    text: str, base: FactBase, claims: list[Claim] | tuple[Claim, ...] = ()
) -> tuple[Claim, ...]:
    """The claims an answer states: those it was built from and those its text reads as (the names in its
    advice, say), without repeats."""
    return tuple(dict.fromkeys([*claims, *read_claims(text, base)]))


def grounding(said: Said, role: str, question: str, base: FactBase, **extra: Any) -> Grounding:
    """The ``Grounding`` of an answer built from claims: its text is the template and the context."""
    text = said.text
    return Grounding(
        role=role,
        question=question,
        intent=said.intent,
        facts=tuple(said.facts),
        template=text,
        context="- " + text,
        claims=grounded_claims(text, base, said.claims),
        base=base,
        **extra,
    )
