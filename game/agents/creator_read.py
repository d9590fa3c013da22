"""The Creator's reader: a player's message read into a world command (spawn, move, destroy, event), a
question, or what the world cannot do; the model fills the slots the reader leaves open through a schema.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from coreai.errors import LlmError
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest
from coreai.lua.recipes.model import COUNT, Facts
from coreai.lua.recipes.words import OUT_OF_SCOPE, count_before, prefab_at, unknown_noun

Action = Literal["spawn", "move", "destroy", "event", "question", "none"]
CPlace = Literal["near_player", "edge", "center", "random", "far"]
PLACES: tuple[CPlace, ...] = ("near_player", "edge", "center", "random", "far")
FILL_MAX_TOKENS = 48

_QUESTION = re.compile(
    r"^\s*(what|what's|whats|which|how|how's|is|are|do|does|did|where|when|who|why|tell me|can you tell|"
    r"show me (?:the |my )?(?:state|stats))\b|\?\s*$"
)
_SPAWN = re.compile(
    r"\b(spawn|summon|send|add|create|bring in|throw in|unleash|release|drop|give me|make|put|place)\b"
)
_DESTROY = re.compile(r"\b(kill|destroy|remove|delete|despawn|get rid of|clear|wipe|nuke|erase)\b")
_MOVE = re.compile(r"\b(move|push|pull|drag|put|teleport|bring|shove|send)\b")
_ALL = re.compile(r"\b(all|every|everything|each)\b")
_GENERIC = re.compile(r"\b(enem(?:y|ies)|monsters?|mobs?|baddies|foes?|creatures?|them|everything)\b")


@dataclass
class Command:
    action: Action
    prefab: str | None = None  # spawn: what; move / destroy: which (None: any)
    count: int = 1  # spawn: how many; move / destroy: at most how many (nearest first)
    place: CPlace = "near_player"
    event: str | None = None
    cant: str | None = None
    missing: list[str] = field(default_factory=list)
    how: str = "reader"  # reader / model


def _place(text: str) -> CPlace | None:
    if re.search(r"\b(away from me|far from me|far away|far)\b", text):
        return "far"
    if re.search(
        r"\b(next to|near|around|close to|beside|by|on) (me|the player|my ship|you)\b|\bnearby\b", text
    ):
        return "near_player"
    if re.search(r"\b(edges?|walls?|sides?|corners?|borders?)\b", text):
        return "edge"
    if re.search(r"\b(middle|center|centre)\b", text):
        return "center"
    if re.search(r"\b(random(?:ly)?|anywhere|somewhere|all over)\b", text):
        return "random"
    return None


def read_command(text: str, facts: Facts, events: tuple[str, ...]) -> Command:
    low = " " + re.sub(r"\s+", " ", text.lower().replace("’", "'")).strip() + " "
    if _QUESTION.search(low.strip()):
        return Command("question")
    for pat, reason in OUT_OF_SCOPE:
        if re.search(pat, low):
            return Command("none", cant=reason)
    event = next((e for e in events if re.search(rf"\b{re.escape(e)}\b", low)), None)
    prefab, pos = prefab_at(low, facts)
    starts = re.search(r"\b(event|trigger|start|fire|launch|call|do|unleash|send|drop|give)\b", low)
    if event is not None and starts and not (prefab is not None and event == prefab and _SPAWN.search(low)):
        return Command("event", event=event)
    destroy, spawn, move = _DESTROY.search(low), _SPAWN.search(low), _MOVE.search(low)
    generic = _GENERIC.search(low)
    why = unknown_noun(low, facts) if prefab is None and generic is None else None
    if why is not None and (spawn or destroy or move):
        return Command("none", cant=why)
    at = pos if prefab is not None else (generic.start() if generic else len(low))
    n = count_before(low, at)
    # "put a boss in the middle", "send 6 runners": new ones; "put the tanks in the middle": those there
    new_ones = n is not None or re.search(
        r"\b(a|an|some|few|couple of|more|extra|new)\s+(?:\w+\s+)?$", low[:at]
    )
    if destroy and (prefab is not None or generic is not None):
        every = bool(_ALL.search(low)) or (n is None and re.search(r"\b(the|those|them)\b", low) is not None)
        return Command("destroy", prefab, COUNT[1] * 25 if every else (n or 1))
    if (
        move
        and (prefab is not None or generic is not None)
        and (place := _place(low)) is not None
        and not (spawn and (spawn.start() < move.start() or new_ones))
    ):
        every = bool(_ALL.search(low)) or n is None
        return Command("move", prefab, COUNT[1] * 25 if every else (n or 1), place)
    if spawn or prefab is not None:
        cmd = Command("spawn", prefab or ("grunt" if generic else None), min(n or 1, COUNT[1] * 2),
                      _place(low) or "near_player")  # fmt: skip
        if cmd.prefab is None:
            cmd.missing.append("prefab")
        return cmd
    return Command("none", missing=["action"])


def fill_request(text: str, cmd: Command, facts: Facts, events: tuple[str, ...]) -> LlmRequest:
    props: dict[str, Any] = {
        "action": {"type": "string", "enum": ["spawn", "move", "destroy", "event", "none"]},
        "prefab": {"type": "string", "enum": list(facts.prefabs)},
        "count": {"type": "integer"},
        "place": {"type": "string", "enum": list(PLACES)},
        "event": {"type": "string", "enum": list(events) or ["none"]},
    }
    slots = list(props) if "action" in cmd.missing else cmd.missing
    schema = {"type": "object", "properties": {k: props[k] for k in slots}, "required": slots,
              "additionalProperties": False}  # fmt: skip
    user = (
        f"Player: {text}\nTurn this into one world command. action: spawn enemies, move enemies, destroy "
        f"enemies, start a director event ({', '.join(events)}), or none if the arena cannot do it. "
        f"prefab: {', '.join(facts.prefabs)}. count: 1-20. place: {', '.join(PLACES)}."
    )
    return LlmRequest(
        messages=(ChatMessage("system", "You command a game arena. Reply with JSON only."),
                  ChatMessage("user", user)),
        role="Creator", response_schema=schema, max_tokens=FILL_MAX_TOKENS, temperature=0.0,
        tool_choice="none", timeout_s=15.0,
    )  # fmt: skip


def fill(text: str, cmd: Command, llm: LlmClient, facts: Facts, events: tuple[str, ...]) -> Command:
    """The model's choice for the missing slots (a ``none`` command with a reason when it gives none)."""
    try:
        reply = llm.complete(fill_request(text, cmd, facts, events)).content
        chosen = json.loads(reply)
    except (LlmError, json.JSONDecodeError, TypeError) as exc:
        why = "the model gave no answer" if isinstance(exc, LlmError) else "the model's answer was unreadable"
        return Command("none", cant=f"I could not read what to do from that ({why})")
    if not isinstance(chosen, dict):
        return Command("none", cant="I could not read what to do from that")
    action = chosen.get("action", cmd.action)
    out = Command(
        action if action in ("spawn", "move", "destroy", "event") else "none",
        chosen.get("prefab", cmd.prefab),
        int(min(max(int(chosen.get("count", cmd.count) or 1), COUNT[0]), COUNT[1])),
        chosen.get("place", cmd.place) if chosen.get("place", cmd.place) in PLACES else "near_player",
        chosen.get("event") if chosen.get("event") in events else None,
        how="model",
    )
    if out.action == "none":
        out.cant = (
            "that is not something I can do to the arena (I spawn, move and remove enemies and start events)"
        )
    elif out.action == "event" and out.event is None:
        out.action, out.cant = "none", "no director event fits that"
    elif out.action in ("spawn",) and out.prefab not in facts.prefabs:
        out.action, out.cant = "none", "no enemy on the whitelist fits that"
    return out
