"""The reader's phrases: where a request says when (trigger), under what condition, where (place) and how
much (a param's value); each returns the slots it found and the span of text it used."""

from __future__ import annotations

import re
from typing import Any

from coreai.lua.recipes.model import Facts
from coreai.lua.recipes.words import FACTOR_WORDS, GENERIC_ENEMY, NUM, UNIT, number, prefab_at, seconds_of


def trigger_of(text: str, facts: Facts) -> tuple[dict[str, Any], tuple[int, int] | None]:
    """Trigger slots found in ``text`` and the span they took."""
    pats: list[tuple[str, Any]] = [
        (rf"\bevery {NUM}(?:th|st|nd|rd)? (?:kill|enemy killed|enemies? (?:killed|die|dies))\b", "nth_kill"),
        (rf"\bevery {NUM} kills\b", "nth_kill"),
        (rf"\b(?:every|each|once every) {NUM} ?{UNIT}", "every"),
        (r"\b(?:every|each|once a|once per|per) (second|minute)\b", "every_unit"),
        (r"\btwice a minute\b", "twice_minute"),
        (rf"\b(?:after|in) {NUM} ?{UNIT}", "after"),
        (rf"\b{NUM} ?{UNIT} (?:after|into|in)\b", "after"),
        (
            r"\b(?:at the )?end of (?:each|every|a|the)? ?waves?\b|\bwhen(?:ever)? (?:a |the |each "
            r"|every )?wave "
            r"(?:ends|is over|is cleared|finishes|is done)\b|\bafter (?:each|every|a) wave\b"
            r"|\bbetween waves\b"
            r"|\bwave (?:ends|is over|clear(?:ed)?)\b",
            "wave_end",
        ),
        (
            r"\b(?:at the )?(?:start|beginning) of (?:each|every|a|the|every new"
            r"|each new)? ?(?:new )?waves?\b"
            r"|\bwhen(?:ever)? (?:a |the |each |every )?(?:new )?wave (?:starts|begins|kicks off)\b"
            r"|\b(?:each|every) (?:new )?wave\b|\bnew wave\b|\bwave starts\b",
            "wave_start",
        ),
        (
            r"\b(?:when(?:ever)?|every time|each time|if|any time|anytime) (?:i|you|the player) "
            r"(?:get|gets|am|are|is|take|takes) (?:hit|hurt|damaged|damage)\b|\bon (?:getting )?hit\b"
            r"|\bwhen(?:ever)? i lose (?:hp|health)\b|\bevery time i'?m hit\b|\btake damage\b",
            "damage",
        ),
        (
            r"\b(?:when(?:ever)?|every time|each time|if|any time|anytime|for (?:each|every)) (?:i |you )?"
            r"(?:kill|killed|slay|destroy)\b|\b(?:dies|die|is killed|are killed|gets killed|get killed)\b"
            r"|\bon (?:each |every )?kill\b|\bper kill\b|\b(?:each|every) kill\b|\bkilling\b"
            r"|\b(?:i|you) (?:kill|killed|slay|slayed)\b|\b(?:i'?ve|i have|you'?ve|you have) (?:killed"
            r"|slain)\b",
            "kill",
        ),
        (r"\b(?:spawns?|appears?|shows? up|arrives?|comes? in|splits?|enters?)\b", "spawn"),
        (
            r"\b(?:at the start of (?:the |each |every )?(?:run|game)|when (?:the )?(?:game|run) starts"
            r"|when i start|right away|immediately|from the start|at once|now)\b",
            "load",
        ),
    ]
    for pat, kind in pats:
        m = re.search(pat, text)
        if m is None:
            continue
        span = (m.start(), m.end())
        if kind == "nth_kill":
            return {"trigger": "kill", "nth": max(1, int(number(m.group(1))))}, span
        if kind == "every":
            return {"trigger": "every", "seconds": seconds_of(m.group(1), m.group(2))}, span
        if kind == "every_unit":
            return {"trigger": "every", "seconds": 60.0 if m.group(1) == "minute" else 1.0}, span
        if kind == "twice_minute":
            return {"trigger": "every", "seconds": 30.0}, span
        if kind == "after":
            return {"trigger": "after", "seconds": seconds_of(m.group(1), m.group(2))}, span
        if kind == "kill":
            slots: dict[str, Any] = {"trigger": "kill"}
            nth = re.search(rf"\bevery {NUM}(?:th|st|nd|rd)\b", text)
            if nth:
                slots["nth"] = max(1, int(number(nth.group(1))))
            lo = max(0, m.start() - 40)
            prefab, at = prefab_at(text[lo : m.end() + 30], facts)
            if (
                prefab is not None
            ):  # "a charger dies", "I kill a tank": the trigger's prefab, not the action's
                slots["filter_prefab"] = prefab
                word = re.match(r"\w+", text[lo + at :])
                end = lo + at + (word.end() if word else 0)
                span = (min(span[0], lo + at), max(span[1], end))
            return slots, span
        if kind == "spawn":
            before = text[max(0, m.start() - 40) : m.start()]
            if not re.search(
                r"\b(when|whenever|every time|each time|if|as soon as|any time|that|which|who)\b", before
            ):
                continue  # "spawn 3 grunts": the action, not a trigger
            prev = re.search(r"(\S+)\s*$", before)
            subject = prev.group(1) if prev else ""
            if not (
                prefab_at(subject, facts)[0] is not None
                or re.fullmatch(GENERIC_ENEMY, subject)
                or subject in ("that", "which", "who", "it", "they", "one", "ones", "new")
            ):
                continue  # "when my HP is low, spawn 3 grunts": the action's verb, with no enemy before it
            slots = {"trigger": "spawn"}
            prefab, _ = prefab_at(before, facts)
            if prefab is not None:
                slots["filter_prefab"] = prefab
            if "split" in m.group(0):  # a splitter's children are splitlings, spawned with the cause "split"
                slots["filter_cause"] = "split"
                slots.pop("filter_prefab", None)
            elif re.search(r"\bdirector\b", text):
                slots["filter_cause"] = "bank"
            start = m.start()
            if prefab is not None:  # "a tank appears": the prefab is the trigger's, not the action's
                word = re.search(rf"\b\w*{prefab[:4]}\w*\b", before)
                start = max(0, m.start() - 40) + word.start() if word else start
            return slots, (start, span[1])
        return {"trigger": kind}, span
    return {}, None


