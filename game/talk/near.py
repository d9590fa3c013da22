"""What a thing the game lacks is nearest to, by what it is for: "a potion of invisibility" is for getting
away from hits (the dash's brief invulnerability; on the shelf, the Light Boots), not for healing.

A missing thing is read word by word. A word that says what it does ("invisibility", "shield", "rocket")
names a purpose; a word that only says its form ("potion", "scroll", "kit") counts only when no other word
says what it is for (a bare "potion" heals; "a potion of flying" has no purpose the game serves, so nothing
is close by purpose and only a near name can be). Each purpose lists, in order, the tags, behaviour words or
names of what serves it; ``closest`` returns the first thing in the pool that one of them matches.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from game.talk.facts import FactBase, Thing
from game.talk.vocab import TAG_WORDS  # the words a need is asked in ("a speed boost")


@dataclass(frozen=True)
class Purpose:
    serves: tuple[str, ...]  # item tags, words of a thing's behaviour or its name, tried in order
    said: str = ""  # how the answer names the purpose ("to get away from hits"); "" says none


# a purpose by its name -> what serves it and how it is said
PURPOSES: dict[str, Purpose] = {
    "evade": Purpose(("invulnerability", "speed"), "to get away from hits"),
    "armor": Purpose(("max_hp",), "to take more hits"),
    "heal": Purpose(("heal",), "for healing"),
    "speed": Purpose(("speed",), "to move faster"),
    "damage": Purpose(("damage",), "to hit harder"),
    "fire_rate": Purpose(("fire_rate",), "to shoot faster"),
    "pickup": Purpose(("pickup",), "to reach pickups"),
}
_BY_TAG = {"max_hp": "armor"}  # a shelf tag -> its purpose, where the names differ
# a word of a missing thing -> its purpose (a key of PURPOSES) or a behaviour or kind word of what is like it
NEAR: dict[str, str] = {
    "invisibility": "evade", "invisible": "evade", "stealth": "evade", "cloak": "evade", "hide": "evade",
    "hiding": "evade", "vanish": "evade", "camouflage": "evade", "invulnerability": "evade",
    "invincibility": "evade", "immortality": "evade", "teleport": "evade", "teleporter": "evade",
    "blink": "evade", "dodge": "evade", "escape": "evade", "smoke": "evade",
    "shield": "armor", "armor": "armor", "armour": "armor", "helmet": "armor", "defense": "armor",
    "defence": "armor", "protection": "armor", "vest": "armor",
    "bandage": "heal", "food": "heal", "health": "heal", "healing": "heal", "heal": "heal",
    "regeneration": "heal", "life": "heal", "revive": "heal", "medicine": "heal",
    "shoes": "speed", "boot": "speed", "sprint": "speed", "haste": "speed", "swiftness": "speed",
    "ammo": "damage", "bomb": "damage", "grenade": "damage", "sword": "blades", "axe": "blades",
    "strength": "damage",
    "power": "damage", "rage": "damage", "vacuum": "pickup", "luck": "pickup", "reload": "fire_rate",
    "flamethrower": "burning", "flame": "burning", "fire": "burning", "dragon": "burning",
    "rifle": "beam", "sniper": "beam", "laser": "beam", "railgun": "beam", "shotgun": "pellets",
    "lightning": "bolt", "tesla": "bolt", "rocket": "rockets", "bazooka": "rockets", "missile": "rockets",
    "knife": "blades", "blade": "blades", "saw": "blades", "minigun": "hail", "machinegun": "hail",
    "zombie": "runs straight", "ghost": "runs straight", "slime": "runs straight", "archer": "shoots",
    "kamikaze": "explodes", "bomber": "explodes", "knight": "shield", "tank": "tank",
}  # fmt: skip
# words for a thing's form, with the purpose they carry when nothing else in the phrase says one
FORMS: dict[str, str] = {
    "potion": "heal", "elixir": "heal", "flask": "heal", "drink": "heal", "pill": "heal", "tonic": "heal",
    "scroll": "", "ring": "", "amulet": "", "charm": "", "spell": "", "book": "", "kit": "", "gem": "",
    "stone": "", "gear": "", "item": "", "bag": "", "pack": "", "upgrade": "",
}  # fmt: skip


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# words that say nothing of what a thing is for ("a big potion" is still a potion)
BARE = _set(
    "a an the any some of big small large little strong good best cheap extra super magic magical mega "
    "new real more other kind kinds type types sort"
)
# behaviour or kind words that are weapons: the shelf has none, so what makes yours hit harder is nearest
WEAPONISH = frozenset({"burning", "beam", "pellets", "bolt", "rockets", "blades", "hail"})


def _word(w: str) -> str:
    """A word as the tables spell it: "potions" -> "potion", "teleportation" -> "teleport" (its stem)."""
    if w in NEAR or w in FORMS:
        return w
    if w.endswith("s") and w[:-1] in NEAR | FORMS:
        return w[:-1]
    return next((k for k in NEAR if len(k) >= 5 and w.startswith(k)), w)


def purpose_of(what: str) -> str:
    """The purpose or likeness word of ``what`` ("potions of invisibility" -> "evade"), "" if none."""
    words = [_word(w) for w in re.findall(r"[a-z]+", what.lower())]
    for w in words:
        if w in NEAR:
            return NEAR[w]
    for tag, pattern in TAG_WORDS:
        if re.search(pattern, what.lower()):
            return _BY_TAG.get(tag, tag)
    if all(w in FORMS or w in BARE for w in words):
        return next((FORMS[w] for w in words if FORMS.get(w)), "")
    return ""


def _serves(t: Thing, word: str) -> bool:
    return word in str(t.attrs.get("tags", "")).split() or word in t.text.lower() or word == t.name.lower()


def closest(what: str, base: FactBase, kind: str) -> tuple[Thing | None, str]:
    """The thing nearest to ``what`` in the pool for ``kind`` ("item": the shelf; "weapon", "enemy"; else
    any weapon, enemy, item or key), and the purpose as said ("" when found by its name, or not found)."""
    kinds = {"item": ("item",), "weapon": ("weapon",), "enemy": ("enemy",)}.get(
        kind, ("weapon", "enemy", "item", "key")
    )
    pool = [t for t in base.things if t.kind in kinds]
    purpose = purpose_of(what)
    if purpose:
        serves = PURPOSES[purpose].serves if purpose in PURPOSES else (purpose,)
        if kind == "item" and purpose in WEAPONISH:
            serves = PURPOSES["damage"].serves
        for word in serves:
            found = next((t for t in pool if _serves(t, word)), None)
            if found is not None:
                said = PURPOSES[purpose].said if purpose in PURPOSES else ""
                return found, said
    names = {t.name.lower(): t for t in pool if t.kind != "key"}
    close = difflib.get_close_matches(what.lower(), list(names), n=1, cutoff=0.6)
    return (names[close[0]] if close else None), ""
