"""The talk guard, the twin of the director's plan guard: the model proposes a reply, rules check it.

``check(reply, grounding, limits)`` runs every check and returns a ``Verdict``; a reply that fails any is
replaced by the grounded template (``TalkTurn``), and the panel says so in small print:

- ``raw``: raw tool output, JSON or a chat-template token (``get_inventory returned``, ``{"ok"``...).
- ``repeat``: a sentence or a run of words said twice (``game.talk.repeat``).
- ``facts``: it does not hold the grounded facts (it does not answer the question asked).
- ``shelf``: it names a price or number the data does not have, gives an item another item's price or
  effect, or states an amount in coins (or a percentage, or HP) that no fact holds.
- ``invented``: it names something (a capitalised word inside a sentence) that neither the question nor
  the facts mention (an invented item, enemy or place), or it adds a content word (four letters or more,
  beyond a short list of voice words) that the grounded answer and its context never use: the model's task
  is to rephrase the grounded answer in a voice, and what it adds beyond that ("a legendary spaceship", "it
  also blocks its side", "the Runner is twice as strong") is made up. The question's own words do not count
  as known: they may carry the asker's wrong premise. Small talk, which has no facts, is exempt.
- ``voice``: it repeats the asker's own first-person words ("... can heal me") or what the asker said to
  the role ("the cheapest thing you sell"): it speaks as the player.
- ``claims``: read into claims (``game.talk.claims``), one is false of its subject in the data or live state
  ("the Exploder hits for 30": its damage is 28), or the grounded answer does not state it about that
  subject (a number, name, key, command, flag or file it does not give).
- ``length``: longer than the panel's room, or empty.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from game.talk.grounding import Grounding, holds, missing_facts, norm
from game.talk.repeat import repeats
from game.talk.text import sentences

RAW = re.compile(
    r"(\b\w+ returned:|[{}]|\"ok\"|\"result\"|<\|im_|<\|endoftext|</?tool|</?think|```|\bNone\b|\bnull\b)",
    re.I,
)
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]*\d)")
_PRICED = re.compile(r"(\d+)\s*(?:gold\s*)?(?:coins?|cents?|gold)\b", re.I)
_UNIT = re.compile(r"-?(\d+(?:\.\d+)?)\s*(%|percent|hp|coins?|cents?|gold)(?![a-z])", re.I)
_NAME = re.compile(r"(?<=[a-z,;:] )([A-Z][a-zA-Z]+)")
_ALWAYS = frozenset({"I", "OK", "HP", "XP", "AI", "Lua"})


@dataclass(frozen=True)
class Limits:
    max_chars: int = 260
    max_sentences: int = 3


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reasons: tuple[str, ...]  # the failed checks' names, e.g. ("repeat", "facts")
    detail: str = ""

    @property
    def why(self) -> str:
        return ", ".join(self.reasons)


def _numbers_ok(reply: str, g: Grounding) -> str:
    if not g.numbers:
        return ""
    for m in _NUMBER.finditer(reply):
        n = m.group(1).rstrip("0").rstrip(".") if "." in m.group(1) else m.group(1)
        if n not in g.numbers:
            return f"number {m.group(1)} is not in the data"
    return ""


def _prices_ok(reply: str, g: Grounding) -> str:
    """In each sentence naming exactly one item, an amount in coins is its price, the player's purse or
    what the player is short of it."""
    prices = dict(g.prices)
    if not prices:
        return ""
    for sentence in sentences(reply):
        low = norm(sentence)
        named = [name for name in prices if name.lower() in low]
        if len(named) != 1:
            continue
        price = prices[named[0]]
        allowed = {price}
        if g.coins is not None:
            allowed |= {g.coins, price - g.coins, g.coins - price}
        for m in _PRICED.finditer(sentence):
            if int(m.group(1)) not in allowed:
                return f"{named[0]} does not cost {m.group(1)} coins"
        effect = dict(g.effects).get(named[0], "")
        for m in _UNIT.finditer(sentence):
            if _unit(m.group(2)) != "coin" and effect and m.group(1) not in re.findall(r"\d+", effect):
                return f"{named[0]} does not give {m.group(0)}"
    return ""


def _units_ok(reply: str, g: Grounding) -> str:
    """An amount with a unit must be one the facts state with that unit (a price, the purse, what the
    player is short; an effect's percentage or HP)."""
    facts = f"{g.template}\n{g.context}"
    stated: dict[str, set[str]] = {"%": set(), "hp": set(), "coin": set()}
    for m in _UNIT.finditer(facts):
        stated[_unit(m.group(2))].add(m.group(1))
    if g.coins is not None:
        stated["coin"] |= (
            {str(g.coins)} | {str(abs(p - g.coins)) for _, p in g.prices} | {str(p) for _, p in g.prices}
        )
    for m in _UNIT.finditer(reply):
        if m.group(0).startswith("-"):
            return f"a negative amount {m.group(0)!r}"
        unit = _unit(m.group(2))
        if m.group(1) not in stated[unit]:
            return f"{m.group(0)!r} is not in the facts"
    return ""


def _unit(word: str) -> str:
    w = word.lower()
    return "%" if w in ("%", "percent") else "hp" if w == "hp" else "coin"


NEW_WORDS_MAX = (
    0  # content words a rephrasing may add that the grounded answer never uses (voice words aside)
)
_CONTENT = re.compile(r"[a-z]{4,}")
# words any rephrasing may use: function words and the voice of a shopkeeper or an announcer
_PLAIN_TEXT = """
    about also been before being both came come comes could does doing done down each even ever every
    from gets give gives goes going gone good great have having here into just keep keeps kind know like
    made make makes many might more most much must need needs next only other over really right same
    should show shows some such sure take takes than that thats their them then there these they thing
    things this those through today very want wants well were what when where which while will with
    would your yours youre youll friend friends traveler welcome course indeed certainly fine nice
    help helps press tell tells find found look looks able enough once still around away back
    between among against after until again always never often careful watch open opens toggle toggles
    switch switches turn turns either neither without within afford affords
"""
_PLAIN = frozenset(_PLAIN_TEXT.split())


def _stem(word: str) -> str:
    for end in ("ing", "es", "ed", "s"):
        if len(word) > len(end) + 3 and word.endswith(end):
            return word[: -len(end)]
    return word


def _invented(reply: str, g: Grounding) -> str:
    known = norm(f"{g.question} {g.template} {g.context}")
    said = norm(f"{g.template} {g.context}")  # the question's words may carry the asker's wrong premise
    for m in _NAME.finditer(reply):
        word = m.group(1)
        if word not in _ALWAYS and word.lower() not in known:
            return f"names {word!r}"
    if g.intent == "small_talk":  # no facts to distort, and the voice is the point
        return ""
    seen = {_stem(w) for w in _CONTENT.findall(said.replace("'", ""))}
    new = [
        w
        for w in _CONTENT.findall(reply.lower().replace("'", ""))
        if w not in _PLAIN and _stem(w) not in seen
    ]
    new = list(dict.fromkeys(new))
    if len(new) > NEW_WORDS_MAX:
        return "adds what the data does not say: " + ", ".join(repr(w) for w in new[:4])
    return ""


_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(_WORDS.split(" "))}
_WORD_AMOUNT = re.compile(
    r"\b(" + "|".join(_NUMBER_WORDS) + r")(?=\s*(?:coins?|cents?|gold|%|percent|hp)\b)", re.I
)
_MONEY = re.compile(r"\$|\bdollars?\b|\bcents?\b|\beuros?\b", re.I)


