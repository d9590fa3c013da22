"""Questions over the game's data, not only lookups: counts, comparisons, superlatives over any attribute,
one thing's stat, absence with the closest thing that exists, and the general rules (``game.talk.howto``).

``data_answer(question, base, role)`` returns a ``Said`` (the grounded answer with its claims and the facts a
right reply holds) or None when the question is none of these (the role's other grounding answers it).
"""

from __future__ import annotations

import re

from game.talk.facts import FactBase, Thing
from game.talk.howto import rule_answer
from game.talk.near import BARE as _BARE
from game.talk.near import closest
from game.talk.said import PHRASE, Said, agree, coins, n, named, stat, stats, the
from game.talk.vocab import (
    ATTR_NOUNS,
    KIND_WORDS,
    LEAST_WORDS,
    LESS_WORDS,
    LOOKUP,
    MORE_WORDS,
    MOST_WORDS,
    ORDER,
    TAG_WORDS,
)

_COUNT = re.compile(
    r"\bhow many\b|\bnumber of\b|\bcount\b|\bhow much stock\b|\bwhat(?:'s| is) (?:left|in stock)\b|"
    r"\bsold out\b|\bstock (?:levels?|left|on|of|for)\b|\b(?:your|the) stock\b"
    r"|\bhow many (?:are|do you have) left\b",
    re.I,
)
_ABSENT = re.compile(
    r"(?:do you (?:sell|have|stock|carry|got)|have you got|got any|got|you sell|you have|do you do"
    r"|can i (?:buy|get|have|find|use)"
    r"|is there|are there|does the game have|do they have|is it possible to (?:get|buy)"
    r"|where (?:can i|do i) (?:get|find|buy)|^any|^got any|i (?:need|want|'m looking for|am looking for))"
    r"\s+(?P<article>an? |any |some |the |me )?(?P<what>[a-z][a-z' -]{1,40}?)"
    r"(?:\s+(?:for sale|here|in (?:the|this) game|in stock|to buy|on (?:the|your) shelf|for me|for us|please"
    r"|at all|right now|today|to (?:fight|kill|beat|buy|use|get|find|pick up)"
    r"|enemy|enemies|weapon|weapons))*\s*\??$",
    re.I,
)  # fmt: skip
_GENERIC = re.compile(
    r"^(?:anything|something|things?|stuff|items?|weapons?|enem(?:y|ies)|mods?|upgrades?|more|other|else|"
    r"any|a way|way|help|for|to|that|what|which|it|them|one|ones|boss|bosses|shop|coins?|money|gold|tips?"
    r"|advice|hints?|ideas?|suggestions?|recommendations?|questions?|luck|chance|news)\b"
)


def _kind(q: str, mentions: list[Thing], role: str) -> str:
    for kind, pattern in KIND_WORDS.items():
        if kind != "item" and re.search(pattern, q):
            return kind
    if mentions:
        return mentions[0].kind if mentions[0].kind != "group" else mentions[0].key.split(":")[1].rstrip("s")
    return "item" if role == "Merchant" or re.search(KIND_WORDS["item"], q) else "enemy"


def _pool(base: FactBase, kind: str, q: str) -> list[Thing]:
    pool = base.of_kind(kind)
    if kind == "weapon" and "evolv" not in q:
        pool = [t for t in pool if "evolved" not in t.attrs]
    if kind == "item" and re.search(r"\bsell\b|\bshelf\b|\bbuy\b|\bleft\b", q):
        pool = [t for t in pool if int(t.attrs.get("stock", 0)) > 0] or pool
    return pool


COUNTED = re.compile(r"\bhow many((?: [a-z']+){1,4})")


def _counts_things(q: str, base: FactBase, role: str) -> bool:
    """Whether "how many ..." counts things the game has ("how many waves until the boss" does not)."""
    counted = COUNTED.search(q)
    if counted is None or (role == "Merchant" and re.search(r"\bleft\b|\bstock\b", q)):
        return True
    words = counted.group(1).split()
    kinds = "|".join(KIND_WORDS.values())
    return bool(re.search(kinds, counted.group(1))) or any(base.find(w) for w in words)


