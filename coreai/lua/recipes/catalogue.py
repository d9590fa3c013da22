"""The catalogue: every trigger, condition and action a grounded mod can use, with the Mod API functions and
hooks it renders to (tests/lua/test_recipes.py checks each name against ``coreai.lua.api_spec.SPEC``), and
how a recipe is checked against the game's facts and said in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from coreai.lua.recipes.model import (
    ENEMIES,
    HP_FRACTION,
    WAVE,
    ActionKind,
    ConditionKind,
    Facts,
    Recipe,
    Rule,
    TriggerKind,
    count_label,
)


@dataclass(frozen=True)
class Entry:
    summary: str  # what it does, for the model's slot prompt and the docs
    api: tuple[str, ...]  # Mod API functions and hooks the rendered Lua uses


TRIGGER_CATALOGUE: dict[TriggerKind, Entry] = {
    "load": Entry("once, when the mod starts", ("on_load",)),
    "every": Entry("every N seconds of play", ("every",)),
    "after": Entry("once, N seconds after the mod starts", ("after",)),
    "wave_start": Entry("when a wave starts", ("on_wave_start",)),
    "wave_end": Entry("when a wave ends", ("on_wave_end",)),
    "kill": Entry("when an enemy dies (optionally one prefab)", ("on_enemy_killed",)),
    "damage": Entry("when the player takes damage", ("on_player_damaged",)),
    "spawn": Entry("when an enemy appears (optionally one prefab or one cause)", ("on_enemy_spawned",)),
    "when": Entry("when the condition becomes true (looked at twice a second)", ("every", "game.state")),
}
CONDITION_CATALOGUE: dict[ConditionKind, Entry] = {
    "always": Entry("no condition", ()),
    "hp_below": Entry("the player's HP is under a fraction of max HP", ("game.state",)),
    "hp_above": Entry("the player's HP is over a fraction of max HP", ("game.state",)),
    "enemies_above": Entry("more than N enemies are alive", ("game.state",)),
    "enemies_below": Entry("fewer than N enemies are alive", ("game.state",)),
    "wave_at_least": Entry("the wave is N or later", ("game.state",)),
}
ACTION_CATALOGUE: dict[ActionKind, Entry] = {
    "spawn": Entry("spawn a whitelisted prefab, a count, at a place", ("coreai_world_spawn", "game.state")),
    "set_param": Entry("set a bounded param (restored when a 'when' condition ends)", ("game.set",)),
    "report": Entry("show a line on the HUD", ("report", "game.state")),
    "count": Entry("count events across runs in storage", ("storage.get", "storage.set", "report")),
    "best": Entry("remember the best wave/score/kills across runs", ("storage.get", "storage.set", "report")),
    "destroy": Entry("remove enemies of a prefab", ("coreai_world_destroy", "on_enemy_spawned",
                                                     "on_enemy_killed")),
}  # fmt: skip


def problems(recipe: Recipe, facts: Facts) -> list[str]:
    """What makes ``recipe`` unrenderable against ``facts`` (empty: it renders to a mod that can run)."""
    out: list[str] = []
    for i, r in enumerate(recipe.rules, 1):
        tag = f"rule {i}"
        for name in (r.filter_prefab, r.prefab):
            if name is not None and name not in facts.prefabs:
                out.append(f"{tag}: '{name}' is not a prefab ({', '.join(facts.prefabs)})")
        if r.filter_cause is not None and r.filter_cause not in facts.causes:
            out.append(f"{tag}: '{r.filter_cause}' is not a spawn cause ({', '.join(facts.causes)})")
        if r.action == "spawn" and r.prefab is None:
            out.append(f"{tag}: spawn needs a prefab")
        if r.action == "destroy" and r.prefab is None and r.filter_prefab is None:
            out.append(f"{tag}: destroy needs a prefab")
        if r.action == "set_param":
            fact = facts.param_by_name.get(r.param or "")
            if fact is None:
                out.append(f"{tag}: set_param needs a param ({', '.join(facts.param_by_name)})")
            elif r.value is None or not fact.minimum <= r.value <= fact.maximum:
                out.append(f"{tag}: {fact.name} takes {fact.minimum:g}..{fact.maximum:g}, not {r.value}")
        if r.condition in ("hp_below", "hp_above") and not HP_FRACTION[0] <= r.threshold <= HP_FRACTION[1]:
            out.append(f"{tag}: an HP threshold is a fraction {HP_FRACTION[0]}..{HP_FRACTION[1]}")
        if r.condition in ("enemies_above", "enemies_below") and not ENEMIES[0] <= r.threshold <= ENEMIES[1]:
            out.append(f"{tag}: an enemy count is {ENEMIES[0]}..{ENEMIES[1]}")
        if r.condition == "wave_at_least" and not WAVE[0] <= r.threshold <= WAVE[1]:
            out.append(f"{tag}: a wave is {WAVE[0]}..{WAVE[1]}")
        if r.trigger == "when" and r.condition == "always":
            out.append(f"{tag}: 'when' needs a condition")
        if r.place == "event" and r.trigger not in ("kill", "spawn"):
            out.append(f"{tag}: 'where it happened' needs a kill or spawn trigger")
    return out


def _plural(n: float, word: str) -> str:
    return f"{n:g} {word}" if n == 1 else f"{n:g} {word}s"


def say_trigger(r: Rule) -> str:
    nth = f"every {_ordinal(r.nth)} " if r.nth > 1 else ""
    if r.trigger == "load":
        return "when the run starts"
    if r.trigger == "every":
        return f"every {_plural(r.seconds, 'second')}"
    if r.trigger == "after":
        return f"{_plural(r.seconds, 'second')} in"
    if r.trigger in ("wave_start", "wave_end"):
        return f"at the {'start' if r.trigger == 'wave_start' else 'end'} of {nth or 'every '}wave"
    if r.trigger == "kill":
        if nth:
            return f"on every {_ordinal(r.nth)} {r.filter_prefab + ' ' if r.filter_prefab else ''}kill"
        return f"whenever {_a(r.filter_prefab) if r.filter_prefab else 'an enemy'} dies"
    if r.trigger == "damage":
        return f"{'on ' + nth + 'hit' if nth else 'whenever you take damage'}"
    if r.trigger == "spawn":
        who = _a(r.filter_prefab) if r.filter_prefab else "an enemy"
        cause = f" ({r.filter_cause} spawns)" if r.filter_cause else ""
        return f"whenever {who} appears{cause}"
    return "as soon as " + say_condition(r)


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def say_condition(r: Rule) -> str:
    t = r.threshold
    return {
        "always": "",
        "hp_below": f"your HP is under {t:.0%}",
        "hp_above": f"your HP is over {t:.0%}",
        "enemies_above": f"more than {t:g} enemies are alive",
        "enemies_below": f"fewer than {t:g} enemies are alive",
        "wave_at_least": f"it is wave {t:g} or later",
    }[r.condition]


_PLACES = {
    "near_player": "near you",
    "edge": "at the arena's edge",
    "center": "in the middle of the arena",
    "random": "somewhere in the arena",
    "event": "where it happened",
}
_REPORTS = {
    "player_hp": "your HP",
    "enemies_alive": "how many enemies are alive",
    "wave": "the wave number",
    "score": "your score",
    "kills": "your kills",
    "time": "the time",
    "spawned": "how many it spawned",
}


def say_action(r: Rule, facts: Facts | None = None) -> str:
    if r.action == "spawn":
        return f"spawns {r.count} {r.prefab}{'s' if r.count != 1 else ''} {_PLACES[r.place]}"
    if r.action == "set_param":
        fact = facts.param_by_name.get(r.param or "") if facts else None
        back = f" (back to {fact.default:g} after)" if fact is not None and r.trigger == "when" else ""
        return f"sets {r.param} to {r.value:g}{back}"
    if r.action == "report":
        return f"shows '{r.text}'" if r.report == "message" else f"shows {_REPORTS[r.report]}"
    if r.action == "count":
        return f"adds one to '{count_label(r)}' (kept across runs)"
    if r.action == "best":
        return f"remembers your best {r.best} (kept across runs)"
    return f"removes {r.prefab or r.filter_prefab}s"


def say_rule(r: Rule, facts: Facts | None = None) -> str:
    cond = "" if r.trigger == "when" or r.condition == "always" else f", if {say_condition(r)},"
    return f"{say_trigger(r)}{cond} {say_action(r, facts)}"


def say(recipe: Recipe, facts: Facts | None = None) -> str:
    return "; ".join(say_rule(r, facts) for r in recipe.rules)