_FRACTIONS = {"half": 0.5, "a half": 0.5, "a third": 0.33, "third": 0.33, "a quarter": 0.25, "quarter": 0.25}


def _hp_amount(s: str) -> float | None:
    s = s.strip()
    if s in _FRACTIONS:
        return _FRACTIONS[s]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(%|percent)?", s)
    if m is None:
        return None
    v = float(m.group(1))
    return v / 100.0 if m.group(2) or v > 1 else v


def condition_of(text: str) -> tuple[dict[str, Any], tuple[int, int] | None]:
    hp_words = r"(?:health|hp|life|hit points)"
    amount = r"(half|a half|a third|third|a quarter|quarter|\d+(?:\.\d+)?\s*(?:%|percent)?)"
    below = (
        r"(?:under|below|less than|lower than|beneath|at or below|drops? below|falls? below|goes below"
        r"|drops? under)"
    )
    above = r"(?:over|above|more than|higher than|at least)"
    pats: list[tuple[str, str]] = [
        (rf"\b{below} {amount}(?: (?:of )?(?:my |max |the player'?s? )?{hp_words})?", "hp_below"),
        (rf"\b{hp_words} (?:is |gets |goes |drops |falls )?{below} {amount}", "hp_below"),
        (rf"\b{above} {amount}(?: (?:of )?(?:my |max )?{hp_words})", "hp_above"),
        (rf"\b{hp_words} (?:is )?{above} {amount}", "hp_above"),
        (r"\b(?:at|on) full (?:health|hp)\b|\bfully healed\b", "hp_full"),
        (
            r"\b(?:low|critical) (?:health|hp)\b|\b(?:health|hp) is (?:very |really )?(?:low|critical)\b"
            r"|\b(?:almost|nearly) dead\b|\bhurt badly\b",
            "hp_low",
        ),
        (rf"\b(?:more than|over|at least|above) {NUM} {GENERIC_ENEMY}", "enemies_above"),
        (rf"\b(?:fewer than|less than|under|below) {NUM} {GENERIC_ENEMY}", "enemies_below"),
        (
            r"\bno (?:more )?"
            + GENERIC_ENEMY
            + r" (?:are )?(?:left|alive)\b|\b(?:arena|screen) is (?:empty|clear)\b"
            r"|\ball " + GENERIC_ENEMY + r" are dead\b",
            "enemies_none",
        ),
        (
            rf"\b(?:from|after|past|beyond|starting (?:at|from|with)) wave {NUM}\b"
            rf"|\bwave {NUM} (?:or later|and "
            rf"(?:up|later|beyond|above)|onwards?|\+)",
            "wave_at_least",
        ),
    ]
    for pat, kind in pats:
        m = re.search(pat, text)
        if m is None:
            continue
        span = (m.start(), m.end())
        if kind in ("hp_below", "hp_above"):
            v = _hp_amount(m.group(1))
            if v is None:
                continue
            return {"condition": kind, "threshold": min(max(v, 0.05), 0.95)}, span
        if kind == "hp_full":
            return {"condition": "hp_above", "threshold": 0.95}, span
        if kind == "hp_low":
            return {"condition": "hp_below", "threshold": 0.3}, span
        if kind == "enemies_none":
            return {"condition": "enemies_below", "threshold": 1.0}, span
        if kind == "wave_at_least":
            n = next(g for g in m.groups() if g)
            after = m.group(0).startswith(("after", "past", "beyond"))
            return {"condition": kind, "threshold": number(n) + (1 if after else 0)}, span
        return {"condition": kind, "threshold": number(m.group(1))}, span
    return {}, None


