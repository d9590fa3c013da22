"""The window's record of finished runs: the saves folder (high scores, run history) and the hooks told of
every finished run (meta unlocks, the AI session's game-over analysis).

An unusable saves folder or a run that cannot be written never ends the game: the player is told once in a
toast, the detail goes to the log, and play goes on without saves.
"""

from __future__ import annotations

from collections.abc import Callable

from arcade.types import Color
from loguru import logger

from coreai.errors import CoreAIError
from game.headless import RunSummary
from game.render import palette
from game.saves import HighScore, SaveStore

log = logger.bind(feature="game", trace_id=None)

Toast = Callable[[str, float, Color], None]


class RunRecords:
    def __init__(self, toast: Toast) -> None:
        self._toast = toast
        self._store: SaveStore | None = None
        self._failed = False
        self.hooks: list[Callable[[RunSummary], None]] = []  # told of every finished run

    def store(self) -> SaveStore | None:
        if self._store is None and not self._failed:
            try:
                self._store = SaveStore()
            except (CoreAIError, OSError) as exc:  # an unusable saves folder: play on without saves
                self._failed = True
                log.error("saves unavailable: {}", exc)
                self._toast(f"saves unavailable: {exc}", 6.0, palette.WARN)
        return self._store

    def record(self, summary: RunSummary) -> tuple[bool, int | None]:
        """Tell the hooks, then write the run: (written, its high-score rank or None)."""
        for hook in list(self.hooks):
            try:
                hook(summary)
            except Exception as exc:  # a plug-in must not lose the run
                log.opt(exception=exc).error("record hook failed: {}", exc)
        store = self.store()
        if store is None:
            return False, None
        try:
            return True, store.record_run(summary)
        except (CoreAIError, OSError) as exc:
            log.error("could not record the run: {}", exc)
            self._toast(f"run not saved: {exc}", 6.0, palette.WARN)
            return False, None

    def high_scores(self, *, bots: bool = False) -> list[HighScore]:
        store = self.store()
        return store.high_scores(bots=bots) if store is not None else []

    def best_score(self) -> int:
        store = self.store()
        return store.best_score() if store is not None else 0

    def warnings(self) -> list[str]:
        store = self.store()
        return list(store.warnings) if store is not None else []
