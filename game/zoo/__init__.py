"""The zoo of player models: every way a bot can play the real game, by name.

The director is judged on these (``python -m game.eval ab --skills ...``), in the window they play the demo
(``python -m game --bot NAME``), and headless runs take them (``--headless --bot NAME``). Each has one line
of description, listed by ``python -m game.eval players`` and in the README.

Groups: ``ladder`` is the four skill presets of ``game.bot`` (the A/B's default), ``zoo`` the models that
play differently (``game.zoo.models``), ``all`` both plus ``still``.

A model from outside the game is named ``package.module:Factory``, where ``Factory(seed)`` returns an
object with ``act(world) -> PlayerInput`` and ``choose_upgrade(world) -> str``: the evaluation can then be
run on a model the director was never tuned on, without editing the game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from game.bot import LADDER, Bot
from game.errors import UnknownPlayerModel as UnknownPlayer
from game.sim.player import PlayerInput
from game.sim.world import World
from game.zoo import models


class Policy(Protocol):
    def act(self, world: World) -> PlayerInput: ...

    def choose_upgrade(self, world: World) -> str: ...


@dataclass(frozen=True)
class PlayerModel:
    name: str
    summary: str  # one line, for --help, the report and the README
    make: Callable[[int], Policy]  # seed -> a fresh policy


def _bot(skill: str) -> Callable[[int], Policy]:
    return lambda seed: Bot(skill, seed=seed)  # type: ignore[arg-type]


_LADDER_LINES = {
    "novice": "first-time player: slow to react, poor aim, walks into bullets, never dashes",
    "weak": "a little quicker and steadier than the novice, still no dodging or dashing",
    "average": "kites and circles the crowd, dodges bullets, builds spread shot and missiles",
    "strong": "quick and precise, dodges and dashes out of trouble, builds and evolves weapons",
    "still": "a first-time player who stands where it spawned and shoots (never moves)",
}
_ZOO: tuple[tuple[str, type[models.Model]], ...] = (
    ("charger", models.Charger),
    ("camper", models.Camper),
    ("afk", models.Afk),
    ("panicker", models.Panicker),
    ("dasher", models.Dasher),
    ("stick", models.Stick),
    ("looter", models.Looter),
    ("circler", models.Circler),
    ("wanderer", models.Wanderer),
    ("sniper", models.Sniper),
)


def _first_line(cls: type) -> str:
    return " ".join((cls.__doc__ or cls.__name__).split())


MODELS: dict[str, PlayerModel] = {
    **{n: PlayerModel(n, line, _bot(n)) for n, line in _LADDER_LINES.items()},
    **{n: PlayerModel(n, cls.summary, cls) for n, cls in _ZOO},
    "idle": PlayerModel("idle", models.Idle.summary, models.Idle),  # the stakes check; in no group
}
GROUPS: dict[str, tuple[str, ...]] = {
    "ladder": LADDER,
    "zoo": tuple(n for n, _ in _ZOO),
    "all": (*LADDER, "still", *(n for n, _ in _ZOO)),
}


def is_external(name: str) -> bool:
    return ":" in name


def resolve(name: str) -> PlayerModel:
    """The model called ``name`` (built in, or ``package.module:Factory``)."""
    if name in MODELS:
        return MODELS[name]
    if is_external(name):
        module, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise UnknownPlayer(
                f"player model {name!r}: cannot load {attr!r} from {module!r} ({exc})"
            ) from exc
        return PlayerModel(name, getattr(factory, "summary", "") or _first_line(factory), factory)
    raise UnknownPlayer(
        f"unknown player model {name!r}; known: {', '.join(GROUPS['all'])} (or module:Factory)"
    )


def make_player(name: str, seed: int) -> Policy:
    return resolve(name).make(seed)


def expand(names: Sequence[str]) -> tuple[str, ...]:
    """Names separated by commas or spaces, with group names (ladder, zoo, all) spread out; each model once,
    in order. Raises ``UnknownPlayer`` for a name that does not resolve."""
    out: list[str] = []
    for part in names:
        for name in filter(None, (s.strip() for s in part.split(","))):
            for n in GROUPS.get(name, (name,)):
                resolve(n)
                if n not in out:
                    out.append(n)
    return tuple(out)
