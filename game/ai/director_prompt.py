"""What the director's LLM request says: the situation as text, the plan tool's schema (``plan_json_schema``,
from the knob table) and its grammar-friendly form, and the rule that makes the whole request fit the model's
context window.

Small-context models (``n_ctx`` under ``LARGE_CONTEXT``) get a compact situation summary (about 200 tokens)
instead of the JSON dump of ``DirectorSituation``; models with a large or unknown window get the JSON. The
request must leave ``HEADROOM`` of the window free after the stable prefix, the volatile tail and the reply's
``max_tokens``; ``fit_situation`` trims by rule until it does (the oldest memory note first, then the world
state, level by level) and never fails: at the last level it sends the minimal summary.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from game.director.knobs import KNOBS, MIX_WEIGHT, PLAN_KNOBS, Knob
from game.director.plan import ANNOUNCER_MAX, MIX_MAX_KEYS, NOTE_MAX, PRESSURES, REASON_MAX
from game.director.source import DirectorSituation
from game.director.telemetry import NEVER
from game.director.tuning import TUNING

LARGE_CONTEXT = 16384  # from this window up, the model gets the full JSON situation
HEADROOM = 0.25  # the part of n_ctx a request leaves free
MAX_EVENTS_OFFERED = 8
LEVELS = 3  # world-state levels: 0 full summary, 1 reduced, 2 minimal
REASON_CHARS, ANNOUNCER_CHARS, NOTE_CHARS = 80, 40, 60  # within the plan's own limits


def choices(knob: Knob, max_n: int = 12) -> list[float | int]:
    """Evenly spaced allowed values from ``knob.lo`` to ``knob.hi`` (both included), at most ``max_n``.

    llama.cpp grammars keep enums but not numeric bounds: a plan built from these lists always lies within
    the hard bounds."""
    span = knob.hi - knob.lo
    step = next((s for s in (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0) if span / s + 1 <= max_n + 1e-9), span)
    values = [round(knob.lo + i * step, 4) for i in range(round(span / step) + 1)]
    return [int(v) if v.is_integer() else v for v in values]  # "3", not "3.0": fewer tokens


def is_small(n_ctx: int | None) -> bool:
    return n_ctx is not None and n_ctx < LARGE_CONTEXT


def offered_events(events: Collection[str]) -> list[str]:
    """The events the plan grammar names: at most ``MAX_EVENTS_OFFERED``, built-ins (registered first) first,
    so however many events mods register, the director's prompt stays the same size."""
    return list(events)[:MAX_EVENTS_OFFERED]


def plan_json_schema(prefabs: Collection[str], events: Collection[str]) -> dict[str, Any]:
    """The ``set_director_plan`` tool's parameter schema for this game's prefabs and registered events: prefab
    mix keys and event names are spelled out as properties and enums, because llama.cpp grammars keep enums
    and ``maxItems`` but ignore numeric bounds (``tool_schema`` turns the numbers into enums too)."""
    lo, hi = MIX_WEIGHT.range
    weight = {"type": "number", "minimum": lo, "maximum": hi}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["pressure", "reason"],
        "properties": {
            "pressure": {"type": "string", "enum": list(PRESSURES)},
            "mix": {
                "type": "object",
                "additionalProperties": False,
                "maxProperties": min(MIX_MAX_KEYS, len(prefabs)),
                "properties": {name: dict(weight) for name in prefabs},
                "description": f"spawn weight per prefab, {lo:g}..{hi:g}",
            },
            **{
                k.name: {"type": "number", "minimum": k.lo, "maximum": k.hi, "description": k.help}
                for k in PLAN_KNOBS
            },
            # enum alone: with a "type" list, llama.cpp's converter keeps the type and drops the enum
            "event": {"enum": [*events, None]},
            "reason": {"type": "string", "minLength": 1, "maxLength": REASON_MAX},
            "announcer": {"type": "string", "maxLength": ANNOUNCER_MAX},
            "note": {"anyOf": [{"type": "string", "maxLength": NOTE_MAX}, {"type": "null"}]},
        },
    }


def tool_summary() -> str:
    """The optional knob fields as the tool description lists them."""
    parts = [f"mix (prefab -> weight {MIX_WEIGHT.lo:g}..{MIX_WEIGHT.hi:g})"]
    parts += [f"{k.name} ({k.lo:g}..{k.hi:g})" for k in PLAN_KNOBS]
    return ", ".join(parts)


def tool_schema(prefabs: Collection[str], events: Collection[str]) -> dict[str, Any]:
    """``plan_json_schema`` with every number given as a list of allowed values and shorter texts."""
    schema = plan_json_schema(prefabs, events)
    props = schema["properties"]
    mix = choices(MIX_WEIGHT, max_n=6)  # whole weights: fewer tokens in the prompt
    for name in props["mix"]["properties"]:
        props["mix"]["properties"][name] = {"enum": mix}
    for knob in PLAN_KNOBS:
        props[knob.name] = {"enum": choices(knob)}
    # shorter texts than the plan allows, so that the longest reply the grammar permits ends within
    # the request's max_tokens instead of being cut off mid-JSON
    props["reason"]["maxLength"] = REASON_CHARS
    props["announcer"]["maxLength"] = ANNOUNCER_CHARS
    props["note"] = {"anyOf": [{"type": "string", "maxLength": NOTE_CHARS}, {"type": "null"}]}
    return schema


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def _num(x: float) -> str:
    """Two decimals at most, no trailing zeros ("1", "0.1", "0.35"): fewer tokens than "1.00"."""
    return f"{round(x, 2):g}"


