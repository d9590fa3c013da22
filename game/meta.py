"""Light meta progression: achievements earned in a player's runs unlock weapons for later runs.

``saves/meta.json`` holds the earned achievements and a few lifetime counts. It is written atomically; a
file that fails to parse or validate is quarantined (``meta.json.corrupt-<time>``) and progress starts
clean, with a warning the game shows. Only the player's own runs count: bot demos, headless bot runs and an
MCP agent's (``--frozen``) runs neither earn nor use unlocks, so they stay reproducible from their seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from loguru import logger
from pydantic import BaseModel, Field

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.paths import saves_path
from coreai.persist import atomic_write_json, read_model
from game.headless import RunSummary
from game.sim.config import FINAL_WAVE
from game.sim.weapon_data import WeaponCatalogue, catalogue

if TYPE_CHECKING:
    from game.ports import ArenaHooks
    from game.sim.world import World

log = logger.bind(feature="game", trace_id=None)


def full_win(summary: RunSummary) -> bool:
    """A win of the full run: a shorter one (``--waves N``) stays in the history and the high scores but
    earns no win and no achievement here."""
    return summary.won and summary.waves_reached >= FINAL_WAVE


@dataclass(frozen=True)
class Achievement:
    key: str
    name: str
    goal: str
    reached: Callable[[RunSummary], bool]


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("reach_wave_5", "Survivor", "reach wave 5", lambda s: s.waves_reached >= 5),
    Achievement("slay_a_boss", "Giant Slayer", "defeat a boss", lambda s: s.bosses_killed >= 1),
    Achievement("evolve_a_weapon", "Alchemist", "evolve a weapon", lambda s: bool(s.evolutions)),
    Achievement("win_a_run", "Champion", "survive the final wave", lambda s: full_win(s)),
)
_BY_KEY = {a.key: a for a in ACHIEVEMENTS}


class MetaProgress(BaseModel):
    version: int = 1
    achievements: dict[str, float] = Field(default_factory=dict)  # key -> unix time earned
    runs: int = Field(0, ge=0)
    best_wave: int = Field(0, ge=0)
    total_kills: int = Field(0, ge=0)
    wins: int = Field(0, ge=0)


class MetaStore:
    def __init__(self, path: Path | None = None, cat: WeaponCatalogue | None = None) -> None:
        self.path = path if path is not None else saves_path("meta.json")
        self.cat = cat or catalogue()
        self.warnings: list[str] = []
        self.progress = self._load()

    def _load(self) -> MetaProgress:
        try:
            return read_model(self.path, MetaProgress)
        except FileNotFoundError:
            return MetaProgress()
        except CorruptSaveError as exc:
            self.warnings.append(
                f"progress file was unreadable; moved aside to {Path(exc.quarantined_to or '').name}"
            )
        except OSError as exc:
            self.warnings.append(f"progress file could not be read ({exc}); starting clean")
        return MetaProgress()

    def available_weapons(self) -> frozenset[str]:
        earned = self.progress.achievements
        return self.cat.always_available() | {k for k, need in self.cat.unlocks().items() if need in earned}

    def record(self, summary: RunSummary) -> list[str]:
        """Fold a finished run in; returns player-facing lines for what it newly unlocked."""
        p = self.progress
        p.runs += 1
        p.best_wave = max(p.best_wave, summary.waves_reached)
        p.total_kills += summary.kills
        p.wins += int(full_win(summary))
        lines = []
        for a in ACHIEVEMENTS:
            if a.key in p.achievements or not a.reached(summary):
                continue
            p.achievements[a.key] = time.time()
            unlocked = [self.cat.get(k).name for k, need in self.cat.unlocks().items() if need == a.key]
            lines.append(f"{a.name}: {a.goal}" + (f" - unlocked {', '.join(unlocked)}" if unlocked else ""))
        try:
            atomic_write_json(self.path, p.model_dump(mode="json"))
        except PersistenceError as exc:
            log.error("could not save progress: {}", exc)
            self.warnings.append(str(exc))
        return lines

    def locked(self) -> list[str]:
        """Player-facing lines for the weapons still locked and how to unlock them."""
        earned = self.progress.achievements
        return [
            f"{self.cat.get(k).name}: {_BY_KEY[need].goal}" if need in _BY_KEY else self.cat.get(k).name
            for k, need in self.cat.unlocks().items()
            if need not in earned
        ]


def attach_meta(app: ArenaHooks, toast: Callable[[str, float], None]) -> MetaStore | None:
    """The window game: the player's runs earn achievements; every run offers the weapons unlocked so far
    (``toast``: a notice to the player)."""
    try:
        meta = MetaStore()
    except (PersistenceError, OSError) as exc:
        log.error("progress unavailable: {}", exc)
        return None
    for warning in meta.warnings:
        toast(warning, 6.0)

    agent = app.options.frozen  # an MCP agent's run is the same game headless: no unlocks in or out

    def on_start(world: World) -> None:
        if app.options.bot is None and not agent:
            world.available_weapons = meta.available_weapons()

    def on_record(summary: RunSummary) -> None:
        if summary.bot is not None or agent:
            return
        for line in meta.record(summary):
            toast(f"ACHIEVEMENT  {line}", 5.0)

    app.on_run_start(on_start)
    app.on_run_recorded(on_record)
    return meta
