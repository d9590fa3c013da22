"""Run history and high scores under ``saves/``: one logical save in two files, repaired at startup.

``runs.json`` is the journal: every finished run is appended there first, with a sequence number. The
high-score tables in ``highscores.json`` are derived from it and remember the last run they include
(``applied_seq``), so a kill between the two writes is repaired the next time the store loads: the runs the
tables miss are applied again. A high-score file that is corrupt is quarantined and rebuilt from the runs.

Two tables: ``entries`` holds runs a person played, ``bot_entries`` bot and headless runs. A run that
scored 0 is kept in the history but never enters or shows in either table.

Both files are written atomically; stale ``.tmp`` files of killed writes are removed at load. A corrupt or
schema-invalid file, one with keys this game does not know included (``SaveModel``), is moved aside to
``*.corrupt-<time>`` (never overwritten) and ``SaveStore.warnings`` carries a message the UI shows; what can
still be read from it is kept (``salvage``), so an unknown key never costs the history.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TypeVar

from loguru import logger
from pydantic import BaseModel, Field

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.paths import saves_path
from coreai.persist import SaveModel, atomic_write_json, clean_stale_tmp, read_model, salvage
from game.headless import RunSummary

log = logger.bind(feature="game")
M = TypeVar("M", bound=BaseModel)
MAX_HISTORY = 200
MAX_HIGH_SCORES = 10


class RunRecord(SaveModel):
    seq: int = 0  # 0 only in files written before sequence numbers existed
    finished_at: float = Field(default_factory=time.time)
    human: bool | None = None  # None: an old record; a run without a bot counts as human
    summary: RunSummary

    @property
    def by_human(self) -> bool:
        return self.human if self.human is not None else self.summary.bot is None


class RunHistory(SaveModel):
    version: int = 2
    runs: list[RunRecord] = Field(default_factory=list)


class HighScore(SaveModel):
    score: int
    wave: int
    seconds: float
    seed: int
    bot: str | None = None
    finished_at: float = Field(default_factory=time.time)
    seq: int = 0
    won: bool = False  # the run survived its final wave


class HighScores(SaveModel):
    version: int = 2
    entries: list[HighScore] = Field(default_factory=list)  # human runs
    bot_entries: list[HighScore] = Field(default_factory=list)  # bot and headless runs
    applied_seq: int | None = None  # the newest run of runs.json these tables include (None: old file)


def _entry(rec: RunRecord) -> HighScore:
    s = rec.summary
    return HighScore(score=s.final_score, wave=s.waves_reached, seconds=s.seconds, seed=s.seed, bot=s.bot,
                     finished_at=rec.finished_at, seq=rec.seq, won=s.won)  # fmt: skip


class SaveStore:
    """Loads both files once (repairing them); every ``record_run`` rewrites them atomically."""

    def __init__(self, root: Path | None = None) -> None:
        self.history_path = (root / "runs.json") if root else saves_path("runs.json")
        self.scores_path = (root / "highscores.json") if root else saves_path("highscores.json")
        self.warnings: list[str] = []
        clean_stale_tmp(self.history_path.parent)
        self.history = self._load(self.history_path, RunHistory) or RunHistory()
        self._number_old_runs()
        scores = self._load(self.scores_path, HighScores)
        self.scores = self._migrate(scores)
        self._repair()

    def _load(self, path: Path, model: type[M]) -> M | None:
        try:
            return read_model(path, model)
        except FileNotFoundError:
            return None
        except CorruptSaveError as exc:
            moved = Path(exc.quarantined_to or "")
            kept = salvage(moved, model) if exc.quarantined_to else None
            self.warnings.append(
                f"{path.name} was unreadable or invalid ({exc.reason or exc}); moved aside to {moved.name}"
                + ("; what could be read was kept" if kept is not None else "")
            )
            log.warning("{}", self.warnings[-1])
            return kept
        except OSError as exc:
            self.warnings.append(f"{path.name} could not be read ({exc}); starting clean")
        return None

    # ------------------------------------------------------------------ load-time repair
    def _number_old_runs(self) -> None:
        last = 0
        for rec in self.history.runs:
            if rec.seq <= last:
                rec.seq = last + 1
            last = rec.seq

    def _migrate(self, scores: HighScores | None) -> HighScores:
        if scores is None:  # missing or quarantined: rebuilt from every run in the history
            return HighScores(applied_seq=0)
        if scores.applied_seq is None:  # a version-1 file: consistent with runs.json when it was written
            old = scores.entries
            scores = HighScores(
                entries=[h for h in old if h.bot is None],
                bot_entries=[h for h in old if h.bot is not None],
                applied_seq=self._last_seq(),
            )
        scores.entries = self._table(scores.entries)
        scores.bot_entries = self._table(scores.bot_entries)
        return scores

    def _repair(self) -> None:
        applied = self.scores.applied_seq or 0
        missing = [rec for rec in self.history.runs if rec.seq > applied]
        for rec in missing:
            self._apply(rec)
        self.scores.applied_seq = max(applied, self._last_seq())
        if missing:
            log.info("high scores rebuilt/repaired from runs.json: {} run(s) applied", len(missing))
            self._write(self.scores_path, self.scores)

    # ------------------------------------------------------------------ recording
    def _last_seq(self) -> int:
        return self.history.runs[-1].seq if self.history.runs else 0

    @staticmethod
    def _table(entries: list[HighScore]) -> list[HighScore]:
        ranked = sorted((h for h in entries if h.score > 0), key=lambda h: (-h.score, h.finished_at, h.seq))
        return ranked[:MAX_HIGH_SCORES]

    def _apply(self, rec: RunRecord) -> int | None:
        """Put ``rec`` in its table; returns its 1-based rank there, or None if it did not place."""
        if rec.summary.final_score <= 0:
            return None
        entry = _entry(rec)
        if rec.by_human:
            self.scores.entries = table = self._table([*self.scores.entries, entry])
        else:
            self.scores.bot_entries = table = self._table([*self.scores.bot_entries, entry])
        return next((i + 1 for i, h in enumerate(table) if h is entry), None)

    def _write(self, path: Path, model: BaseModel) -> None:
        try:
            atomic_write_json(path, model.model_dump(mode="json"))
        except PersistenceError as exc:
            log.error("could not save {}: {}", path.name, exc)
            self.warnings.append(str(exc))

    def record_run(self, summary: RunSummary, *, human: bool | None = None) -> int | None:
        """Store a finished run; returns its rank in its table (human or bot), or None if it did not place.

        ``human`` defaults to "no bot played"; the headless CLI passes False."""
        seq = max(self._last_seq(), self.scores.applied_seq or 0) + 1
        rec = RunRecord(seq=seq, summary=summary,
                        human=human if human is not None else summary.bot is None)  # fmt: skip
        self.history.runs = [*self.history.runs, rec][-MAX_HISTORY:]
        self._write(self.history_path, self.history)  # the commit point: the tables are derived
        rank = self._apply(rec)
        self.scores.applied_seq = rec.seq
        self._write(self.scores_path, self.scores)
        return rank

    def high_scores(self, *, bots: bool = False) -> list[HighScore]:
        """The human table (or with ``bots=True`` the bot/headless table), best first, no zero scores."""
        return list(self.scores.bot_entries if bots else self.scores.entries)

    def best_score(self) -> int:
        return self.scores.entries[0].score if self.scores.entries else 0