def _count(q: str, base: FactBase, mentions: list[Thing], role: str) -> Said | None:
    if not _counts_things(q, base, role):
        return None
    items = [t for t in mentions if t.kind == "item"]
    if items or (role == "Merchant" and re.search(r"\bleft\b|in stock|stock", q)):
        return _stock(items or _pool(base, "item", q))
    groups = {"weapon": "weapons", "enemy": "enemies", "mod": "mods", "upgrade": "upgrades", "item": "items"}
    kind = _kind(q, [t for t in mentions if t.kind == "group"], role)
    group = base.by_key.get(f"group:{groups.get(kind, '')}")
    if group is None:
        return None
    out = Said(f"count:{group.name}")
    if kind == "weapon" and re.search(SLOT_WORDS, q):
        return out.say(f"You can hold up to {n(group.attrs['slots'])} weapons at once.",
                       stat(group, "slots")).must(n(group.attrs["slots"]))  # fmt: skip
    members = [t for t in base.of_kind(kind) if kind != "weapon" or "evolved" not in t.attrs]
    if kind == "upgrade":  # the shelf's items that are upgrade stacks (the Magnet) are upgrades too
        members += [t for t in base.of_kind("item") if "max_stacks" in t.attrs]
    names = ", ".join(t.name for t in members)
    out.say(f"There are {n(group.attrs['count'])} {group.name}: {names}.", stat(group, "count"),
            *(named(t) for t in members))  # fmt: skip
    if kind == "weapon":
        out.say(
            f"Each of them can evolve, which makes {n(group.attrs['evolved'])} more.", stat(group, "evolved")
        )
    return out.must(n(group.attrs["count"]))


SLOT_WORDS = (
    r"\b(?:hold|holding|carry|carrying|equip\w*|slots?|at once|simultaneous\w*)\b"
    r"|\bat (?:a|one|the same) time\b|\b(?:can|could|may) i (?:have|use|own|take)\b"
)


def _stock(items: list[Thing]) -> Said:
    out = Said("count:stock")
    parts = [f"{the(t)}: {PHRASE['stock'](t.attrs['stock'])}" for t in items]
    out.say("I have " + "; ".join(parts) + ".", *(c for t in items for c in (named(t), stat(t, "stock"))))
    if len(items) == 1:
        out.must(items[0].name, n(items[0].attrs["stock"]) + "|sold out")
    else:
        out.must(*(t.name for t in items[:2]))
    return out


def _order(q: str, comparing: bool) -> tuple[str, int] | None:
    for attr, sign, words in ORDER:
        if re.search("|".join(words), q):
            return attr, sign
    if not comparing and not re.search(r"\b(?:which|what|who)\b", q):
        return None  # "how do I get more health" is a need, not a superlative
    degrees = ((1, MORE_WORDS), (-1, LESS_WORDS)) if comparing else ((1, MOST_WORDS), (-1, LEAST_WORDS))
    for attr, nouns in ATTR_NOUNS:  # "the lowest damage", "the biggest bounty", "more health than"
        for sign, degree in degrees:
            if re.search(rf"\b(?:{degree})\s+(?:\w+\s+)?(?:{nouns})\b", q):
                return attr, sign
    return None


MOST = {
    ("hp", 1): "has the most HP", ("hp", -1): "has the least HP", ("damage", 1): "hits the hardest",
    ("damage", -1): "hits the softest", ("speed", 1): "is the fastest", ("speed", -1): "is the slowest",
    ("price", 1): "costs the most", ("price", -1): "costs the least", ("coins", 1): "pays the most",
    ("coins", -1): "pays the least", ("first_wave", -1): "comes earliest", ("first_wave", 1): "comes latest",
    ("stock", 1): "has the most left", ("stock", -1): "has the fewest left",
}  # fmt: skip
MORE = {
    ("hp", 1): "has more HP", ("hp", -1): "has less HP", ("damage", 1): "hits harder",
    ("damage", -1): "hits softer", ("speed", 1): "is faster", ("speed", -1): "is slower",
    ("price", 1): "costs more", ("price", -1): "costs less", ("coins", 1): "pays more",
    ("coins", -1): "pays less", ("first_wave", -1): "comes earlier", ("first_wave", 1): "comes later",
    ("stock", 1): "has more left", ("stock", -1): "has fewer left",
}  # fmt: skip


