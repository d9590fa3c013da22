"""The reader's words: numbers and time units, prefab names and their synonyms, param phrases, report and
verb words, and what a mod cannot do (said to the player as the reason). One row each; the reader
(``reader``, ``phrases``) and the Creator's reader use them."""

from __future__ import annotations

import re

from coreai.lua.recipes.model import COUNT, SECONDS, Facts

NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "couple": 2, "pair": 2, "three": 3, "few": 3,
    "some": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "dozen": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "hundred": 100,
}  # fmt: skip
NUM = r"(\d+(?:\.\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
UNIT = r"(seconds?|secs?|s|minutes?|mins?|m)\b"

# What a mod cannot do, by the words a player uses for it: the reason is what the player is told.
OUT_OF_SCOPE: tuple[tuple[str, str], ...] = (
    (r"\b(invincib\w*|invulnerab\w*|god ?mode|immortal|can'?t die|never die|infinite (hp|health|lives?))\b",
     "nothing can make you invincible: the Mod API has no way to set your HP (the closest is "
     "enemy_damage_mult, down to 0.1)"),
    (r"\b(heal|heals|healing|restore (my )?(hp|health)|refill)\b",
     "the Mod API has no way to set your HP (an upgrade with regen heals, via game.register_upgrade)"),
    (r"\b(ammo|reload|magazine)\b", "the game has no ammo to change"),
    (r"\b(new weapon|weapon|gun|laser|sword|rocket launcher|shotgun)s?\b",
     "weapons cannot be added or changed: the Mod API spawns enemies, sets params, reports and stores"),
    (r"\b(colou?rs?|background|sprites?|textures?|graphics|shaders?|font|music|sounds?|volume|song|glow\w*|"
     r"purple|pink|invisible|transparent|size|bigger|larger|tiny|giant|sparkl\w*|particles?|skins?|hats?)\b",
     "graphics and sound are out of reach: the Mod API covers spawns, params, events, reports and storage"),
    (r"\b(files?|disk|internet|web|websites?|browser|http|url|download|upload|email|discord|os\.|shell"
        r"|python)\b",
     "mods and agents run in a sandbox with no files, network or system access"),
    (r"\b(teleport|move me|move the player|jump|fly)\b", "nothing in the Mod API moves the player"),
    (r"\b(coins?|gold|money|shop|merchant|prices?|buy)\b", "coins and the shop are out of a mod's reach"),
    (r"\b(slow[ -]?mo\w*|slow motion|time scale|pause the game|freeze time|speed up time)\b",
     "the flow of time is out of a mod's reach"),
    (r"\b(new enemy type|custom enemy|new enemy|enemy type|new prefab)\b",
     "new enemy types cannot be added: spawns must name a prefab on the whitelist"),
)  # fmt: skip

_PREFAB_SYNONYMS = {
    "slime": "grunt", "slimes": "grunt", "fly": "runner", "flies": "runner", "bee": "spitter",
    "bees": "spitter", "shooter": "spitter", "shooters": "spitter", "ladybug": "charger",
    "ladybugs": "charger", "bomber": "exploder", "bombers": "exploder", "kamikaze": "exploder",
    "bosses": "boss", "shields": "shielder",
}  # fmt: skip
GENERIC_ENEMY = r"(enem(?:y|ies)|monsters?|mobs?|baddies|baddy|bad guys?|foes?|creatures?|critters?)"
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
    (r"\b(enemy|enemies'?|enemies) (?:\w+ )?(speed|move speed)\b"
     r"|\benemies (?:[\w%]+ ){0,2}(faster|slower|quicker)\b|\b(faster|slower|quicker) enemies\b",
     "enemy_speed_mult"),
    (r"\b(enemy|enemies'?) (?:\w+ )?damage\b|\benemies hit (harder|softer|less)\b|\bdamage (i|you) take\b"
     r"|\bdamage taken\b", "enemy_damage_mult"),
    (r"\bspawn ?rate\b|\bspawning\b|\bspawn (speed|frequency)\b", "spawn_rate_mult"),
    (r"\b(pickups?|drops?|health drops?|drop rate|loot)\b", "pickup_rate_mult"),
    (r"\b(my|player'?s?|bullet|shot|weapon) damage\b|\bdamage (i|you) (deal|do)\b|\b(i|you) (deal|do) "
     r"(more|less|double|twice|half)( the)? damage\b|\bstronger (shots|bullets)\b"
     r"|\b(double|triple|twice the|extra|bonus|more|half) damage\b", "player_damage_mult"),
    (r"\b(my|player'?s?|move|movement|walk|running) speed\b|\b(i|me) (move|run|go) (faster|slower)\b"
     r"|\bmake me (faster|slower|quicker)\b", "player_speed_mult"),
)  # fmt: skip

FACTOR_WORDS: tuple[tuple[str, float], ...] = (
    (r"\b(double[sd]?|twice|2x|x2|two times)\b", 2.0),
    (r"\b(triple[sd]?|thrice|3x|x3|three times)\b", 3.0),
    (r"\b(quadruple[sd]?|4x|x4|four times)\b", 4.0),
    (r"\b(halve[sd]?|half|0\.5x|x0\.5)\b", 0.5),
    (r"\b(boost|increase|raise|more|higher|faster|stronger|bigger|buff|up)\b", 1.5),
    (r"\b(reduce|lower|decrease|less|slower|weaker|smaller|nerf|cut|down)\b", 0.67),
)

