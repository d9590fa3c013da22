"""What a sentence says a thing is ("the Exploder is an enemy"), read for the claim reader
(``game.talk.claims``): a number and its cue words can be right while the sentence is garbled ("the Exploder
is a wave of 4"), because an enemy is not a wave. ``categories`` reads (thing, noun) pairs; ``is_a`` judges
one.
"""

from __future__ import annotations

import re

from game.talk.facts import Thing
from game.talk.vocab import ATTRIBUTE_NOUNS, BOSS_NOUNS, KIND_NOUNS

_COPULA = re.compile(r"\b(?:is|are|was|were)\b|(?<=[a-z])'s\b", re.I)
_ARTICLES = frozenset({"a", "an", "the", "one", "just", "only", "really"})


def categories(
    sentence: str, mentions: list[tuple[int, Thing]], last: Thing | None
) -> list[tuple[str, str, str]]:
    """ "X is a <noun>": what the sentence says a thing is, when the noun is a kind of thing or an attribute
    ("the Exploder is an enemy" is true; "the Exploder is a wave of 4" and "the Medkit is a weapon" are
    not). The thing is the one named last before the verb in its clause ("it": the one named before); only
    the first two words after the verb and its article are read, up to a number or a preposition."""
    nouns = ATTRIBUTE_NOUNS | BOSS_NOUNS | frozenset().union(*KIND_NOUNS.values())
    out: list[tuple[str, str, str]] = []
    for m in _COPULA.finditer(sentence):
        pronoun = re.search(r"\b(?:it|they)\s*$", sentence[: m.start()], re.I)
        if m.group(0) == "'s" and not pronoun and not re.match(r"\s+(?:an?|the)\b", sentence[m.end() :]):
            continue  # "the Medkit's price": a possessive, not "is"
        clause = max(sentence.rfind(";", 0, m.start()), sentence.rfind(":", 0, m.start()))
        before = [t for pos, t in mentions if clause < pos < m.start()]
        subject = before[-1] if before else (last if pronoun else None)
        if subject is None or subject.kind in ("group", "rule", "player"):
            continue
        words = re.findall(r"[a-z]+|[^a-z\s]", sentence[m.end() : m.end() + 40].lower())
        while words and words[0] in _ARTICLES:
            words.pop(0)
        if words[:1] in (["not"], ["no"], ["never"]):
            continue  # "the Medkit is not a weapon": what it is not is not read
        for word in words[:2]:
            if word in nouns:
                out.append((subject.key, word, sentence[m.start() : m.end() + 20].strip()))
                break
            if not word.isalpha() or word in ("in", "at", "on", "from", "for", "of", "worth", "by", "to"):
                break
    return out


def is_a(thing: Thing, noun: str, said: str) -> str:
    """ "" when ``thing`` is a ``noun`` (a word for its kind; "boss" only for the boss), else why not."""
    if noun in BOSS_NOUNS:
        return "" if thing.key == "enemy:boss" else f"{said} is not the boss"
    if noun in KIND_NOUNS.get(thing.kind, ()):
        return ""
    kind = f"an {thing.kind}" if thing.kind[0] in "aeiou" else f"a {thing.kind}"
    return f"{said} is {kind}, not a {noun}"