def _flags(s: DirectorSituation) -> list[str]:
    snap = s.snapshot
    flags = []
    if snap.seconds_since_death < TUNING.plan.recent_death_s:
        flags.append("recovering from a death")
    if snap.hp_fraction < TUNING.plan.low_hp:
        flags.append("low HP" + (" in a boss fight" if snap.boss_in_view else ""))
    return flags


def situation_summary(s: DirectorSituation, level: int = 0) -> str:
    """The situation in a few lines; ``level`` 1 drops the secondary figures, 2 keeps only the essentials.

    Prefab and event names are not repeated here: the plan tool's schema in the prompt prefix lists them."""
    snap = s.snapshot
    death = (
        "never died"
        if snap.seconds_since_death >= NEVER
        else f"died {snap.deaths}x, last {snap.seconds_since_death:.0f}s ago"
    )
    flags = _flags(s)
    lines = [
        f"time {snap.time:.0f}s, wave {snap.wave}; player HP {_pct(snap.hp_fraction)}, {death}",
        f"damage taken: {_pct(snap.damage_5s)} of a bar in 5s, {_pct(snap.damage_15s)} in 15s",
        f"enemies: {snap.enemies_near} near, {snap.enemies_alive} alive, "
        f"boss {'alive' if snap.boss_alive else 'none'}",
        f"intensity {_num(s.intensity)}, pacing {s.pacing.value} for {s.pacing_s:.0f}s",
        f"warnings: {', '.join(flags) if flags else 'none'}",
    ]
    if level >= 2:
        return "\n".join(lines)
    k = s.knobs
    lines.insert(3, f"kills/min {snap.kills_per_min:.0f}, accuracy {_pct(snap.accuracy)}")
    knobs = "knobs: " + ", ".join(f"{knob.name} {_num(getattr(k, knob.name))}" for knob in KNOBS)
    if level == 0:
        knobs += "; mix " + ", ".join(f"{name} {w:g}" for name, w in sorted(k.mix.items()))
    lines.append(knobs)
    return "\n".join(lines)


def render(s: DirectorSituation, *, small: bool, level: int, memory: list[str]) -> str:
    if not small:
        return "Situation (JSON):\n" + s.model_copy(update={"memory": memory}).model_dump_json()
    text = "Situation:\n" + situation_summary(s, level)
    if memory:
        text += "\nYour notes (oldest first):\n" + "\n".join(f"- {n}" for n in memory)
    return text


@dataclass(frozen=True)
class FittedRequest:
    """The situation text that fits, and what it cost in tokens (what F10 and the bench show)."""

    instructions: str
    prefix_tokens: int
    tail_tokens: int
    max_tokens: int
    n_ctx: int | None
    level: int  # 0 = nothing trimmed from the world state
    notes_dropped: int

    @property
    def total_tokens(self) -> int:
        return self.prefix_tokens + self.tail_tokens + self.max_tokens

    @property
    def trimmed(self) -> bool:
        return self.level > 0 or self.notes_dropped > 0

    def line(self) -> str:
        """F10's "prompt N tok / n_ctx" (N: prefix + tail; the reply's max_tokens comes on top)."""
        if not self.n_ctx:
            return ""
        trim = " trimmed" if self.trimmed else ""
        return f"prompt {self.prefix_tokens + self.tail_tokens} tok / {self.n_ctx}{trim}"


def fit_situation(
    s: DirectorSituation,
    *,
    n_ctx: int | None,
    max_tokens: int,
    prefix_tokens: int,
    tail_tokens: Callable[[str], int],
) -> FittedRequest:
    """The richest rendering of ``s`` whose request fits ``(1 - HEADROOM) * n_ctx``.

    ``tail_tokens(instructions)`` counts the volatile tail as sent (instructions plus the other tail
    sections and the user line). Trimming order: the oldest memory note, one at a time, then the world
    state level by level. With an unknown window nothing is trimmed.
    """
    small = is_small(n_ctx)
    memory = list(s.memory)
    budget = None if n_ctx is None else int(n_ctx * (1 - HEADROOM))
    level = 0
    dropped = 0
    while True:
        text = render(s, small=small, level=level, memory=memory)
        tail = tail_tokens(text)
        if budget is None or prefix_tokens + tail + max_tokens <= budget:
            break
        if memory:
            memory.pop(0)
            dropped += 1
        elif small and level < LEVELS - 1:
            level += 1
        elif not small:
            small, level = True, 0  # a large-window model squeezed anyway: fall back to the summary
        else:
            break  # the minimal summary: sent as is (the backend reports an overflow with its own code)
    return FittedRequest(text, prefix_tokens, tail, max_tokens, n_ctx, level, dropped)
