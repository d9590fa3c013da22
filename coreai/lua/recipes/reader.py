"""The rules reader: plain phrasings of a mod request read into recipe slots, with no model.

The reader knows the game's words (prefab names and plurals, param phrases, event phrases, numbers and time
units, places) and fills what it finds. ``read(text, facts)`` returns a ``Reading``: a complete recipe, or
the slots it found and the ones still ``missing`` (the model fills those through a schema), or ``cant`` with
the reason a mod cannot do what was asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from coreai.lua.recipes.catalogue import problems
from coreai.lua.recipes.model import COUNT, SECONDS, Facts, Recipe, Rule

NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "couple": 2, "pair": 2, "three": 3, "few": 3,
    "some": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "dozen": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "hundred": 100,
}  # fmt: skip
_NUM = r"(\d+(?:\.\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
_UNIT = r"(seconds?|secs?|s|minutes?|mins?|m)\b"

# What a mod cannot do, by the words a player uses for it: the reason is what the player is told.
OUT_OF_SCOPE: tuple[tuple[str, str], ...] = (
    (r"\b(invincib\w*|invulnerab\w*|god ?mode|immortal|can'?t die|never die|infinite (hp|health|lives?))\b",
     "a mod cannot make you invincible: the Mod API has no way to set your HP (the closest is "
     "enemy_damage_mult, down to 0.1)"),
    (r"\b(heal|heals|healing|restore (my )?(hp|health)|refill)\b",
     "a mod cannot heal you directly: the Mod API has no way to set your HP (an upgrade with regen can, "
     "via game.register_upgrade)"),
    (r"\b(ammo|reload|magazine)\b", "the game has no ammo to change"),
    (r"\b(new weapon|weapon|gun|laser|sword|rocket launcher|shotgun)s?\b",
     "a mod cannot add or change weapons: the Mod API spawns enemies, sets params and reports"),
    (r"\b(colou?rs?|background|sprites?|textures?|graphics|shaders?|font|music|sounds?|volume|song|glow\w*|"
     r"purple|pink|invisible|transparent|size|bigger|larger|tiny|giant|sparkl\w*|particles?|skins?|hats?)\b",
     "a mod has no access to graphics or sound: the Mod API covers spawns, params, events, reports and "
     "storage"),
    (r"\b(files?|disk|internet|web|websites?|browser|http|url|download|upload|email|discord|os\.|shell"
        r"|python)\b",
     "a mod runs in a sandbox with no files, network or system access"),
    (r"\b(teleport|move me|move the player|jump|fly)\b", "a mod cannot move the player"),
    (r"\b(coins?|gold|money|shop|merchant|prices?|buy)\b", "a mod cannot change coins or the shop"),
    (r"\b(slow[ -]?mo\w*|slow motion|time scale|pause the game|freeze time|speed up time)\b",
     "a mod cannot change the flow of time"),
    (r"\b(new enemy type|custom enemy|new enemy|enemy type|new prefab)\b",
     "a mod cannot add enemy types: spawns must name a prefab on the whitelist"),
)  # fmt: skip

_PREFAB_SYNONYMS = {
    "slime": "grunt", "slimes": "grunt", "fly": "runner", "flies": "runner", "bee": "spitter",
    "bees": "spitter", "shooter": "spitter", "shooters": "spitter", "ladybug": "charger",
    "ladybugs": "charger", "bomber": "exploder", "bombers": "exploder", "kamikaze": "exploder",
    "bosses": "boss", "shields": "shielder",
}  # fmt: skip
_GENERIC_ENEMY = r"(enem(?:y|ies)|monsters?|mobs?|baddies|baddy|bad guys?|foes?|creatures?|critters?)"
_CREATURE_NOUNS = (
    r"\b(dragons?|zombies?|skeletons?|goblins?|orcs?|aliens?|robots?|ghosts?|spiders?|wolves|wolf|bats?|"
    r"ninjas?|knights?|wizards?|demons?|dinosaurs?|sharks?|chickens?|cows?|cats?|dogs?)\b"
)

# param phrases: (pattern, param); the first match wins, so specific phrases come first
PARAM_PHRASES: tuple[tuple[str, str], ...] = (
    (r"\b(score|points?)( multiplier| mult| gain| rate)?\b", "score_mult"),
    (r"\b(xp|experience|exp)( multiplier| gain| rate)?\b", "xp_mult"),
    (r"\b(max(imum)? (hp|health)|health pool|hp pool)\b", "player_max_hp_mult"),
    (r"\b(enemy|enemies'?|enemies) (?:\w+ )?(hp|health|toughness)\b|\btougher enemies\b|\benemies tougher\b",
     "enemy_hp_mult"),
    (r"\b(enemy|enemies'?|enemies) (?:\w+ )?(speed|move speed)\b|\benemies (move |run )?(faster|slower"
        r"|quicker)\b"
     r"|\b(faster|slower|quicker) enemies\b", "enemy_speed_mult"),
    (r"\b(enemy|enemies'?) (?:\w+ )?damage\b|\benemies hit (harder|softer|less)\b|\bdamage (i|you) take\b"
     r"|\bdamage taken\b", "enemy_damage_mult"),
    (r"\bspawn ?rate\b|\bspawning\b|\bspawn (speed|frequency)\b", "spawn_rate_mult"),
    (r"\b(pickups?|drops?|health drops?|drop rate|loot)\b", "pickup_rate_mult"),
    (r"\b(my|player'?s?|bullet|shot|weapon) damage\b|\bdamage (i|you) (deal|do)\b|\b(i|you) (deal|do) "
     r"(more|less|double|twice|half)( the)? damage\b|\bstronger (shots|bullets)\b", "player_damage_mult"),
    (r"\b(my|player'?s?|move|movement|walk|running) speed\b|\b(i|me) (move|run|go) (faster|slower)\b"
     r"|\bmake me (faster|slower|quicker)\b", "player_speed_mult"),
)  # fmt: skip

_FACTOR_WORDS: tuple[tuple[str, float], ...] = (
    (r"\b(double[sd]?|twice|2x|x2|two times)\b", 2.0),
    (r"\b(triple[sd]?|thrice|3x|x3|three times)\b", 3.0),
    (r"\b(quadruple[sd]?|4x|x4|four times)\b", 4.0),
    (r"\b(halve[sd]?|half|0\.5x|x0\.5)\b", 0.5),
    (r"\b(boost|increase|raise|more|higher|faster|stronger|bigger|buff|up)\b", 1.5),
    (r"\b(reduce|lower|decrease|less|slower|weaker|smaller|nerf|cut|down)\b", 0.67),
)

_REPORT_WHAT: tuple[tuple[str, str], ...] = (
    (r"\b(hp|health|hit points|life)\b", "player_hp"),
    (r"\b(how many|number of|count of|amount of)( the)? " + _GENERIC_ENEMY + r"|" + _GENERIC_ENEMY
     + r" (alive|left|remaining|on (the )?screen|in the arena)\b|\benemy count\b", "enemies_alive"),
    (r"\bwave( number)?\b", "wave"),
    (r"\bscore\b|\bpoints\b", "score"),
    (r"\bkills?( count)?\b|\bkill count\b|\bhow many (i'?ve|i have) killed\b", "kills"),
    (r"\b(time|clock|how long)\b", "time"),
)  # fmt: skip
_REPORT_VERB = (
    r"\b(report|print|show|display|tell me|log|announce|say|post|put|write|flash|warn me"
    r"|alert me|notify me)\b"
)
_SPAWN_VERB = (
    r"\b(spawn|spawns|spawning|summon|send|sends|drop in|add|adds|create|bring|bring in|throw in|unleash|"
    r"release|place|put|give me|drop)\b"
)
_DESTROY_VERB = (
    r"\b(remove|removes|destroy|destroys|delete|despawn|get rid of|clear|clear out|wipe|ban"
    r"|block|no more|kill all|kill every|kill off|nuke)\b"
)


@dataclass
class Reading:
    """What the reader made of a request."""

    recipe: Recipe | None = None
    slots: list[dict[str, Any]] = field(default_factory=list)  # one dict of found slots per rule
    missing: list[list[str]] = field(default_factory=list)  # per rule: slot names still to fill
    cant: str | None = None  # a mod cannot do this, and why
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.recipe is not None


def number(word: str) -> float:
    return float(word) if word[0].isdigit() else float(NUMBER_WORDS[word])


def _seconds(n: str, unit: str) -> float:
    s = number(n) * (60.0 if unit.startswith("m") else 1.0)
    return min(max(s, SECONDS[0]), SECONDS[1])


def _prefab_at(text: str, facts: Facts) -> tuple[str | None, int]:
    """The first prefab named in ``text`` and where; generic words ("enemies") give (None, pos)."""
    best: tuple[int, str | None] = (10**9, None)
    for name in facts.prefabs:
        m = re.search(rf"\b{name}(e?s)?\b", text)
        if m and m.start() < best[0]:
            best = (m.start(), name)
    for word, name in _PREFAB_SYNONYMS.items():
        m = re.search(rf"\b{word}\b", text)
        if m and m.start() < best[0] and name in facts.prefabs:
            best = (m.start(), name)
    return best[1], best[0]


def _unknown_creature(text: str, facts: Facts) -> str | None:
    m = re.search(_CREATURE_NOUNS, text)
    if m is None:
        return None
    return (
        f"'{m.group(1)}' is not an enemy this game has: a mod can spawn only the prefabs on the whitelist "
        f"({', '.join(facts.prefabs)})"
    )


_CLAUSE_SPLIT = re.compile(
    r"\s*(?:[.;!]\s+|,?\s+and also\s+|,?\s+and then\s+|,?\s+then\s+|,?\s+also\s+|,\s+and\s+"
    r"|\s+and\s+(?=(?:every|each|when|whenever|at|on|after|if|while)\b))"
)


def _trigger(text: str, facts: Facts) -> tuple[dict[str, Any], tuple[int, int] | None]:
    """Trigger slots found in ``text`` and the span they took."""
    pats: list[tuple[str, Any]] = [
        (rf"\bevery {_NUM}(?:th|st|nd|rd)? (?:kill|enemy killed|enemies? (?:killed|die|dies))\b", "nth_kill"),
        (rf"\bevery {_NUM} kills\b", "nth_kill"),
        (rf"\b(?:every|each|once every) {_NUM} ?{_UNIT}", "every"),
        (r"\b(?:every|each|once a|once per|per) (second|minute)\b", "every_unit"),
        (r"\btwice a minute\b", "twice_minute"),
        (rf"\b(?:after|in) {_NUM} ?{_UNIT}", "after"),
        (rf"\b{_NUM} ?{_UNIT} (?:after|into|in)\b", "after"),
        (
            r"\b(?:at the )?(?:start|beginning) of (?:each|every|a|the|every new"
            r"|each new)? ?(?:new )?waves?\b"
            r"|\bwhen(?:ever)? (?:a |the |each |every )?(?:new )?wave (?:starts|begins|kicks off)\b"
            r"|\b(?:each|every) (?:new )?wave\b|\bnew wave\b|\bwave starts\b",
            "wave_start",
        ),
        (
            r"\b(?:at the )?end of (?:each|every|a|the)? ?waves?\b|\bwhen(?:ever)? (?:a |the |each "
            r"|every )?wave "
            r"(?:ends|is over|is cleared|finishes|is done)\b|\bafter (?:each|every|a) wave\b"
            r"|\bbetween waves\b"
            r"|\bwave (?:ends|is over|clear(?:ed)?)\b",
            "wave_end",
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
            r"|\b(?:i|you) (?:kill|killed|slay|slayed)\b",
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
            return {"trigger": "every", "seconds": _seconds(m.group(1), m.group(2))}, span
        if kind == "every_unit":
            return {"trigger": "every", "seconds": 60.0 if m.group(1) == "minute" else 1.0}, span
        if kind == "twice_minute":
            return {"trigger": "every", "seconds": 30.0}, span
        if kind == "after":
            return {"trigger": "after", "seconds": _seconds(m.group(1), m.group(2))}, span
        if kind == "kill":
            slots: dict[str, Any] = {"trigger": "kill"}
            nth = re.search(rf"\bevery {_NUM}(?:th|st|nd|rd)\b", text)
            if nth:
                slots["nth"] = max(1, int(number(nth.group(1))))
            around = text[max(0, m.start() - 40) : m.end() + 30]
            prefab, _ = _prefab_at(around, facts)
            if prefab is not None:
                slots["filter_prefab"] = prefab
            return slots, span
        if kind == "spawn":
            before = text[max(0, m.start() - 40) : m.start()]
            if not re.search(
                r"\b(when|whenever|every time|each time|if|as soon as|any time|that|which|who)\b", before
            ):
                continue  # "spawn 3 grunts": the action, not a trigger
            slots = {"trigger": "spawn"}
            prefab, _ = _prefab_at(before, facts)
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


def _condition(text: str) -> tuple[dict[str, Any], tuple[int, int] | None]:
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
        (r"\b(?:low|critical) (?:health|hp)\b|\b(?:almost|nearly) dead\b|\bhurt badly\b", "hp_low"),
        (rf"\b(?:more than|over|at least|above) {_NUM} {_GENERIC_ENEMY}", "enemies_above"),
        (rf"\b(?:fewer than|less than|under|below) {_NUM} {_GENERIC_ENEMY}", "enemies_below"),
        (
            r"\bno (?:more )?"
            + _GENERIC_ENEMY
            + r" (?:are )?(?:left|alive)\b|\b(?:arena|screen) is (?:empty|clear)\b"
            r"|\ball " + _GENERIC_ENEMY + r" are dead\b",
            "enemies_none",
        ),
        (
            rf"\b(?:from|after|past|beyond|starting (?:at|from|with)) wave {_NUM}\b"
            rf"|\bwave {_NUM} (?:or later|and "
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


def _cut(text: str, span: tuple[int, int] | None) -> str:
    return text if span is None else text[: span[0]] + " " + text[span[1] :]


def _count(text: str, prefab_pos: int) -> int | None:
    """The count just before the prefab word ("3 grunts", "a couple of tanks", "five runners")."""
    before = text[:prefab_pos].rstrip()
    m = re.search(rf"{_NUM}(?: of)?(?: (?:more|extra|new|big|small|angry|fast|elite))?$", before)
    if m is None:
        return None
    return int(min(max(number(m.group(1)), COUNT[0]), COUNT[1]))


def _place(text: str) -> str | None:
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


def _param_value(text: str, param: str, facts: Facts) -> float | None:
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
    for pat, factor in _FACTOR_WORDS:
        if re.search(pat, text):
            return fact.default * factor
    return None


def _clamp_param(v: float, param: str, facts: Facts) -> float:
    fact = facts.param_by_name[param]
    return round(min(max(v, fact.minimum), fact.maximum), 3)


def _actions(text: str, facts: Facts) -> tuple[list[dict[str, Any]], str | None]:
    """The actions in one clause (slots per action) or the reason it cannot be done."""
    out: list[dict[str, Any]] = []
    count_words = re.search(
        r"\b(count|keep track of|track|tally|remember how many|how many (?:times )?(?:have i|i'?ve)|total)\b"
        r"|\b(across|over|between|in all|all) (?:my )?runs\b|\b(lifetime|all[- ]time|forever|permanently"
        r"|saved?)\b",
        text,
    )
    best = re.search(r"\b(best|highest|record|personal best|high ?score|top)\b", text)
    if best and re.search(r"\b(wave|score|kills?|points)\b", text):
        found_what = re.search(r"\b(wave|score|kills?|points)\b", text)
        assert found_what is not None
        word = found_what.group(1)
        out.append(
            {
                "action": "best",
                "best": "score"
                if word in ("score", "points")
                else word.rstrip("s") + "s"
                if word.startswith("kill")
                else "wave",
            }
        )
        return out, None
    persist = re.search(
        r"\b(across|over|between|in all|all) (?:my )?runs\b|\b(lifetime|all[- ]time|forever|permanently"
        r"|saved?|"
        r"keep track|tally|remember|total)\b|\bhow many (?:runs|games|times i'?ve played)\b",
        text,
    )
    events = re.search(r"\b(kill|kills|killed|die|dies|died|hit|hits|damage|waves?|runs?|games?)\b", text)
    if count_words and events and (persist or not re.search(_SPAWN_VERB, text)):
        out.append({"action": "count"})
        return out, None
    destroy = re.search(_DESTROY_VERB, text)
    prefab, pos = _prefab_at(text, facts)
    if destroy:
        slots: dict[str, Any] = {"action": "destroy"}
        if prefab is not None:
            slots["prefab"] = prefab
        if re.search(r"\b(all|every|each|no more|any)\b", text):
            slots["count"] = COUNT[1]
        else:
            n = _count(text, pos)
            slots["count"] = n or 1
        out.append(slots)
        text = text[: destroy.start()] + " " + text[destroy.end() :]
        return out, None
    spawn = re.search(_SPAWN_VERB, text)
    param = next((p for pat, p in PARAM_PHRASES if re.search(pat, text) and p in facts.param_by_name), None)
    if param is not None and not (spawn and prefab is not None):
        slots = {"action": "set_param", "param": param}
        v = _param_value(text, param, facts)
        if v is not None:
            slots["value"] = _clamp_param(v, param, facts)
        out.append(slots)
    if spawn or (prefab is not None and param is None and not re.search(_REPORT_VERB, text)):
        generic = re.search(_GENERIC_ENEMY, text)
        if prefab is None and not generic and spawn and (why := _unknown_creature(text, facts)):
            return [], why
        if prefab is not None or generic:
            slots = {"action": "spawn"}
            if prefab is None and generic:
                prefab, pos = "grunt", generic.start()  # "enemies": the basic enemy
            slots["prefab"] = prefab
            n = _count(text, pos)
            if n is not None:
                slots["count"] = n
            place = _place(text)
            if place is not None:
                slots["place"] = place
            out.append(slots)
    if re.search(_REPORT_VERB, text) or re.search(r"\bhow many\b", text):
        quoted = re.search(r"[\"“']([^\"”']{1,80})[\"”']", text)
        what: str | None = next((w for pat, w in _REPORT_WHAT if re.search(pat, text)), None)
        if quoted and (
            what is None or re.search(r"\b(say|message|text|announce|show|display|print)\b", text)
        ):
            out.append({"action": "report", "report": "message", "text": quoted.group(1).strip()})
        elif what is not None:
            out.append({"action": "report", "report": what})
        else:
            out.append({"action": "report"})
    return out, None


def _defaults(slots: dict[str, Any], facts: Facts) -> tuple[dict[str, Any], list[str]]:
    """Fill what a plain request leaves implicit; list the slots nobody could fill."""
    s = dict(slots)
    missing: list[str] = []
    action = s.get("action")
    if action is None:
        return s, ["action"]
    if "trigger" not in s:
        if s.get("condition", "always") != "always":
            s["trigger"] = "when"
        elif action in ("count",):
            s["trigger"] = "load"
        elif action == "best":
            s["trigger"] = {"wave": "wave_start", "kills": "kill"}.get(s.get("best", "wave"), "every")
            if s["trigger"] == "every":
                s["seconds"] = 5.0
        elif action == "report":
            s["trigger"], s["seconds"] = "every", 10.0
        else:
            s["trigger"] = "load"
    if action == "spawn":
        s.setdefault("count", 1)
        if s.get("place") == "event" and s["trigger"] not in ("kill", "spawn"):
            s["place"] = "near_player"
        if "prefab" not in s:
            missing.append("prefab")
    if action == "set_param":
        if "param" not in s:
            missing.append("param")
        elif "value" not in s:
            missing.append("value")
    if action == "report" and "report" not in s:
        missing.append("report")
    if action == "destroy":
        s.setdefault("prefab", s.get("filter_prefab"))
        if s["prefab"] is None:
            missing.append("prefab")
        elif s["trigger"] == "spawn":
            s.setdefault("filter_prefab", s["prefab"])
    return s, missing


def read(text: str, facts: Facts) -> Reading:
    """Read ``text`` into a recipe as far as the game's words allow."""
    low = " " + re.sub(r"\s+", " ", text.lower().replace("’", "'")).strip() + " "
    for pat, reason in OUT_OF_SCOPE:
        if re.search(pat, low):
            return Reading(cant=reason)
    reading = Reading()
    clauses = [c for c in _CLAUSE_SPLIT.split(low) if c and c.strip()]
    shared_trigger: dict[str, Any] = {}
    shared_cond: dict[str, Any] = {}
    found: list[dict[str, Any]] = []
    for clause in clauses:
        cond, span = _condition(clause)
        rest = _cut(clause, span)
        trig, tspan = _trigger(rest, facts)
        rest2 = _cut(rest, tspan) if trig.get("trigger") not in ("kill",) else rest
        if trig.get("trigger") == "kill":
            rest2 = re.sub(
                r"\b(?:when(?:ever)?|every time|each time|if|for (?:each|every)) (?:i |you )?kill\b",
                " ",
                rest2,
            )
        acts, why = _actions(rest2, facts)
        if why is not None:
            return Reading(cant=why)
        if not acts:
            if trig:
                shared_trigger = trig  # "when a wave starts, spawn ..." split oddly: carry it on
            if cond:
                shared_cond = cond
            continue
        trig = trig or shared_trigger
        cond = cond or shared_cond
        shared_trigger, shared_cond = trig, cond
        for a in acts:
            if a["action"] == "destroy" and trig.get("trigger") == "kill" and not trig.get("filter_prefab"):
                pass
            found.append({**trig, **cond, **a})
    if not found:
        why = _unknown_creature(low, facts)
        if why is not None:
            return Reading(cant=why)
        reading.missing = [["action"]]
        reading.slots = [{}]
        reading.notes.append("no action the reader knows")
        return reading
    for slots in found:  # "spawn 8 grunts and report the count": the report says what was spawned
        if slots["action"] == "report" and "report" not in slots:
            spawned = next((f for f in found if f["action"] == "spawn" and f.get("prefab")), None)
            if spawned is not None:
                n = spawned.get("count", 1)
                slots.update(report="spawned", text=f"{spawned['prefab']}{'s' if n != 1 else ''}")
                slots.setdefault("trigger", spawned.get("trigger", "load"))
                for k in ("seconds", "filter_prefab", "filter_cause", "nth", "condition", "threshold"):
                    if k in spawned:
                        slots.setdefault(k, spawned[k])
    rules: list[Rule] = []
    for slots in found[:4]:
        filled, missing = _defaults(slots, facts)
        reading.slots.append(filled)
        reading.missing.append(missing)
        if missing:
            continue
        try:
            rules.append(Rule.model_validate(filled))
        except ValidationError as exc:
            reading.missing[-1] = [str(e["loc"][0]) for e in exc.errors() if e["loc"]]
    if all(not m for m in reading.missing) and rules:
        try:
            recipe = Recipe(request=text.strip()[:500], rules=tuple(rules))
        except ValidationError as exc:
            reading.notes.append(str(exc))
            return reading
        bad = problems(recipe, facts)
        if bad:
            reading.notes += bad
            return reading
        reading.recipe = recipe
    return reading