def cut(text: str, span: tuple[int, int] | None) -> str:
    return text if span is None else text[: span[0]] + " " + text[span[1] :]


def place_of(text: str) -> str | None:
    pats = [
        (
            r"\b(where (?:it|they|the \w+) (?:died|dies|die|fell|spawned|appeared)|in (?:its|their) place"
            r"|at (?:its|"
            r"their|the) (?:spot|body|corpse|position))\b",
            "event",
        ),
        (
            r"\b(next to|near|around|close to|beside|by|on top of|at) (me|the player|my (?:ship|position)"
            r"|you)\b"
            r"|\bnearby\b",
            "near_player",
        ),
        (r"\b(edges?|walls?|sides?|corners?|borders?|outside)\b", "edge"),
        (r"\b(middle|center|centre)\b", "center"),
        (r"\b(random(?:ly)?|anywhere|somewhere|all over)\b", "random"),
    ]
    for pat, place in pats:
        if re.search(pat, text):
            return place
    return None


def param_value(text: str, param: str, facts: Facts) -> float | None:
    fact = facts.param_by_name[param]
    m = re.search(r"\bto (\d+(?:\.\d+)?)\s*(x|%|percent)?\b", text)
    if m:
        v = float(m.group(1))
        if m.group(2) in ("%", "percent"):
            v = fact.default * v / 100.0
        return v
    m = re.search(r"\b(?:by|x|times) ?(\d+(?:\.\d+)?)\s*(%|percent)?|\b(\d+(?:\.\d+)?)\s*(x|times)\b", text)
    if m:
        if m.group(1) is not None:
            v = float(m.group(1))
            if m.group(2):
                down = re.search(r"\b(reduce|lower|decrease|less|cut|slower|weaker)\b", text)
                return fact.default * (1 - v / 100.0 if down else 1 + v / 100.0)
            return fact.default * v
        return fact.default * float(m.group(3))
    if re.search(r"\b(zero|no|none|off|disable)\b", text) and fact.minimum == 0.0:
        return 0.0
    for pat, factor in FACTOR_WORDS:
        if re.search(pat, text):
            return fact.default * factor
    return None


def clamp_param(v: float, param: str, facts: Facts) -> float:
    fact = facts.param_by_name[param]
    return round(min(max(v, fact.minimum), fact.maximum), 3)