SHORT = {
    "hp": lambda v: f"{n(v)} HP",
    "damage": lambda v: f"{n(v)} damage",
    "speed": lambda v: f"speed {n(v)}",
    "price": coins,
    "coins": coins,
    "first_wave": lambda v: f"wave {n(v)}",
    "stock": lambda v: f"{n(v)} left",
}


def _short(t: Thing, attr: str) -> str:
    return str(SHORT[attr](t.attrs[attr]))


def _compare(q: str, things: list[Thing], attr: str, sign: int) -> Said:
    ranked = sorted(things, key=lambda t: -sign * float(t.attrs[attr]))
    top, rest = ranked[0], ranked[1:]
    others = "; ".join(f"{the(t)}: {_short(t, attr)}" for t in rest)
    if all(t.attrs[attr] == top.attrs[attr] for t in rest):
        names = " and ".join(the(t) for t in ranked)
        text = f"{names} are alike: {_short(top, attr)} each."
    else:
        text = f"{the(top)} {agree(top, MORE[(attr, sign)])}: {_short(top, attr)}; {others}."
    claims = [c for t in ranked for c in (named(t), stat(t, attr))]
    return Said(f"compare:{attr}").say(text, *claims).must(top.name, n(top.attrs[attr]))


def _superlative(q: str, base: FactBase, kind: str, attr: str, sign: int) -> Said | None:
    pool = [t for t in _pool(base, kind, q) if isinstance(t.attrs.get(attr), int | float)]
    if not pool:
        return None
    best = max(pool, key=lambda t: sign * float(t.attrs[attr]))
    ties = [t for t in pool if t.attrs[attr] == best.attrs[attr]]
    rest = sorted((t for t in pool if t not in ties), key=lambda t: -sign * float(t.attrs[attr]))
    text = f"{the(best)} {agree(best, MOST[(attr, sign)])}: {_short(best, attr)}"
    if re.search(r"\bbest\b", q) and attr == "damage":  # "best" has no one measure: say which this is
        text = f"No one {kind} is best at everything; by damage, {text[0].lower()}{text[1:]}"
    if len(ties) > 1:
        text += ", tied with " + " and ".join(the(t) for t in ties[1:])
    claims = [c for t in ties for c in (named(t), stat(t, attr))]
    if rest:
        s = rest[0]
        text += f"; next is {the(s)}: {_short(s, attr)}"
        claims += [named(s), stat(s, attr)]
    return Said(f"most:{kind}:{attr}").say(text + ".", *claims).must(best.name, n(best.attrs[attr]))


def _lookup(q: str, t: Thing, base: FactBase) -> Said | None:
    for attr, pattern in LOOKUP:
        if t.key == "enemy:boss" and attr == "first_wave" and re.search(pattern, q):
            return rule_answer("how do I fight the boss", base, [t])
        if attr in t.attrs and re.search(pattern, q):
            text, claims = stats(t, (attr,))
            verb = {"hp": "has", "damage": "", "first_wave": "comes", "coins": "is", "price": "costs",
                    "stock": "has", "speed": "has"}[attr]  # fmt: skip
            said = f"{the(t)} {agree(t, f'{verb} {text}'.strip())}"
            return Said(f"lookup:{attr}").say(said + ".", named(t), *claims).must(t.name, n(t.attrs[attr]))
    return None


_MORE_OF = r"(?:better|bigger|higher|more|faster|stronger|larger|longer|quicker|greater)\b"


def _absent(q: str, base: FactBase, role: str) -> Said | None:
    m = _ABSENT.search(q.strip())
    if m is None:
        return None
    what = m.group("what").strip(" -'")
    article = m.group("article") or ""
    core = what
    while core.split(" ", 1)[0] in _BARE and " " in core:  # "any good weapons?" asks for weapons
        core = core.split(" ", 1)[1]
    if _GENERIC.match(core) or base.mentions(what) or len(core) < 3 or core in _BARE:
        return None
    explicit = [k for k, p in KIND_WORDS.items() if k != "item" and re.search(p, q)]
    # "a healer enemy", "a second life": a thing; "a bigger health bar", "a better fire rate": a need
    a_thing = explicit or (article.strip() in ("a", "an") and not re.match(_MORE_OF, what))
    if not a_thing and any(re.search(words, what) for _tag, words in TAG_WORDS):
        return None  # a need ("any healing?", "more speed"): the shelf's effect tags answer it
    a = article if article.strip() in ("a", "an") else ""
    return absent_answer(a + what, base, role, explicit[0] if explicit else "any")


