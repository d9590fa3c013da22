"""The words a player uses for what a question asks: kinds of things, the attribute a comparison or a
superlative is over, a stat asked of one thing. Regular expressions, matched on the lower-cased question."""

from __future__ import annotations

KIND_WORDS = {
    "enemy": r"\b(?:enem(?:y|ies)|monsters?|mobs?|foes?|creatures?|kinds?|bad ?guys?|baddies)\b",
    "weapon": r"\b(?:weapons?|guns?)\b",
    "item": r"\b(?:items?|sell|wares|shelf|shop|buy|goods|for sale)\b",
    "mod": r"\bmods?\b",
    "upgrade": r"\b(?:upgrades?|passives?)\b",
}
# (attribute, +1 the most / -1 the least, the words that ask for it); the first that matches wins
ORDER: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("price", 1, (
        r"most expensive", r"priciest", r"pricier", r"dearest", r"dearer", r"more expensive",
        r"costs? (?:the )?most", r"costs? more", r"highest price",
    )),
    ("price", -1, (
        r"cheapest", r"cheaper", r"least expensive", r"less expensive", r"costs? (?:the )?least",
        r"costs? less", r"lowest price",
    )),
    ("coins", 1, (
        r"pays? (?:the )?most", r"most coins", r"worth the most", r"worth more", r"pays? more",
        r"more coins", r"best bounty", r"richest", r"most (?:money|gold)",
    )),
    ("coins", -1, (
        r"pays? (?:the )?least", r"fewest coins", r"worth the least", r"least coins",
        r"least (?:money|gold)",
    )),
    ("hp", 1, (
        r"toughest", r"tankiest", r"beefiest", r"most (?:hp|health|hit points|life)", r"hardest to kill",
        r"highest (?:hp|health)", r"more (?:hp|health)", r"tougher", r"tankier", r"beefier",
    )),
    ("hp", -1, (
        r"weakest", r"squishiest", r"frailest", r"least (?:hp|health)", r"lowest (?:hp|health)",
        r"easiest to kill", r"less (?:hp|health)", r"weaker", r"squishier", r"fewest hp",
    )),
    ("damage", -1, (
        r"least damage", r"less damage", r"hits? (?:the )?(?:softest|least)", r"hits? softer",
        r"least dangerous", r"less dangerous",
    )),
    ("damage", 1, (
        r"hits? (?:the )?hardest", r"hits? harder", r"most damage", r"more damage", r"highest damage",
        r"deadliest", r"strongest", r"stronger", r"most dangerous", r"more dangerous",
        r"hurts? (?:the )?most", r"hurts? more", r"biggest hit", r"most powerful", r"more powerful",
        r"best (?:weapon|gun)s?\b(?! (?:for|against|vs))",  # best for a crowd is not by damage
    )),
    ("speed", 1, (
        r"fastest", r"quickest", r"faster", r"quicker", r"speediest",
    )),
    ("speed", -1, (
        r"slowest", r"slower",
    )),
    ("first_wave", -1, (
        r"earliest", r"first to (?:show|appear|come|spawn|arrive)",
        r"(?:comes?|appears?|shows? up|turns? up|spawns?|arrives?) first",
        r"earlier", r"sooner",
    )),
    ("first_wave", 1, (
        r"latest", r"last to (?:show|appear|come|spawn)", r"appears? last", r"comes? last", r"later",
    )),
    ("stock", 1, (
        r"most (?:of|stock|left|in stock)", r"biggest stock", r"largest stock",
    )),
)  # fmt: skip
# a stat asked of one named thing: (attribute, the words that ask for it)
LOOKUP: tuple[tuple[str, str], ...] = (
    ("stock", r"\bleft\b|in stock|how many .*(?:have|got|sell)"),
    ("price", r"\bcost|\bprice|how much (?:is|are|for)"),
    ("hp", r"\bhp\b|health|hit points|how tough"),
    ("damage", r"damage|how hard|hits? for|how much does .* hit|how strong"),
    ("first_wave", r"what wave|which wave|when (?:does|do|will)|appear|show up|spawn"),
    ("coins", r"coins? (?:for|per|do|does)|worth|pay|bounty|drop"),
    ("speed", r"\bspeed\b|how fast"),
)
# an attribute by its noun, for "the highest <noun>" / "the lowest <noun>" when no word above says it
ATTR_NOUNS: tuple[tuple[str, str], ...] = (
    ("hp", r"hp|health|hit points|life"),
    ("damage", r"damage|dmg|dps|attack|power"),
    ("speed", r"speed"),
    ("price", r"price|cost"),
    ("coins", r"coins?|bounty|reward|gold|money|payout"),
    ("stock", r"stock"),
)
MOST_WORDS = r"most|highest|biggest|largest|greatest|top|best"  # over a kind: "the highest damage"
LEAST_WORDS = r"least|lowest|smallest|fewest|worst"
MORE_WORDS = r"more|higher|bigger|larger|greater|better"  # between the things named: "more health than"
LESS_WORDS = r"less|lower|smaller|fewer|worse"


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# what a sentence may say a thing is ("the Exploder is an enemy"): a word for each kind of thing
KIND_NOUNS: dict[str, frozenset[str]] = {
    "enemy": _set("enemy enemies foe foes monster monsters mob mobs creature creatures baddie"),
    "item": _set("item items ware wares upgrade upgrades"),
    "weapon": _set("weapon weapons gun guns"),
    "upgrade": _set("upgrade upgrades passive passives"),
    "mod": _set("mod mods"),
    "key": _set("key keys button buttons"),
}
BOSS_NOUNS = frozenset({"boss", "bosses"})  # only the Elite Boss is one
# what no thing ever is: a sentence that says a thing is one of these is garbled ("the Exploder is a wave")
ATTRIBUTE_NOUNS = _set(
    "wave waves coin coins damage hp health price speed stock slot slots level number percent"
)

# a need the Merchant's wares serve -> the words that ask for it (checked in this order; the first match
# wins): read for the shelf's intent (``game.talk.shelf``), a missing thing's purpose (``game.talk.near``) and
# absence (``game.talk.query``)
TAG_WORDS: tuple[tuple[str, str], ...] = (
    (
        "max_hp",
        r"max(?:imum)? ?(?:hp|health|life)|(?:more|bigger|larger|longer) (?:max )?(?:hp|health|life)"
        r"|health bar|tougher|tanky|vitality|survive longer",
    ),
    (
        "fire_rate",
        r"fire ?rate|shoot faster|fire faster|rapid|rate of fire|attack speed|more shots|shoot more",
    ),
    ("pickup", r"pick ?up|magnet|collect|reach (?:coins|xp|gems)|grab|loot range|range for (?:coins|xp)"),
    ("damage", r"kill\w* (?:\w+ )?(?:faster|quicker|sooner)|(?:faster|quicker) kills"),
    ("speed", r"speed|faster|quick|move|run away|boots|outrun|dodge|kite|catch|escape|get away|keep up"),
    (
        "damage",
        r"damage|hit harder|stronger|more power|kill faster|harder hitting|dps|bullets? (?:stronger|hurt)",
    ),
    (
        "heal",
        r"heal|health|\bhp\b|hurt|wound|patch|medic|medkit|dying|\bdie\b|\bdead\b|bleeding|life"
        r"|low on|survive",
    ),
)
