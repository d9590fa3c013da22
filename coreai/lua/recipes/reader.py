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
from coreai.lua.recipes.model import COUNT, Facts, Recipe, Rule
from coreai.lua.recipes.phrases import clamp_param, condition_of, cut, param_value, place_of, trigger_of
from coreai.lua.recipes.words import (
    CHANGE_CUE,
    DESTROY_VERB,
    GENERIC_ENEMY,
    OUT_OF_SCOPE,
    PARAM_PHRASES,
    REPORT_VERB,
    REPORT_WHAT,
    SPAWN_VERB,
    count_before,
    prefab_at,
    unknown_noun,
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


_CLAUSE_SPLIT = re.compile(
    r"\s*(?:[.;!]\s+|,?\s+and also\s+|,?\s+and then\s+|,?\s+then\s+|,?\s+also\s+|,\s+and\s+"
    r"|\s+and\s+(?=(?:every|each|when|whenever|at|on|after|if|while)\b)"
    # "spawn 3 tanks and double the score": "and" before a second action's verb
    r"|\s+and\s+(?=(?:spawn|summon|send|add|drop|double|triple|halve|set|raise|lower|increase|reduce|make|give"
    r"|report|print|show|display|tell|say|announce|remove|destroy|delete|clear|count|track|remember|save)\b))"
)


def _actions(text: str, facts: Facts) -> tuple[list[dict[str, Any]], str | None]:
    """The actions in one clause (slots per action) or the reason it cannot be done."""
    out: list[dict[str, Any]] = []
    count_words = re.search(
        r"\b(count|keep track of|track|tally|remember how many|how many (?:times )?(?:have i|i'?ve)|total)\b"
        r"|\b(across|over|between|in all|all) (?:my )?runs\b|\b(lifetime|all[- ]time|forever|permanently"
        r"|saved?)\b",
        text,
    )
    best = re.search(
        r"\b(best|highest|record|personal best|high ?score|top|furthest|farthest|longest|max(?:imum)?"
        r"|most)\b",
        text,
    )
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
    shown = re.search(REPORT_VERB, text) and not persist  # "post my kill count": a report, not a tally
    if count_words and events and not shown and (persist or not re.search(SPAWN_VERB, text)):
        out.append({"action": "count"})
        return out, None
    destroy = re.search(DESTROY_VERB, text)
    prefab, pos = prefab_at(text, facts)
    if destroy:
        slots: dict[str, Any] = {"action": "destroy"}
        if prefab is not None:
            slots["prefab"] = prefab
        if re.search(r"\b(all|every|each|no more|any)\b", text):
            slots["count"] = COUNT[1]
        else:
            n = count_before(text, pos)
            slots["count"] = n or 1
        out.append(slots)
        text = text[: destroy.start()] + " " + text[destroy.end() :]
        return out, None
    spawn = re.search(SPAWN_VERB, text)
    param = next((p for pat, p in PARAM_PHRASES if re.search(pat, text) and p in facts.param_by_name), None)
    if param is not None and not re.search(CHANGE_CUE, text):
        param = None  # "show my score": the score is shown, not changed
    if param is not None and not (spawn and prefab is not None):
        slots = {"action": "set_param", "param": param}
        v = param_value(text, param, facts)
        if v is not None:
            slots["value"] = clamp_param(v, param, facts)
        out.append(slots)
    # a clause that changes a param spawns only a prefab it names ("give me double damage when there are
    # more than 20 enemies" spawns nothing; its "enemies" belong to the condition)
    spawns = spawn is not None and (param is None or prefab is not None)
    if spawns or (prefab is not None and param is None and not re.search(REPORT_VERB, text)):
        generic = re.search(GENERIC_ENEMY, text)
        if prefab is None and not generic and spawn and (why := unknown_noun(text, facts)):
            return [], why
        if prefab is not None or generic:
            slots = {"action": "spawn"}
            if prefab is None and generic:
                prefab, pos = "grunt", generic.start()  # "enemies": the basic enemy
            slots["prefab"] = prefab
            n = count_before(text, pos)
            if n is not None:
                slots["count"] = n
            place = place_of(text)
            if place is not None:
                slots["place"] = place
            out.append(slots)
    if re.search(REPORT_VERB, text) or re.search(r"\bhow many\b", text):
        quoted = re.search(r"[\"“']([^\"”']{1,80})[\"”']", text)
        what: str | None = next((w for pat, w in REPORT_WHAT if re.search(pat, text)), None)
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
        cond, span = condition_of(clause)
        rest = cut(clause, span)
        trig, tspan = trigger_of(rest, facts)
        rest2 = cut(rest, tspan)
        if trig.get("trigger") == "kill":
            rest2 += " kill"  # the trigger's words are gone; what is counted stays known ("count kills")
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
        why = unknown_noun(low, facts)
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
