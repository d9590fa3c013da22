"""The director's memory: a short rolling list of one-line notes a plan may write (``DirectorPlan.note``).

The notes go to every plan request, so an LLM director can remember what it tried ("raised at wave 3,
player died twice"). With a path they persist atomically (``saves/agent_memory/director_notes.json`` by
default); a corrupt file is quarantined and the director starts with no notes. Evaluation and replay use an
in-memory instance (``path=None``) so a run never depends on what an earlier run wrote.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from loguru import logger
from pydantic import BaseModel, ConfigDict, Field

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.paths import saves_path
from coreai.persist import atomic_write_json, read_model
from game.director.plan import NOTE_MAX

MAX_NOTES = 8
_log = logger.bind(feature="director", trace_id="-")


class _NotesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = 1
    notes: list[str] = Field(default_factory=list)


def default_memory_path() -> Path:
    return saves_path("agent_memory", "director_notes.json")


class DirectorMemory:
    def __init__(self, notes: list[str] | None = None, *, path: Path | None = None) -> None:
        self.path = path
        self.warning: str | None = None
        self._notes: deque[str] = deque(maxlen=MAX_NOTES)
        if notes is None and path is not None:
            notes = self._load(path)
        for n in notes or []:
            self._notes.append(str(n)[:NOTE_MAX])

    @classmethod
    def persistent(cls) -> DirectorMemory:
        return cls(path=default_memory_path())

    def notes(self) -> list[str]:
        return list(self._notes)

    def add(self, note: str) -> None:
        text = " ".join(note.split())[:NOTE_MAX]
        if not text:
            return
        self._notes.append(text)
        if self.path is not None:
            try:
                atomic_write_json(self.path, _NotesFile(notes=list(self._notes)).model_dump())
            except PersistenceError as exc:
                self.warning = str(exc)
                _log.error("director memory not saved: {}", exc)

    def _load(self, path: Path) -> list[str]:
        if not path.exists():
            return []
        try:
            return read_model(path, _NotesFile).notes
        except CorruptSaveError as exc:  # unreadable, too deep or invalid: quarantined by read_model
            self.warning = str(exc)
        except OSError as exc:
            self.warning = f"{path.name} could not be read ({exc})"
        _log.warning("director memory starts empty: {}", self.warning)
        return []