# the asker's object and possessive words (a shopkeeper says "I have" too, so not "I")
_FIRST_PERSON = frozenset({"me", "my", "mine", "myself"})
# what follows "you" in a reply to the player as well as in a question to the role ("you have 10 coins")
_SHARED_YOU = frozenset({"have", "can", "are", "need", "get", "will", "could", "should", "got", "want", "do"})


def _as_asker(reply: str, g: Grounding) -> str:
    """The asker's first-person words ("heal me", "my coins") repeated in the reply: the reply speaks as the
    player instead of to them."""
    q = re.findall(r"[a-z']+", g.question.lower())
    said = " " + " ".join(re.findall(r"[a-z']+", reply.lower())) + " "
    for a, b in itertools.pairwise(q):
        if (a in _FIRST_PERSON) != (b in _FIRST_PERSON) and f" {a} {b} " in said:
            return f"speaks as the asker ({a} {b})"
        if a in ("you", "your") and b not in _SHARED_YOU and b not in _FIRST_PERSON and f" {a} {b} " in said:
            return f"speaks as the asker ({a} {b})"
    return ""


def _left_out(text: str, g: Grounding) -> list[str]:
    """A list answer ("the enemies are: ...", "there are 4 mods: ...") must keep every thing it lists: a
    shorter list reads as the whole one."""
    if not (g.intent.endswith(":all") or g.intent.startswith(("count:", "absent"))) or g.base is None:
        return []
    said = {t.key for _pos, t in g.base.mentions(text)}
    listed = dict.fromkeys(
        c.said
        for c in g.claims
        if c.attribute == "named" and c.subject not in said and not holds(text, c.said)
    )  # a thing the reader does not find by name (a key) is kept when its name is said
    return [name for name in listed if name]


def _claims(text: str, g: Grounding) -> str:
    """The first claims that are false or that the grounded answer does not state (``game.talk.claims``)."""
    if g.base is None:
        return ""
    from game.talk.claims import check_reply

    asked = [t.key for _pos, t in g.base.mentions(g.question)]
    return "; ".join(check_reply(text, g.claims, g.base, asked)[:2])


def _digits(text: str) -> str:
    """Amounts in words as digits ("one coin" -> "1 coin"), so the unit checks see them."""
    return _WORD_AMOUNT.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)


def check(reply: str, g: Grounding, limits: Limits) -> Verdict:
    text = reply.strip()
    reasons: list[str] = []
    details: list[str] = []
    if not text:
        return Verdict(False, ("length",), "empty")
    raw = RAW.search(text)
    if raw:
        reasons.append("raw")
        details.append(f"raw output {raw.group(0)!r}")
    if repeats(text):
        reasons.append("repeat")
    missing = missing_facts(text, g.facts) + _left_out(text, g)
    if missing:
        reasons.append("facts")
        details.append("missing " + ", ".join(missing))
    amounts = _digits(text)
    money = _MONEY.search(text)
    wrong = (
        (f"money the game does not have ({money.group(0)!r})" if money else "")
        or _numbers_ok(amounts, g)
        or _prices_ok(amounts, g)
        or _units_ok(amounts, g)
    )
    if wrong:
        reasons.append("shelf")
        details.append(wrong)
    invented = _invented(text, g)
    if invented:
        reasons.append("invented")
        details.append(invented)
    untrue = _claims(text, g)
    if untrue:
        reasons.append("claims")
        details.append(untrue)
    echoed = _as_asker(text, g)
    if echoed:
        reasons.append("voice")
        details.append(echoed)
    if len(text) > limits.max_chars or len(sentences(text)) > limits.max_sentences + 1:
        reasons.append("length")
    return Verdict(not reasons, tuple(reasons), "; ".join(details))
