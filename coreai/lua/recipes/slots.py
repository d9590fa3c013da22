"""The model fills the slots the reader could not: one schema-constrained reply (enums for kinds, prefabs,
params and reports; numbers clamped to their bounds after parsing, since llama.cpp's grammar does not enforce
``minimum``/``maximum``).

    schema = slot_schema(["prefab"], facts)          # only what is missing
    recipe = fill(reading, text, llm, facts)         # None: the model's choice did not make a recipe
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from coreai.errors import LlmError
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest
from coreai.lua.recipes.catalogue import ACTION_CATALOGUE, TRIGGER_CATALOGUE, problems
from coreai.lua.recipes.model import (
    ACTIONS,
    COUNT,
    PLACES,
    REPORTS,
    SECONDS,
    TRIGGERS,
    Facts,
    Recipe,
    Rule,
)
from coreai.lua.recipes.reader import Reading

NONE = "none"  # the model's way to say no recipe fits
FILL_MAX_TOKENS = 96  # a full rule's JSON is about 40 tokens; a missing slot or two far fewer
_ORDER = ("action", "trigger", "seconds", "prefab", "count", "place", "param", "value", "report")


def _props(facts: Facts) -> dict[str, dict[str, Any]]:
    return {
        "action": {"type": "string", "enum": [*ACTIONS, NONE]},
        "trigger": {"type": "string", "enum": list(TRIGGERS)},
        "seconds": {"type": "number"},
        "prefab": {"type": "string", "enum": list(facts.prefabs)},
        "count": {"type": "integer"},
        "place": {"type": "string", "enum": [p for p in PLACES if p != "event"]},
        "param": {"type": "string", "enum": [p.name for p in facts.params]},
        "value": {"type": "number"},
        "report": {"type": "string", "enum": [r for r in REPORTS if r not in ("message", "spawned")]},
    }


def needed(missing: list[str], action: str | None) -> list[str]:
    """The slots to ask for: what is missing, or a whole rule when even the action is unknown."""
    if "action" in missing or action is None:
        return ["action", "trigger", "seconds", "prefab", "count", "param", "value", "report"]
    out = list(missing)
    if "param" in out and "value" not in out:
        out.append("value")
    return [s for s in _ORDER if s in out]


def slot_schema(slots: list[str], facts: Facts) -> dict[str, Any]:
    props = _props(facts)
    return {
        "type": "object",
        "properties": {s: props[s] for s in slots},
        "required": list(slots),
        "additionalProperties": False,
    }


def _guide(slots: list[str], facts: Facts) -> str:
    lines = []
    if "action" in slots:
        acts = "; ".join(f"{k}: {e.summary}" for k, e in ACTION_CATALOGUE.items())
        lines.append(f"action ({acts}; none: a mod cannot do it)")
    if "trigger" in slots:
        lines.append("trigger (" + "; ".join(f"{k}: {e.summary}" for k, e in TRIGGER_CATALOGUE.items()) + ")")
    if "seconds" in slots:
        lines.append(f"seconds ({SECONDS[0]:g}-{SECONDS[1]:g}, for every/after)")
    if "prefab" in slots:
        lines.append("prefab (" + ", ".join(facts.prefabs) + ")")
    if "count" in slots:
        lines.append(f"count ({COUNT[0]}-{COUNT[1]})")
    if "param" in slots:
        lines.append("param (" + "; ".join(f"{p.name}: {p.description}" for p in facts.params) + ")")
    if "value" in slots:
        lines.append("value (the param's new value; 1 is normal, 2 is double)")
    if "report" in slots:
        lines.append("report (player_hp, enemies_alive, wave, score, kills, time)")
    return "\n".join("- " + line for line in lines)


def fill_request(text: str, reading: Reading, facts: Facts, *, trace_id: str = "") -> LlmRequest | None:
    """The model request for the first rule the reader left unfinished (None when nothing is missing)."""
    index = next((i for i, m in enumerate(reading.missing) if m), None)
    if index is None:
        return None
    known = reading.slots[index] if index < len(reading.slots) else {}
    slots = needed(reading.missing[index], known.get("action"))
    known_line = ", ".join(f"{k}={v}" for k, v in known.items() if k in _ORDER) or "nothing yet"
    system = "You set up a game mod from a player's request by choosing its settings. Reply with JSON only."
    user = f"Request: {text}\nAlready known: {known_line}\nChoose:\n{_guide(slots, facts)}"
    return LlmRequest(
        messages=(ChatMessage("system", system), ChatMessage("user", user)),
        role="Programmer",
        trace_id=trace_id,
        response_schema=slot_schema(slots, facts),
        max_tokens=FILL_MAX_TOKENS,
        temperature=0.0,
        tool_choice="none",
    )


def _clamp(slots: dict[str, Any], facts: Facts) -> dict[str, Any]:
    out = dict(slots)
    if "seconds" in out:
        out["seconds"] = min(max(float(out["seconds"] or 10.0), SECONDS[0]), SECONDS[1])
    if "count" in out:
        out["count"] = int(min(max(int(out["count"] or 1), COUNT[0]), COUNT[1]))
    param = facts.param_by_name.get(str(out.get("param", "")))
    if param is not None and out.get("value") is not None:
        out["value"] = round(min(max(float(out["value"]), param.minimum), param.maximum), 3)
    return out


def merge(reading: Reading, index: int, chosen: dict[str, Any], facts: Facts, text: str) -> Recipe | None:
    """The recipe from the reader's slots with ``chosen`` filled into rule ``index`` (None if unusable)."""
    if chosen.get("action") == NONE:
        return None
    rules: list[Rule] = []
    for i, slots in enumerate(reading.slots):
        s = dict(slots)
        if i == index:
            keep = {k: v for k, v in chosen.items() if k not in s or k in reading.missing[i]}
            s = _clamp({**s, **keep}, facts)
            if s.get("action") != "set_param":
                s.pop("param", None)
                s.pop("value", None)
            if s.get("action") != "spawn":
                s.pop("prefab", None) if s.get("action") != "destroy" else None
                s.pop("count", None) if s.get("action") != "destroy" else None
                s.pop("place", None)
            if s.get("action") != "report":
                s.pop("report", None)
            if s.get("trigger") not in ("every", "after"):
                s.pop("seconds", None)
            if s.get("trigger") == "when" and s.get("condition", "always") == "always":
                s["trigger"] = "load"
        elif reading.missing[i]:
            continue  # another unfinished rule: dropped (one model call per request)
        try:
            rules.append(Rule.model_validate(s))
        except ValidationError:
            return None
    if not rules:
        return None
    recipe = Recipe(request=text.strip()[:500], rules=tuple(rules[:4]))
    return None if problems(recipe, facts) else recipe


def fill(
    reading: Reading, text: str, llm: LlmClient, facts: Facts, *, trace_id: str = "", timeout_s: float = 20.0
) -> tuple[Recipe | None, str]:
    """Ask the model for the missing slots; ``(recipe, what happened)``."""
    request = fill_request(text, reading, facts, trace_id=trace_id)
    if request is None:
        return reading.recipe, "nothing to fill"
    index = next(i for i, m in enumerate(reading.missing) if m)
    request = replace(request, timeout_s=timeout_s)
    try:
        reply = llm.complete(request).content
    except LlmError as exc:
        return None, f"the model failed: {exc}"
    try:
        chosen = json.loads(reply)
    except (json.JSONDecodeError, TypeError):
        return None, f"the model's reply was not the JSON asked for: {reply[:80]!r}"
    if not isinstance(chosen, dict):
        return None, "the model's reply was not a JSON object"
    recipe = merge(reading, index, chosen, facts, text)
    if recipe is None:
        return None, f"the model's choice {json.dumps(chosen)[:160]} does not make a mod"
    return recipe, f"the model chose {json.dumps(chosen)[:160]}"