REPORT_WHAT: tuple[tuple[str, str], ...] = (
    (r"\b(hp|health|hit points|life)\b", "player_hp"),
    (r"\b(how many|number of|count of|amount of)( the)? " + GENERIC_ENEMY + r"|" + GENERIC_ENEMY
     + r" (alive|left|remaining|on (the )?screen|in the arena)\b|\benemy count\b", "enemies_alive"),
    (r"\bwave( number)?\b", "wave"),
    (r"\bscore\b|\bpoints\b", "score"),
    (r"\bkills?( count)?\b|\bkill count\b|\bhow many (i'?ve|i have) killed\b", "kills"),
    (r"\b(time|clock|how long)\b", "time"),
)  # fmt: skip
REPORT_VERB = (
    r"\b(report|print|show|display|tell me|log|announce|say|post|write|flash|warn me"
    r"|alert me|notify me)\b"
)
SPAWN_VERB = (
    r"\b(spawn|spawns|spawning|summon|send|sends|drop in|add|adds|create|bring|bring in|throw in|unleash|"
    r"release|place|put|give me|drop)\b"
)
DESTROY_VERB = (
    r"\b(remove|removes|destroy|destroys|delete|despawn|get rid of|clear|clear out|wipe|ban"
    r"|block|no more|kill all|kill every|kill off|nuke)\b"
)


def number(word: str) -> float:
    return float(word) if word[0].isdigit() else float(NUMBER_WORDS[word])


def seconds_of(n: str, unit: str) -> float:
    s = number(n) * (60.0 if unit.startswith("m") else 1.0)
    return min(max(s, SECONDS[0]), SECONDS[1])


def prefab_at(text: str, facts: Facts) -> tuple[str | None, int]:
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


def unknown_creature(text: str, facts: Facts) -> str | None:
    m = re.search(_CREATURE_NOUNS, text)
    if m is None:
        return None
    return f"'{m.group(1)}' is not an enemy this game has (the prefab whitelist: {', '.join(facts.prefabs)})"


_PHRASE_END = frozenset(  # words that end the noun phrase after a spawn verb
    {
        "every",
        "each",
        "near",
        "next",
        "at",
        "in",
        "on",
        "when",
        "whenever",
        "where",
        "to",
        "from",
        "around",
        "by",
        "while",
        "if",
        "and",
        "then",
        "after",
        "before",
        "until",
        "far",
        "close",
        "beside",
    }
)
_NOT_NOUNS = frozenset(  # words of that phrase that are not what is spawned
    {
        "a",
        "an",
        "the",
        "some",
        "few",
        "couple",
        "of",
        "more",
        "extra",
        "new",
        "me",
        "them",
        "it",
        "one",
        "ones",
        "something",
        "anything",
        "stuff",
        "swarm",
        "pack",
        "horde",
        "group",
        "bunch",
        "ring",
        "circle",
        "lot",
        "lots",
        "dozen",
        "handful",
        "squad",
        "army",
        "line",
        "row",
        "wall",
        "big",
        "small",
        "huge",
        "angry",
        "fast",
    }
)


def unknown_noun(text: str, facts: Facts) -> str | None:
    """What is spawned is not an enemy the game has ("spawn a unicorn"): the reason, else None. The head of
    the noun phrase after a spawn verb is judged, when no word of that phrase is a prefab or "enemies"."""
    m = re.search(SPAWN_VERB + r"\s+(.*)", text)
    if m is None:
        return unknown_creature(text, facts)
    phrase: list[str] = []
    for w in re.findall(r"[a-z']+|\d+", m.group(2)):
        if w in _PHRASE_END:
            break
        phrase.append(w)
    phrase = phrase[:6]
    known = [w for w in phrase if prefab_at(w, facts)[0] is not None or re.fullmatch(GENERIC_ENEMY, w)]
    heads = [w for w in phrase if w not in _NOT_NOUNS and not w.isdigit() and w not in NUMBER_WORDS]
    if known or not heads or set(phrase) & {"something", "anything", "stuff"}:
        return unknown_creature(text, facts) if not known else None
    return f"'{heads[-1]}' is not an enemy this game has (the prefab whitelist: {', '.join(facts.prefabs)})"


def count_before(text: str, prefab_pos: int) -> int | None:
    """The count just before the prefab word ("3 grunts", "a couple of tanks", "five runners")."""
    before = text[:prefab_pos].rstrip()
    m = re.search(rf"{NUM}(?: of)?(?: (?:more|extra|new|big|small|angry|fast|elite))?$", before)
    if m is None:
        return None
    return int(min(max(number(m.group(1)), COUNT[0]), COUNT[1]))


# what makes a param phrase a request to change it ("double the score"), not to show it ("show my score")
CHANGE_CUE = (
    r"\b(doubles?|doubled|twice|triples?|tripled|thrice|quadruple|halves?|halved|half|set|sets|make|makes|increase"
    r"|boost|raise|reduce|lower|decrease|multiply|multiplier|mult|times|faster|slower|quicker|more|less|higher"
    r"|bigger|stronger|weaker|tougher|give me|buff|nerf|cut|zero|disable|turn off|off)\b|\d+ ?(%|percent|x)\b"
    r"|\bx ?\d|\bto \d"
)
