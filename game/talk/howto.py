"""The game's general rules as grounded answers: evolution, coins, waves, the boss, the director's modes,
healing, and how to fight each enemy kind (from its behaviour and its numbers in the prefab data).

``rule_answer(question, base)`` returns a ``Said`` or None. Every number comes from the data through a claim
(``said.stat``); the advice for a kind follows from what its behaviour does in ``game.sim.enemy_kinds``.
"""

from __future__ import annotations

import re

from game.talk.claims import Claim
from game.talk.facts import FactBase, Thing
from game.talk.said import Said, coins, n, named, stat, the

# how to fight each behaviour: (what it does, what to do); {name} and attribute names fill in from the data
FIGHT = {
    "chase": (
        "{the} runs straight at you and hits for {damage} on contact ({hp} HP)",
        "keep moving, let it follow you and shoot it on the way; dash out if a crowd closes in",
    ),
    "ranged": (
        "{the} keeps its distance and shoots at you every {fire_interval} s ({hp} HP, hits for {damage})",
        "close in on it, dash through its shots and kill it first",
    ),
    "charger": (
        "{the} stops and winds up before it charges in a straight line at where you stood "
        "({hp} HP, hits for {damage})",
        "when it stops to wind up, step or dash sideways, then shoot it while it recovers",
    ),
    "exploder": (
        "{the} rushes in, lights a fuse when it is close and explodes for {damage} ({hp} HP)",
        "shoot it before it reaches you, and back away the moment it lights its fuse",
    ),
    "splitter": (
        "{the} splits into {split_count} smaller enemies when it dies ({hp} HP, hits for {damage})",
        "kill it from a distance, then shoot the small ones as they come",
    ),
    "shielded": (
        "{the}'s shield faces you and stops your bullets from the front ({hp} HP, hits for {damage})",
        "go around it (circle or dash past) and shoot its side or back, or use Orbit Blades, the Piercing "
        "Lance or Chain Lightning, which the shield does not stop",
    ),
    "boss": (
        "{the} comes every {boss_every}th wave, first in wave {first_wave}, and shoots volleys and bursts "
        "({hp} HP, hits for {damage})",
        "keep moving in wide circles, dash through its volleys and keep shooting",
    ),
}
FIGHT_WORDS = re.compile(
    r"\b(?:fight\w*|beat\w*|kill\w*|deal\w* with|handl\w*|counter\w*|defeat\w*|surviv\w*|avoid\w*|dodg\w*"
    r"|stop\w*|tips?|tricks?|advice|strateg\w*|approach\w*|take down|get past|get around|go around|against"
    r"|what do i do|how do i|how to|help|overwhelm\w*|struggl\w*|trouble|keeps? \w+ing me)\b",
    re.I,
)
TOPICS: tuple[tuple[str, str], ...] = (
    ("modes", r"director.{0,30}\b(?:mode|modes|switch|change|off|disable|turn)|(?:mode|modes|switch|change|"
              r"disable|turn off)\b.{0,30}director|\bf6\b|static mode|rules mode"),
    ("evolve", r"\bevol"),
    ("coins", r"(?:earn|get|make|find|collect)\w* (?:more )?(?:coins|money|gold)|coins? (?:come|work|from)|"
              r"how do coins|bount"),
    ("boss", r"\bboss"),
    ("waves", r"\bwaves?\b.{0,30}(?:work|long|last|how many|often|end|between)"
              r"|how (?:long|do) (?:is|are|do)? ?(?:a |the )?waves?"),
    ("heal", r"\bheal|(?:regain|restore|recover|refill|get back) (?:my |your |some )?(?:hp|health|life)"
             r"|get (?:my |your |some )?(?:hp|health) back|low on (?:hp|health)"),
)  # fmt: skip


def _fill(template: str, t: Thing, game: Thing) -> tuple[str, list[Claim]]:
    claims: list[Claim] = []

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "the":
            return the(t)
        owner = game if key == "boss_every" else t
        claims.append(stat(owner, key))
        return n(owner.attrs[key])

    return re.sub(r"\{(\w+)\}", sub, template), claims


def fight(t: Thing, base: FactBase) -> Said:
    """How to fight one enemy kind: what its behaviour does, with its numbers, then what to do."""
    does, todo = FIGHT.get(str(t.attrs.get("behaviour")), FIGHT["chase"])
    text, claims = _fill(does, t, base.by_key["rule:game"])
    if t.attrs.get("recoil"):  # a prefab field: any kind may have it, and a modded boss may not
        text += ", and each time it touches you it bounces back before it comes again"
    out = Said(f"fight:{t.key}").say(f"{text}.", named(t), *claims).say(f"{todo[0].upper()}{todo[1:]}.")
    return out.must(t.name, *_fight_facts(t))


def _fight_facts(t: Thing) -> tuple[str, ...]:
    """What a right answer about fighting a kind names: the gist of its behaviour."""
    return {
        "charger": ("wind|charge",),
        "shielded": ("shield",),
        "exploder": ("explode|fuse",),
        "ranged": ("distance|shoot",),
        "splitter": ("split",),
        "boss": ("volley|burst|dash",),
    }.get(str(t.attrs.get("behaviour")), ("moving|move",))


