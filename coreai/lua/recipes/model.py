"""What a grounded mod is made of: rules (trigger → condition → action), their slots, and the game facts the
slots are checked against.

A ``Rule`` is one line of a mod: "every 10 s (trigger), while the player is under half health (condition),
spawn 3 grunts near the player (action)". A ``Recipe`` is one to four rules plus the player's request. Every
slot is an enum or a bounded number; ``Facts`` (the prefab whitelist, the params with their bounds, the spawn
causes) come from the game's own data, so a recipe that validates against them renders to a mod that can run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

TriggerKind = Literal["load", "every", "after", "wave_start", "wave_end", "kill", "damage", "spawn", "when"]
ConditionKind = Literal["always", "hp_below", "hp_above", "enemies_above", "enemies_below", "wave_at_least"]
ActionKind = Literal["spawn", "set_param", "report", "count", "best", "destroy"]
Place = Literal["near_player", "edge", "center", "random", "event"]
ReportWhat = Literal["player_hp", "enemies_alive", "wave", "score", "kills", "time", "message", "spawned"]
BestWhat = Literal["wave", "score", "kills"]

TRIGGERS: tuple[TriggerKind, ...] = (
    "load", "every", "after", "wave_start", "wave_end", "kill", "damage", "spawn", "when",
)  # fmt: skip
CONDITIONS: tuple[ConditionKind, ...] = (
    "always", "hp_below", "hp_above", "enemies_above", "enemies_below", "wave_at_least",
)  # fmt: skip
ACTIONS: tuple[ActionKind, ...] = ("spawn", "set_param", "report", "count", "best", "destroy")
PLACES: tuple[Place, ...] = ("near_player", "edge", "center", "random", "event")
REPORTS: tuple[ReportWhat, ...] = (
    "player_hp", "enemies_alive", "wave", "score", "kills", "time", "message", "spawned",
)  # fmt: skip
BESTS: tuple[BestWhat, ...] = ("wave", "score", "kills")

# bounds of the numeric slots: (minimum, maximum); one row each
SECONDS = (0.5, 600.0)  # a timer's period or delay
COUNT = (1, 20)  # enemies per spawn (the Mod API's cap per call)
NTH = (1, 1000)  # act on every n-th event
HP_FRACTION = (0.05, 0.95)  # hp_below / hp_above thresholds, a fraction of max HP
ENEMIES = (0, 500)  # enemies_above / enemies_below thresholds
WAVE = (1, 99)  # wave_at_least
POLL_S = 0.5  # how often a "when" trigger looks at its condition


@dataclass(frozen=True)
class ParamFact:
    name: str
    minimum: float
    maximum: float
    default: float
    description: str


@dataclass(frozen=True)
class Facts:
    """The game's data a recipe is checked against (the game builds it: ``game.agents.facts``)."""

    prefabs: tuple[str, ...]
    params: tuple[ParamFact, ...]
    causes: tuple[str, ...] = ("wave", "bank", "event", "presence", "split", "mod", "world")
    bosses: tuple[str, ...] = ()
    arena: tuple[float, float] = (2400.0, 1600.0)
    spawn_per_call: int = 6  # the main loop's cap on one spawn command
    param_by_name: dict[str, ParamFact] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "param_by_name", {p.name: p for p in self.params})


class Rule(BaseModel):
    """One trigger → condition → action line of a mod. Unused slots keep their defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trigger: TriggerKind
    seconds: float = Field(default=10.0, ge=SECONDS[0], le=SECONDS[1])
    filter_prefab: str | None = None  # kill / spawn triggers: only this prefab
    filter_cause: str | None = None  # spawn trigger: only this cause
    nth: int = Field(default=1, ge=NTH[0], le=NTH[1])
    condition: ConditionKind = "always"
    threshold: float = 0.5
    action: ActionKind
    prefab: str | None = None  # spawn
    count: int = Field(default=1, ge=COUNT[0], le=COUNT[1])
    place: Place = "near_player"
    param: str | None = None  # set_param
    value: float | None = None
    report: ReportWhat = "message"  # report
    text: str = Field(default="", max_length=80)  # report message; count / best label
    best: BestWhat = "wave"
    key: str = Field(default="", max_length=40)  # storage key of count / best


class Recipe(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    request: str = Field(max_length=500)
    rules: tuple[Rule, ...] = Field(min_length=1, max_length=4)
    name: str = Field(default="", max_length=40)  # the mod's name (lower_snake_case); "" = from the request


_SLUG = re.compile(r"[^a-z0-9]+")


def storage_key(rule: Rule) -> str:
    if rule.key:
        return rule.key
    if rule.action == "best":
        return f"best_{rule.best}"
    what = rule.filter_prefab or ("runs" if rule.trigger == "load" else rule.trigger)
    return _SLUG.sub("_", f"{rule.trigger}_{what}".lower()).strip("_")[:40]


def count_label(rule: Rule) -> str:
    if rule.text:
        return rule.text
    if rule.trigger == "load":
        return "Runs played"
    if rule.trigger == "kill":
        return f"{(rule.filter_prefab or 'enemie').capitalize()}s killed, all runs"
    if rule.trigger == "damage":
        return "Hits taken, all runs"
    if rule.trigger in ("wave_start", "wave_end"):
        return "Waves played, all runs"
    if rule.trigger == "spawn":
        return f"{(rule.filter_prefab or 'enemie').capitalize()}s seen, all runs"
    return "Count, all runs"
