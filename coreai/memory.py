"""Per-role agent memory and chat history, persisted atomically under ``saves/agent_memory/<Role>.json``.

``memory`` is the agent's own notes (written by the ``memory`` tool: write / append / clear). ``history``
holds recent chat turns for conversational roles; past ``compact_after`` entries the older ones are folded
deterministically into ``summary`` (``coreai.history``). Every change is written with
``coreai.persist.atomic_write_json``; a file that does not parse or validate is quarantined to
``*.corrupt-<time>`` (never a crash), and what can still be read from it is kept, as ``runs.json`` and
``mod_settings.json`` do: an unknown key (a newer game's, a hand edit) or one bad field costs only itself,
a bad history turn only that turn (``salvage_record``); the role starts clean only when nothing parses.
``last_error(role)`` says what happened.
Only visible text is ever stored here: callers pass content, never reasoning.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from loguru import logger
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.history import HistoryEntry, compact_history
from coreai.paths import saves_root
from coreai.persist import atomic_write_json, loads_json, read_model
from coreai.settings import ROLE_PATTERN, MemorySettings

_log = logger.bind(feature="agents")
_ROLE = re.compile(ROLE_PATTERN)


class AgentMemoryRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = 1
    role: str
    memory: str = ""
    summary: str = ""
    history: list[HistoryEntry] = Field(default_factory=list)
    updated: float = 0.0


class MemoryStore:
    def __init__(self, root: Path | None = None, config: MemorySettings | None = None) -> None:
        self._root = root
        self.config = config or MemorySettings()
        self._lock = threading.RLock()
        self._cache: dict[str, AgentMemoryRecord] = {}
        self._errors: dict[str, str] = {}

    @property
    def root(self) -> Path:
        return self._root if self._root is not None else saves_root() / "agent_memory"

    def path_for(self, role: str) -> Path:
        if not _ROLE.fullmatch(role):
            raise PersistenceError(str(self.root / role), f"invalid role name for a memory file: {role!r}")
        return self.root / f"{role}.json"

    # -- reading ------------------------------------------------------------------------------------------
    def load(self, role: str) -> AgentMemoryRecord:
        with self._lock:
            cached = self._cache.get(role)
            if cached is not None:
                return cached
            record = self._read(role)
            self._cache[role] = record
            return record

    def _read(self, role: str) -> AgentMemoryRecord:
        path = self.path_for(role)
        try:
            record = read_model(path, AgentMemoryRecord)
        except FileNotFoundError:
            return AgentMemoryRecord(role=role)
        except CorruptSaveError as exc:  # unreadable, too deep, or invalid: moved aside, never overwritten
            salvaged = salvage_record(Path(exc.quarantined_to), role) if exc.quarantined_to else None
            if salvaged is None:
                self._errors[role] = str(exc)
                _log.warning("memory of {} was corrupt and starts clean: {}", role, exc)
                return AgentMemoryRecord(role=role)
            record, dropped = salvaged
            self._errors[role] = (
                f"{exc}; kept what could be read ({len(record.memory)} characters of notes, "
                f"{len(record.history)} chat turns), dropped: {', '.join(dropped) or 'nothing'}"
            )
            _log.warning("memory of {} was invalid: {}", role, self._errors[role])
            try:  # back in place at once, so the next start reads it without the quarantine
                atomic_write_json(path, record.model_dump(mode="json"))
            except PersistenceError as write_exc:
                _log.warning("memory of {} could not be rewritten: {}", role, write_exc)
            return record
        if record.role != role:
            record = record.model_copy(update={"role": role})
        return record

    def last_error(self, role: str) -> str | None:
        """Why this role's memory started clean (a quarantined file), if it did."""
        return self._errors.get(role)

    def memory(self, role: str) -> str:
        return self.load(role).memory

    def history(self, role: str) -> tuple[str, list[HistoryEntry]]:
        record = self.load(role)
        return record.summary, list(record.history)

    # -- writing ------------------------------------------------------------------------------------------
    def _save(self, record: AgentMemoryRecord) -> None:
        record.updated = time.time()
        atomic_write_json(self.path_for(record.role), record.model_dump(mode="json"))
        self._cache[record.role] = record

    def _cap(self, text: str) -> str:
        limit = self.config.max_memory_chars
        if len(text) <= limit:
            return text
        cut = text[len(text) - limit :]  # keep the newest notes
        newline = cut.find("\n")
        return cut[newline + 1 :] if 0 <= newline < 200 else cut

    def write(self, role: str, text: str) -> str:
        with self._lock:
            record = self.load(role).model_copy(deep=True)
            record.memory = self._cap(text.strip())
            self._save(record)
            return record.memory

    def append(self, role: str, text: str) -> str:
        with self._lock:
            record = self.load(role).model_copy(deep=True)
            joined = f"{record.memory}\n{text.strip()}" if record.memory else text.strip()
            record.memory = self._cap(joined)
            self._save(record)
            return record.memory

    def clear(self, role: str) -> None:
        with self._lock:
            record = self.load(role).model_copy(deep=True)
            record.memory = ""
            self._save(record)

    def append_turn(self, role: str, user: str, assistant: str) -> None:
        """Record one exchange; compacts older turns into the summary when history grows too long."""
        cfg = self.config
        with self._lock:
            record = self.load(role).model_copy(deep=True)
            record.history.append(HistoryEntry(role="user", content=user[:20_000]))
            record.history.append(HistoryEntry(role="assistant", content=assistant[:20_000]))
            if len(record.history) > cfg.history_compact_after:
                record.summary, record.history = compact_history(
                    record.history,
                    keep_recent=cfg.history_keep_recent,
                    previous_summary=record.summary,
                    max_chars=cfg.summary_max_chars,
                )
            self._save(record)

    def clear_history(self, role: str) -> None:
        with self._lock:
            record = self.load(role).model_copy(deep=True)
            record.history, record.summary = [], ""
            self._save(record)


def salvage_record(path: Path, role: str) -> tuple[AgentMemoryRecord, list[str]] | None:
    """What can still be read from the quarantined memory file ``path``: every known field that validates
    on its own, and every history turn that does (unknown keys inside a turn dropped); with what was
    dropped. None when the file does not parse to a JSON object."""
    try:
        data = loads_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    fields = AgentMemoryRecord.model_fields
    kept: dict[str, object] = {}
    dropped: list[str] = []
    for key, value in data.items():
        if key == "role":
            continue  # the file's name says whose it is
        if key not in fields:
            dropped.append(f"unknown key '{key}'")
            continue
        if key == "history" and isinstance(value, list):
            turns, bad = _salvage_turns(value)
            kept[key] = turns
            if bad:
                dropped.append(f"{bad} unreadable history turn(s)")
            continue
        try:
            AgentMemoryRecord.model_validate({"role": role, key: value})
        except ValidationError:
            dropped.append(f"invalid '{key}'")
            continue
        kept[key] = value
    return AgentMemoryRecord.model_validate({**kept, "role": role}), dropped


def _salvage_turns(raw: list[object]) -> tuple[list[HistoryEntry], int]:
    known = HistoryEntry.model_fields
    turns: list[HistoryEntry] = []
    for item in raw:
        try:
            if not isinstance(item, dict):
                raise ValueError("not an object")
            turns.append(HistoryEntry.model_validate({k: v for k, v in item.items() if k in known}))
        except ValueError:  # ValidationError is a ValueError
            continue
    return turns, len(raw) - len(turns)
