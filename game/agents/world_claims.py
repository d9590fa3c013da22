"""The Creator's answers about the world: facts read from the live state, answers built from them, and a claim
check that every number and enemy name an answer states is true of the state it was read from.

(The talk work's claim checker, ``game.talk``, does the same for the Chat and the Merchant; this is the small
reader the Creator needs for the world's numbers, and could later share that one.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from coreai.lua.recipes.words import prefab_at
from game.agents.facts import game_facts

NEAREST_LIMIT = 500  # enemies listed for "nearest" and for move / destroy targets


@dataclass(frozen=True)
class WorldFacts:
    """What the Creator knows of the world at one moment (from ``game_state()`` and the enemy list)."""

    state: dict[str, Any]
    enemies: tuple[dict[str, Any], ...] = ()  # nearest first
    numbers: frozenset[float] = frozenset()

    @staticmethod
    def of(state: dict[str, Any], enemies: list[dict[str, Any]]) -> WorldFacts:
        nums: set[float] = set()
        p = state.get("player", {})
        for v in (state.get("enemies_alive"), state.get("wave"), state.get("score"), state.get("kills"),
                  state.get("deaths"), p.get("level"), p.get("xp"), round(p.get("hp", 0)),
                  round(p.get("max_hp", 0)), round(state.get("wave_time_left", 0)),
                  round(state.get("time", 0)),
                  int(state.get("time", 0)) // 60, int(state.get("time", 0)) % 60):  # fmt: skip
            if v is not None:
                nums.add(float(v))
        nums.update(float(c) for c in state.get("enemies_by_prefab", {}).values())
        nums.update(float(v) for v in state.get("params", {}).values())
        nums.update(float(v) for v in state.get("weapons", {}).values())
        nums.update(float(v) for v in state.get("upgrades", {}).values())
        if enemies:
            nums.add(float(round(enemies[0]["distance"])))
        return WorldFacts(state, tuple(enemies), frozenset(nums))

    def count(self, prefab: str | None) -> int:
        if prefab is None:
            return int(self.state.get("enemies_alive", 0))
        return int(self.state.get("enemies_by_prefab", {}).get(prefab, 0))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("s") else f"{n} {word}s"


def _mix(by_prefab: dict[str, int]) -> str:
    parts = [_plural(n, p) for p, n in sorted(by_prefab.items(), key=lambda kv: -kv[1]) if n]
    return ", ".join(parts)


_PARAM_WORDS = (
    (r"score", "score_mult"), (r"\bxp|experience", "xp_mult"), (r"spawn", "spawn_rate_mult"),
    (r"enemy (?:\w+ )?(?:hp|health)", "enemy_hp_mult"), (r"enemy (?:\w+ )?speed", "enemy_speed_mult"),
    (r"enemy (?:\w+ )?damage", "enemy_damage_mult"), (r"pickup|drop", "pickup_rate_mult"),
    (r"max (?:hp|health)", "player_max_hp_mult"), (r"(?:my )?speed", "player_speed_mult"),
    (r"(?:my )?damage", "player_damage_mult"),
)  # fmt: skip


def answer(question: str, facts: WorldFacts) -> tuple[str, bool]:
    """``(answer, known)``: the answer from the facts, or a plain "can't" (known False)."""
    q = question.lower()
    s, p = facts.state, facts.state.get("player", {})
    names = game_facts().prefabs
    if re.search(r"\b(multiplier|mult|param|setting)s?\b", q):
        params = s.get("params", {})
        for pat, name in _PARAM_WORDS:
            if re.search(pat, q) and name in params:
                return f"{name} is {params[name]:g} (1 is normal).", True
        return "Params now: " + ", ".join(f"{k} {v:g}" for k, v in params.items()) + ".", True
    if re.search(r"\b(nearest|closest)\b", q):
        if not facts.enemies:
            return "No enemies are alive, so none is near you.", True
        e = facts.enemies[0]
        return f"The nearest enemy is a {e['prefab']}, {round(e['distance'])} units away.", True
    if re.search(r"\b(killed|kills|slain)\b", q) and not re.search(r"\b(alive|left)\b", q):
        return f"You have {_plural(int(s.get('kills', 0)), 'kill')} this run.", True
    if (
        re.search(r"\bhow many\b|\bnumber of\b|\bcount\b|\bany\b.*\b(left|alive)\b", q)
        and re.search(r"\b(enem|monster|mob|alive|left|there)", q)
    ) or (prefab_at(q, game_facts())[0] and re.search(r"\bhow many\b", q)):
        prefab, _ = prefab_at(q, game_facts())
        if prefab is not None:
            n = facts.count(prefab)
            return f"There {'is' if n == 1 else 'are'} {_plural(n, prefab)} alive.", True
        n = facts.count(None)
        mix = _mix(s.get("enemies_by_prefab", {}))
        return (f"There {'is' if n == 1 else 'are'} {n} {'enemy' if n == 1 else 'enemies'} alive"
                + (f": {mix}." if mix else "."), True)  # fmt: skip
    if re.search(r"\b(hp|health|healthy|life|hurt|hit points)\b", q):
        return f"You have {round(p.get('hp', 0))} of {round(p.get('max_hp', 0))} HP.", True
    if re.search(r"\b(time left|how long|until|remaining)\b", q) and "wave" in q:
        return f"Wave {s.get('wave')} has {round(s.get('wave_time_left', 0))} s left.", True
    if re.search(r"\bwave\b", q):
        return f"It is wave {s.get('wave')}, with {round(s.get('wave_time_left', 0))} s left.", True
    if re.search(r"\b(score|points)\b", q):
        return f"Your score is {s.get('score')}.", True
    if re.search(r"\bkill", q):
        return f"You have {_plural(int(s.get('kills', 0)), 'kill')} this run.", True
    if re.search(r"\b(die|died|deaths?)\b", q):
        return f"You have died {s.get('deaths', 0)} times this run.", True
    if re.search(r"\b(level|xp|experience)\b", q):
        return f"You are level {p.get('level')} with {p.get('xp')} XP toward the next.", True
    if re.search(r"\b(weapons?|guns?)\b", q):
        held = s.get("weapons", {})
        return "You hold " + ", ".join(f"{k} (level {v})" for k, v in held.items()) + ".", True
    if re.search(r"\bupgrades?\b", q):
        ups = s.get("upgrades", {})
        return ("Your upgrades: " + ", ".join(f"{k} x{v}" for k, v in ups.items()) + "."
                if ups else "You have no upgrades yet."), True  # fmt: skip
    if re.search(r"\b(time|how long|played)\b", q):
        t = int(s.get("time", 0))
        return f"This run is {t // 60} min {t % 60} s old.", True
    if re.search(r"\b(what|which) (enemies|prefabs|monsters)\b.*\b(can|exist|are there)\b", q):
        return "The enemies I can spawn: " + ", ".join(names) + ".", True
    return (
        "I can't answer that from the game's state, because I only see enemies, your HP, the wave, score, "
        "kills, deaths, level, weapons, upgrades, the params and the time.",
        False,
    )


NUM = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])")
_COUNTED = re.compile(r"(\d+) ([a-z]+?)(?:e?s)?\b")


def check_claims(text: str, facts: WorldFacts) -> list[str]:
    """What ``text`` states that the facts do not hold: a number that is none of the state's, "N <prefab>s"
    that is not the count of that prefab, a named enemy the game does not have. Empty: every claim is true."""
    wrong: list[str] = []
    prefabs = game_facts().prefabs
    for m in NUM.finditer(text):
        v = float(m.group(1))
        if v not in facts.numbers:
            wrong.append(f"{m.group(1)} is not a number of the world's state")
    for m in _COUNTED.finditer(text.lower()):
        n, word = int(m.group(1)), m.group(2)
        if word in prefabs and n != facts.count(word):
            wrong.append(f"there are {facts.count(word)} {word}s, not {n}")
    return wrong