def _modes(base: FactBase) -> Said:
    f6, f10 = base.key("F6"), base.key("F10")
    claims = [Claim(k.key, "key", k.name, k.name) for k in (f6, f10) if k is not None]
    return (
        Said("rule:modes")
        .say(
            "Press F6 to switch the director's mode: static (the director off), rules (the default) and then "
            "each model backend, in turn; F10 shows the director's panel.",
            *claims,
        )
        .must("F6", "static|rules")
    )


def _evolve(base: FactBase) -> Said:
    weapons = [t for t in base.of_kind("weapon") if "evolves_into" in t.attrs]
    out = Said("rule:evolve")
    first = weapons[0]
    out.say(
        f"A weapon evolves when it reaches its max level ({n(first.attrs['max_level'])}) and you hold at "
        "least one stack of its passive upgrade.",
        stat(first, "max_level"),
    )
    pairs = [
        f"{the(w)} with {w.attrs['evolves_with']} becomes {w.attrs['evolves_into']}" for w in weapons[:2]
    ]
    out.say(
        f"For example {pairs[0]}, and {pairs[1]}.",
        *(c for w in weapons[:2] for c in (named(w), stat(w, "evolves_with"), stat(w, "evolves_into"))),
    )
    return out.must("max level", "passive|upgrade")


def _coins(base: FactBase) -> Said:
    grunt, tank, boss = (base.by_key[f"enemy:{k}"] for k in ("grunt", "tank", "boss"))
    game = base.by_key["rule:game"]
    return (
        Said("rule:coins")
        .say(
            f"Every kill pays coins: the Grunt is worth {coins(grunt.attrs['coins'])}, the Tank "
            f"{coins(tank.attrs['coins'])}, the Elite Boss {coins(boss.attrs['coins'])}, and an elite "
            f"{n(game.attrs['elite_mult'])} times its kind.",
            stat(grunt, "coins"), stat(tank, "coins"), stat(boss, "coins"), stat(game, "elite_mult"),
        )
        .say("Spend them at the Merchant's shop between waves.")
        .must("kill", "Merchant|shop")
    )  # fmt: skip


def _boss(base: FactBase) -> Said:
    boss, game = base.by_key["enemy:boss"], base.by_key["rule:game"]
    return fight(boss, base).must(str(game.attrs["boss_every"]))


def _waves(base: FactBase) -> Said:
    game = base.by_key["rule:game"]
    a = game.attrs
    return (
        Said("rule:waves")
        .say(
            f"Wave 1 lasts {n(a['wave_seconds'])} s and each wave after it {n(a['wave_growth'])} s longer, "
            f"up to {n(a['wave_max'])} s; every {n(a['boss_every'])}th wave brings the Elite Boss.",
            stat(game, "wave_seconds"), stat(game, "wave_growth"), stat(game, "wave_max"),
            stat(game, "boss_every"), named(base.by_key["enemy:boss"]),
        )
        .say(
            f"Between waves you pick 1 of {n(a['choices'])} upgrades and can shop at the Merchant.",
            stat(game, "choices"),
        )
        .must(n(a["wave_seconds"]), "upgrade")
    )  # fmt: skip


def _heal(base: FactBase) -> Said:
    medkit = base.by_key.get("item:medkit")
    regen = base.by_key.get("upgrade:regen")
    out = Said("rule:heal").say("Kills sometimes drop health packs that heal you.")
    if medkit is not None:
        out.say(
            f"The Medkit at the Merchant's shop heals {n(medkit.attrs['amount'])} HP for "
            f"{coins(medkit.attrs['price'])}.",
            named(medkit), stat(medkit, "amount"), stat(medkit, "price"),
        )  # fmt: skip
        out.must("Medkit")
    if regen is not None:
        out.say(f"The {regen.name} upgrade heals you over time.", named(regen))
    return out.must("health pack|Medkit")


RULES = {"modes": _modes, "evolve": _evolve, "coins": _coins, "boss": _boss, "waves": _waves, "heal": _heal}


def rule_answer(
    question: str, base: FactBase, mentions: list[Thing], skip: tuple[str, ...] = ()
) -> Said | None:
    """The answer to a question about how the game works, or None (``skip``: topics another answers)."""
    q = question.lower()
    enemies = [t for t in mentions if t.kind == "enemy"]
    weapons = [t for t in mentions if t.kind == "weapon"]
    if enemies and FIGHT_WORDS.search(q) and not re.search(r"\bhow (?:much|many)\b|\bwhat wave\b", q):
        return fight(enemies[0], base)
    for topic, pattern in TOPICS:
        if topic in skip or not re.search(pattern, q):
            continue
        if topic == "evolve" and weapons:
            return None  # one weapon's evolution: its knowledge entry says it
        if topic == "heal" and re.search(r"\b(?:buy|sell|shop|merchant)\b", q):
            continue
        return RULES[topic](base)
    if len(set(enemies)) == 1:  # an enemy named and no stat asked: what it does and how to fight it
        return fight(enemies[0], base)
    return None
