"""What happened during a tick. The world appends these; views (sounds, effects), telemetry, mods and the
director read them. Frozen dataclasses: internal messages, never mutated."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# Why an enemy appeared: every spawn names one cause (``EnemySpawned.source``; F10 counts the last 30 s).
SpawnCause = Literal["wave", "bank", "event", "presence", "split", "mod", "world"]
SPAWN_CAUSES: dict[str, str] = {
    "wave": "the wave itself: static difficulty's spawner, and the boss of a boss wave",
    "bank": "the director's credit bank buying cards",
    "event": "a director event a plan named (surround, swarm, boss, ...)",
    "presence": "the director's presence floor: enemies brought in when the view ran short",
    "split": "a splitter's children when it dies",
    "mod": "a Lua mod, the console or an MCP agent",
    "world": "anything else (a test or a scene that places enemies by hand)",
}


@dataclass(frozen=True)
class EnemySpawned:
    id: int
    prefab: str
    x: float
    y: float
    elite: bool
    source: str  # its cause: one of SPAWN_CAUSES


@dataclass(frozen=True)
class EnemyKilled:
    id: int
    prefab: str
    x: float
    y: float
    elite: bool
    score: int
    near_player: bool


@dataclass(frozen=True)
class EnemyRemoved:
    """Removed without a kill (a world command or a mod destroyed it)."""

    id: int
    prefab: str


@dataclass(frozen=True)
class PlayerDamaged:
    amount: float
    hp_after: float
    source: str


@dataclass(frozen=True)
class PlayerDied:
    time: float
    wave: int


@dataclass(frozen=True)
class RunWon:
    """The player survived the final wave: the run is won and over."""

    time: float
    wave: int


@dataclass(frozen=True)
class ShotFired:
    count: int


@dataclass(frozen=True)
class EnemyHit:
    count: int


@dataclass(frozen=True)
class PickupCollected:
    kind: str
    value: float


@dataclass(frozen=True)
class LevelUp:
    level: int


@dataclass(frozen=True)
class WaveStarted:
    wave: int
    duration: float


@dataclass(frozen=True)
class WaveEnded:
    wave: int


@dataclass(frozen=True)
class Dashed:
    pass


@dataclass(frozen=True)
class WeaponGained:
    """A weapon card was taken: a new weapon (level 1) or a level for a held one."""

    weapon: str
    level: int


@dataclass(frozen=True)
class WeaponEvolved:
    weapon: str
    evolved: str


@dataclass(frozen=True)
class Exploded:
    """An exploding enemy went off at (x, y)."""

    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class ShieldBlocked:
    """A shielded enemy's front shield stopped a player bullet at (x, y) (one event per bullet, capped)."""

    x: float
    y: float


@dataclass(frozen=True)
class Rescued:
    """The director's rescue shockwave at (x, y) pushed ``pushed`` enemies out of ``radius``
    (``game/director/reflexes.py``, ``Rescue``)."""

    x: float
    y: float
    radius: float
    pushed: int


Event = (
    EnemySpawned
    | EnemyKilled
    | EnemyRemoved
    | PlayerDamaged
    | PlayerDied
    | ShotFired
    | EnemyHit
    | PickupCollected
    | LevelUp
    | WaveStarted
    | WaveEnded
    | RunWon
    | Dashed
    | WeaponGained
    | WeaponEvolved
    | Exploded
    | ShieldBlocked
    | Rescued
)
