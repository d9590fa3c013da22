"""The claim reader: a reply read into claims (subject, attribute, value), each checked against the game.

Public API (the talk guard, the talk evaluation and any grounded agent use it):

- ``read_claims(text, base)``: the claims a text makes. ``"The Exploder hits for 30"`` ->
  ``Claim("enemy:exploder", "damage", 30)``; ``"You have only a single coin"`` -> ``Claim("player",
  "coins", 1)``; ``"press F6"`` -> ``Claim("key:F6", "key", "F6")``; ``"-Dgd_mode=1"`` -> ``Claim("command",
  "command", "-Dgd_mode=1")``. A number is bound to the nearest thing named before it in its sentence (after
  it, or in the sentence before, when none), and its attribute comes from the words around it ("hits for",
  "HP", "coins", "wave", "left", "%"); a number with no such cue is an ``any`` claim, true when the thing has
  that number at all.
- ``judge(claim, base)``: "" when the claim is true of its subject in the data and live state, else why not.
- ``false_claims(text, base)``: every false claim in a text, with its reason.
- ``unsupported(claims, grounded)``: the claims that no grounded claim states about the same subject (a
  rephrasing may only say what the grounded answer says).
- ``check_reply(reply, grounded, base)``: both, as the reasons the talk guard prints in small print.

Commands, flags, environment variables and file names count as claims too: one is true only when the
game's own text (the knowledge file) names it, so an invented ``-Dgd_mode=1`` fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from game.talk.facts import FactBase, Thing, Value
from game.talk.kinds import categories, is_a
from game.talk.knowledge import load_knowledge
from game.talk.text import sentences

_WORD_NUMBERS = {
    "zero": 0, "no": 0, "one": 1, "a single": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "a hundred": 100, "hundred": 100,
}  # fmt: skip
_UNITS = r"coins?|gold|hp|health|hit points|damage|%|percent|left|in stock|waves?|weapons?|mods?|seconds?"
_WORD_NUMBER = re.compile(
    r"\b(" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")\b(?=\s+(?:" + _UNITS + r")\b)", re.I
)
_A_COIN = re.compile(r"\b(?:only |just )?an? (?:single )?(coin|gold piece)\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])[+-]?(\d+(?:\.\d+)?)(?:st|nd|rd|th)?(?![\w.]*\d)")
_FKEY = re.compile(r"(?<![\w-])F(\d{1,2})(?!\w)")
_COMMAND = re.compile(
    r"(?<![\w/-])(--?[A-Za-z][\w.-]*(?:=\S+)?)"  # a flag: -Dgd_mode=1, --mode
    r"|\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b"  # an environment variable: GD_MODE
    r"|\b([\w-]+\.(?:toml|lua|json|jsonl|py|cfg|ini|ya?ml|txt|sh|exe|bat|env|conf))\b"  # a file
    r"|\b(python3? -m [\w.]+|pip install \S+|export \w+=\S*|set \w+=\S*)"  # a shell command
)
_PLAYER_COINS = re.compile(
    r"\b(?:you(?:'ve| have| hold| own| carry|'ve got| got| still have)|your purse (?:holds|has)|with|your)"
    r"(?: only| just| exactly| now| still)?(?: your)? (\d+) (?:coins?|gold)\b",
    re.I,
)
_AFFORD = re.compile(r"\byou can (?:buy|afford|get)\b([^.;]*)", re.I)
_SHORT = re.compile(r"\b(\d+) (?:coins? )?short\b", re.I)
# what is said of the game's rules, whatever thing the sentence names
_RULES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\bevery (\d+)(?:st|nd|rd|th)? waves?\b", re.I), "rule:game", "boss_every"),
    (re.compile(r"\bwave 1 (?:lasts|takes|is) (\d+)", re.I), "rule:game", "wave_seconds"),
    (
        re.compile(r"\b(?:hold|carry|have) up to (\d+) weapons?|\b(\d+) weapon slots\b", re.I),
        "group:weapons",
        "slots",
    ),
    (re.compile(r"\bpick(?:s)? 1 of (\d+)\b", re.I), "rule:game", "choices"),
    (re.compile(r"\b(\d+) times (?:its|the|a) (?:kind|bounty|normal)", re.I), "rule:game", "elite_mult"),
)

# cue words around a number -> attribute (the first that matches wins)
_AFTER: tuple[tuple[str, str], ...] = (
    (r"\s*(?:%|percent)", "amount"),
    (r"\s*max(?:imum)? (?:hp|health)", "max_hp"),
    (r"\s*(?:hp|health|hit points)", "hp"),
    (r"\s*(?:damage|dmg)", "damage"),
    (r"\s*(?:coins?|gold)", "coins"),
    (r"\s*(?:left|in stock|on (?:the|my) shel(?:f|ves)|remaining)", "stock"),
    (r"\s*(?:s|sec|seconds?)\b", "seconds"),
    (r"\s*(?:weapon )?slots?", "slots"),
    (r"\s*stacks?", "max_stacks"),
)
_BEFORE: tuple[tuple[str, str], ...] = (
    (
        r"(?:hits?|hitting|strikes?|explodes?|blows? up|bites?) (?:you )?(?:for|with)\s*$"
        r"|deals?\s*$|does\s*$|damage (?:of )?\s*$",
        "damage",
    ),
    (r"heals?(?: you)?(?: for| by)?\s*$", "hp"),
    (r"\bwaves?\s*$", "wave"),
    (r"(?:worth|pays?|drops?|bounty of|gives you)\s*(?:a worth of\s*)?$", "coins"),
    (r"(?:costs?|price (?:is|of))\s*$", "coins"),
    (r"every\s*$", "every"),
    (r"(?:up to|hold|carry)\s*$", "slots"),
    (r"(?:i have|there are|i've got|stock of)\s*$", "stock"),
    (r"(?:level|lvl)\s*$", "level"),
)
# an attribute as said -> the attribute of each kind of thing it stands for
_ATTR = {
    "enemy": {"hp": "hp", "damage": "damage", "coins": "coins", "wave": "first_wave"},
    "item": {"coins": "price", "hp": "amount", "max_hp": "amount", "amount": "amount", "stock": "stock"},
    "upgrade": {"amount": "amount", "hp": "amount", "max_hp": "amount", "max_stacks": "max_stacks"},
    "weapon": {"damage": "damage"},
    "group": {"slots": "slots", "stock": "count"},
    "rule": {"every": "boss_every", "seconds": "wave_seconds", "slots": "slots"},
    "player": {"coins": "coins"},
}


@dataclass(frozen=True)
class Claim:
    """One statement: ``subject`` is a thing's key (``enemy:exploder``, ``player``, ``key:F6``, ``command``),
    ``attribute`` what about it (``damage``; ``any``: one of its numbers; ``named``: it is named), ``value``
    what is said. ``said`` is the words it was read from (not compared)."""

    subject: str
    attribute: str
    value: Value
    said: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.subject}.{self.attribute}={self.value}"


def _num(text: str) -> float | int:
    f = float(text)
    return int(f) if f.is_integer() else f


def _words_to_digits(text: str) -> str:
    text = _A_COIN.sub(lambda m: f"1 {m.group(1)}", text)
    return _WORD_NUMBER.sub(lambda m: str(_WORD_NUMBERS[m.group(1).lower()]), text)


def _cue(sentence: str, start: int, end: int) -> str:
    after, before = sentence[end : end + 24].lower(), sentence[max(0, start - 28) : start].lower()
    for pattern, attr in _AFTER:
        if re.match(pattern, after):
            return attr
    for pattern, attr in _BEFORE:
        if re.search(pattern, before):
            return attr
    return "any"


def _subject_at(mentions: list[tuple[int, Thing]], at: int, last: Thing | None) -> Thing | None:
    before = [t for pos, t in mentions if pos < at]
    if before:
        return before[-1]
    after = [t for pos, t in mentions if pos > at]
    return after[0] if after else last


def read_claims(text: str, base: FactBase) -> list[Claim]:
    """The claims a text makes, sentence by sentence (see the module's doc)."""
    out: list[Claim] = []
    last: Thing | None = None
    for raw in sentences(text):
        sentence = _words_to_digits(raw)
        taken: list[tuple[int, int]] = []
        for m in _COMMAND.finditer(sentence):
            token = next(g for g in m.groups() if g)
            out.append(Claim("command", "command", token, token))
            taken.append(m.span())
        for m in _FKEY.finditer(sentence):
            out.append(Claim(f"key:F{m.group(1)}", "key", f"F{m.group(1)}", m.group(0)))
            taken.append(m.span())
        for m in _PLAYER_COINS.finditer(sentence):
            out.append(Claim("player", "coins", _num(m.group(1)), m.group(0)))
            taken.append(m.span(1))
        for m in _AFFORD.finditer(sentence):  # "you can buy the Medkit and the Magnet": both, together
            items = [t for pos, t in base.mentions(m.group(1)) if t.kind == "item"]
            if len(items) > 1 and " and " in m.group(1):
                total = sum(int(t.attrs.get("price", 0)) for t in items)
                out.append(Claim("player", "affords", total, m.group(0)))
        for m in _SHORT.finditer(sentence):
            out.append(Claim("player", "short", _num(m.group(1)), m.group(0)))
            taken.append(m.span(1))
        for pattern, subject, attr in _RULES:
            for m in pattern.finditer(sentence):
                group = next(i for i in range(1, len(m.groups()) + 1) if m.group(i))
                out.append(Claim(subject, attr, _num(m.group(group)), m.group(0)))
                taken.append(m.span())
        mentions = [(pos, t) for pos, t in base.mentions(sentence) if not _inside(pos, taken)]
        for _pos, each in mentions:
            out.append(Claim(each.key, "named", "yes", each.name))
        out.extend(_evolutions(sentence, mentions))
        out.extend(Claim(key, "is_a", noun, said) for key, noun, said in categories(sentence, mentions, last))
        for m in _NUMBER.finditer(sentence):
            if _inside(m.start(1), taken) or _in_name(m.start(1), sentence, base):
                continue
            cue = _cue(sentence, m.start(), m.end())
            thing = _subject_at(mentions, m.start(), last)
            value = _num(m.group(1))
            said = sentence[max(0, m.start() - 20) : m.end() + 12].strip()
            if thing is None:
                out.append(Claim("", cue, value, said))
                continue
            attr = _ATTR.get(thing.kind, {}).get(cue, "any")
            out.append(Claim(thing.key, attr, value, said))
        if mentions:
            last = mentions[-1][1]
    return out


_EVOLVES = re.compile(r"\b(?:evolves?|evolving|turns?|becomes?)\b(?: (?:into|to))?", re.I)


def _evolutions(sentence: str, mentions: list[tuple[int, Thing]]) -> list[Claim]:
    """ "X evolves into Y [with one Z]": the weapon before the verb evolves into the weapon after it, with
    the upgrade named after that ("the Blaster with Rapid Fire becomes Gatling Storm" too)."""
    out: list[Claim] = []
    for m in _EVOLVES.finditer(sentence):
        before = [(pos, t) for pos, t in mentions if pos < m.start() and t.kind == "weapon"]
        after = [(pos, t) for pos, t in mentions if pos >= m.end() and t.kind == "weapon"]
        if not before or not after:
            continue
        (start, source), (at, into) = before[-1], after[0]
        out.append(Claim(source.key, "evolves_into", into.name, sentence[m.start() : at + len(into.name)]))
        upgrades = [(pos, t) for pos, t in mentions if t.kind in ("upgrade", "item")]
        nxt = min([pos for pos, t in mentions if t.kind == "weapon" and pos > at] or [len(sentence)])
        passive = [
            t for pos, t in upgrades if start < pos < m.start()
        ]  # "the Blaster with Rapid Fire becomes"
        passive = passive or [t for pos, t in upgrades if at < pos < nxt]  # "... into Y with one Z upgrade"
        if passive:
            out.append(Claim(source.key, "evolves_with", passive[0].name, passive[0].name))
    return out


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def _in_name(pos: int, sentence: str, base: FactBase) -> bool:
    """A digit inside a name or key label ("1 / 2 / 3" for picks is a key, not a number claim)."""
    return bool(re.match(r"\d+\s*/\s*\d", sentence[pos:])) or bool(re.search(r"\d\s*/\s*$", sentence[:pos]))


@lru_cache(maxsize=1)
def known_commands() -> frozenset[str]:
    """Every command, flag, variable and file the game's own text names (the knowledge file)."""
    found: set[str] = set()
    for entry in load_knowledge():
        for m in _COMMAND.finditer(entry.text):
            found.add(next(g for g in m.groups() if g).lower())
    return frozenset(found)


def _same(a: Value, b: Value) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(float(a) - float(b)) < 1e-6
    return str(a).lower() == str(b).lower()


def judge(claim: Claim, base: FactBase) -> str:
    """ "" when ``claim`` is true in the game's data and live state, else the reason it is not."""
    if claim.subject == "command":
        if str(claim.value).lower() in known_commands():
            return ""
        return f"{claim.value!r} is not a command, flag or file of the game"
    if claim.attribute == "key":
        return "" if base.key(str(claim.value)) is not None else f"there is no {claim.value} key"
    if not claim.subject:
        return ""  # a number bound to nothing: only the grounded answer can say whether it belongs
    thing = base.by_key.get(claim.subject)
    if thing is None:
        return f"there is no {claim.subject}"
    if claim.attribute == "named":
        return ""
    if claim.attribute == "is_a":
        return is_a(thing, str(claim.value), _said(thing))
    if claim.attribute == "affords":
        coins = thing.attrs.get("coins", 0)
        ok = float(claim.value) <= float(coins)
        return (
            ""
            if ok
            else f"those cost {claim.value} together and you have {coins} coins: one of them, not all"
        )
    if claim.attribute == "short":
        coins = thing.attrs.get("coins", 0)
        prices = {int(t.attrs["price"]) for t in base.of_kind("item") if "price" in t.attrs}
        ok = any(_same(claim.value, p - int(coins)) for p in prices)
        return "" if ok else f"no item costs {claim.value} more than your {coins} coins"
    if claim.attribute == "any":
        return ""  # a number with no attribute: only the grounded answer can say whether it belongs
    value = thing.attrs.get(claim.attribute)
    if value is None:
        return f"{_said(thing)} has no {claim.attribute.replace('_', ' ')}"
    if _same(claim.value, value):
        return ""
    return f"{_said(thing)}: {claim.attribute.replace('_', ' ')} is {value}, not {claim.value}"


def _said(thing: Thing) -> str:
    return (
        "you"
        if thing.kind == "player"
        else thing.name
        if thing.name.startswith("the ")
        else f"the {thing.name}"
    )


def _show(value: Value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def false_claims(text: str, base: FactBase) -> list[tuple[Claim, str]]:
    """Every claim in ``text`` that is not true in the data and live state, with its reason."""
    out = []
    for claim in read_claims(text, base):
        why = judge(claim, base)
        if why:
            out.append((claim, why))
    return out


def unsupported(
    claims: Iterable[Claim], grounded: Sequence[Claim], also_named: Iterable[str] = ()
) -> list[tuple[Claim, str]]:
    """The claims no grounded claim states about the same subject: a number, name, key or command the
    grounded answer does not give. ``also_named``: things the question named (a reply may name them)."""
    named = {g.subject for g in grounded} | set(also_named)
    values: dict[str, list[tuple[str, Value]]] = {}
    for g in grounded:
        values.setdefault(g.subject, []).append((g.attribute, g.value))
    loose = [g.value for g in grounded if g.subject == ""]  # numbers the grounded answer binds to nothing
    out = []
    for c in claims:
        if c.attribute in ("is_a", "affords"):
            continue  # what kind of thing it is: true or false by itself (``judge``)
        if c.attribute == "named":
            if c.subject not in named:
                out.append((c, f"names {c.said or c.subject}, which the answer is not about"))
            continue
        if c.subject == "":
            if not any(_same(c.value, v) for v in loose):
                out.append((c, f"says {c.value} ({c.said!r}) and not of what"))
            continue
        stated = values.get(c.subject, [])
        # a number said with no attribute ("the Exploder is a wave of 4") passes only where the grounded
        # answer also says it with none; one said with its attribute must be stated with it (or loosely)
        if any(_same(c.value, v) and (a == c.attribute or a == "any") for a, v in stated):
            continue
        what = {"key": "key", "any": "number", "named": "name"}.get(
            c.attribute, c.attribute.replace("_", " ")
        )
        what = "command" if c.subject == "command" else what
        out.append((c, f"says {c.said or c.value!r}: a {what} the answer does not state about it"))
    return out


def check_reply(
    reply: str, grounded: Sequence[Claim], base: FactBase, also_named: Iterable[str] = ()
) -> list[str]:
    """Why ``reply`` may not be shown (empty: every claim is true and stated by the grounded answer)."""
    claims = read_claims(reply, base)
    reasons = [f"false: {why}" for c in claims if (why := judge(c, base))]
    if not reasons:
        reasons = [f"unstated: {why}" for _c, why in unsupported(claims, grounded, also_named)]
    return reasons
