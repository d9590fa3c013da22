"""Run history and high scores under ``saves/``.

Both files are written atomically. A corrupt or unreadable file is moved aside to ``*.corrupt-<time>``; the
game starts clean and ``SaveStore.warnings`` carries a message the UI shows.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TypeVar

from loguru import logger
from pydantic import BaseModel, Field, ValidationError

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.paths import saves_path
from coreai.persist import atomic_write_json, quarantine, read_json
from game.headless import RunSummary

log = logger.bind(feature="game")
M = TypeVar("M", bound=BaseModel)
MAX_HISTORY = 200
MAX_HIGH_SCORES = 10


class RunRecord(BaseModel):
    finished_at: float = Field(default_factory=time.time)
    summary: RunSummary


class RunHistory(BaseModel):
    version: int = 1
    runs: list[RunRecord] = []


class HighScore(BaseModel):
    score: int
    wave: int
    seconds: float
    seed: int
    bot: str | None = None
    finished_at: float = Field(default_factory=time.time)


class HighScores(BaseModel):
    version: int = 1
    entries: list[HighScore] = []


class SaveStore:
    """Loads both files once; every ``record_run`` rewrites them atomically."""

    def __init__(self, root: Path | None = None) -> None:
        self.history_path = (root / "runs.json") if root else saves_path("runs.json")
        self.scores_path = (root / "highscores.json") if root else saves_path("highscores.json")
        self.warnings: list[str] = []
        self.history = self._load(self.history_path, RunHistory)
        self.scores = self._load(self.scores_path, HighScores)

    def _load(self, path: Path, model: type[M]) -> M:
        if not path.exists():
            return model()
        try:
            return model.model_validate(read_json(path))
        except CorruptSaveError as exc:
            self.warnings.append(
                f"{path.name} was unreadable; moved aside to {Path(exc.quarantined_to or '').name}"
            )
        except ValidationError as exc:
            moved = quarantine(path, f"schema mismatch: {exc.error_count()} errors")
            self.warnings.append(f"{path.name} had invalid contents; moved aside to {moved.name}")
        except OSError as exc:
            self.warnings.append(f"{path.name} could not be read ({exc}); starting clean")
        return model()

    def record_run(self, summary: RunSummary) -> int | None:
        """Store a finished run; returns its 1-based high-score rank, or None if it did not place."""
        self.history.runs.append(RunRecord(summary=summary))
        self.history.runs = self.history.runs[-MAX_HISTORY:]
        entry = HighScore(
            score=summary.final_score,
            wave=summary.waves_reached,
            seconds=summary.seconds,
            seed=summary.seed,
            bot=summary.bot,
        )
        entries = sorted([*self.scores.entries, entry], key=lambda h: (-h.score, h.finished_at))
        self.scores.entries = entries[:MAX_HIGH_SCORES]
        rank = next((i + 1 for i, h in enumerate(self.scores.entries) if h is entry), None)
        try:
            atomic_write_json(self.history_path, self.history.model_dump(mode="json"))
            atomic_write_json(self.scores_path, self.scores.model_dump(mode="json"))
        except PersistenceError as exc:
            log.error("could not save run: {}", exc)
            self.warnings.append(str(exc))
        return rank

    def high_scores(self) -> list[HighScore]:
        return list(self.scores.entries)

    def best_score(self) -> int:
        return self.scores.entries[0].score if self.scores.entries else 0