def absent_answer(what: str, base: FactBase, role: str, kind: str = "any") -> Said:
    """What is not there, said so, with the closest thing that is (by what it is for, else by its name)."""
    kind = "item" if role == "Merchant" else kind
    bare = re.sub(r"^(?:an?|the|some|any) ", "", what)
    near, purpose = closest(bare, base, kind)
    out = Said("absent")
    plural = bare.endswith("s") and not bare.endswith("ss")
    there = f"There are no {bare}" if plural else f"There is no {bare}"
    said = f"No, I don't sell {what}." if role == "Merchant" else f"{there} in the game."
    out.say(said).must("no|not|don't|isn't")
    lead = f"The closest, {purpose}," if purpose else "The closest"
    if near is not None and near.kind == "key":
        out.say(f"{lead} is the {near.name} key: {near.text[0].lower()}{near.text[1:]}.", named(near))
        out.must(near.name)
    elif near is not None:
        text, claims = stats(near, ("price", "stock") if near.kind == "item" else ("hp", "damage"))
        gives = near.text.startswith(("+", "-"))
        text = f" ({text})" if text else ""
        if near.kind == "weapon":  # the stats first: a weapon's own words may name another weapon
            said = f"{lead} is {the(near)}{text}, {near.text}."
        else:
            said = f"{lead} is {the(near)}{text}: it {'gives ' if gives else ''}{near.text}."
        out.say(said, named(near), *claims).must(near.name)
    elif role == "Merchant":
        stocked = [t for t in base.of_kind("item") if int(t.attrs.get("stock", 0)) > 0]
        out.say("Nothing I sell is like it.")
        out.say("I sell " + ", ".join(the(t) for t in stocked) + ".", *(named(t) for t in stocked))
    return out


def data_answer(question: str, base: FactBase, role: str) -> Said | None:
    """A grounded answer computed over the data, or None (see the module's doc)."""
    q = question.lower()
    mentions = [t for _pos, t in base.mentions(q)]
    things = [t for t in dict.fromkeys(mentions) if t.kind != "group"]
    if _COUNT.search(q) and not re.search(
        r"\bhow many (?:hp|health|hit points|coins? (?:does|do|is|for|per)|damage)", q
    ):
        if re.search(r"\bhow many coins (?:do )?i have\b", q):
            return None  # the purse: the shelf says it
        got = _count(q, base, things, role)
        if got is not None:
            return got
    same = [t for t in things if things and t.kind == things[0].kind]
    order = _order(q, comparing=len(same) >= 2)
    if order is not None and len(same) >= 2:
        attr, sign = order
        if all(isinstance(t.attrs.get(attr), int | float) for t in same):
            return _compare(q, same, attr, sign)
    if order is not None and len(things) <= 1:
        attr, sign = order
        if not (
            role == "Merchant" and attr == "price"
        ):  # the shelf's cheapest / priciest also say if you can pay
            kind = _kind(q, [t for t in mentions if t.kind == "group"], role)
            if attr == "price":
                kind = "item"
            got = _superlative(q, base, kind, attr, sign)
            if got is not None:
                return got
    if (len(things) == 1 and things[0].kind in ("enemy", "weapon")) or (len(things) == 1 and role == "Chat"):
        got = _lookup(q, things[0], base)
        if got is not None and not re.search(r"\b(?:fight|beat|deal with|counter|defeat)\b", q):
            return got
    absent = _absent(q, base, role)  # "is there a healer enemy?": before the rules a word may call up
    if absent is not None:
        return absent
    skip = ("heal", "coins") if role == "Merchant" else ()  # the shelf's needs and how to earn say these
    return rule_answer(question, base, things, skip)
