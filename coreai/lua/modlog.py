"""Per-mod log: a bounded ring of entries (print, warn, report, error, fault) readable back by the game.

Lines a mod writes in one entry into its code are capped so a print loop cannot flood memory or the log
sink; warnings, errors and faults also go to loguru with the mod name and trace id.
"""

from __future__ import annotations

import time
from collections import deque

from loguru import logger

from coreai.lua.results import LogEntry

_LOUD = {"warn": "WARNING", "error": "ERROR", "fault": "ERROR", "report": "INFO", "info": "INFO"}


class ModLog:
    def __init__(self, mod: str, capacity: int = 200, lines_per_call: int = 100) -> None:
        self.mod = mod
        self._entries: deque[LogEntry] = deque(maxlen=capacity)
        self._seq = 0
        self._lines_per_call = lines_per_call
        self._call_lines = 0
        self._suppressed = 0
        self.trace_id: str | None = None

    @property
    def seq(self) -> int:
        """Sequence number of the newest entry (0 before the first)."""
        return self._seq

    def begin_call(self, trace_id: str | None = None) -> None:
        """Start a new entry into mod code: resets the per-call line cap."""
        if self._suppressed:
            self._append(
                "warn", f"{self._suppressed} more lines suppressed (limit {self._lines_per_call} per call)"
            )
        self._call_lines = 0
        self._suppressed = 0
        self.trace_id = trace_id

    def write(self, level: str, message: str, line: int | None = None) -> LogEntry | None:
        """A line the mod wrote (print/warn/report); dropped past the per-call cap."""
        self._call_lines += 1
        if self._call_lines > self._lines_per_call:
            self._suppressed += 1
            return None
        return self._append(level, message, line)

    def system(self, level: str, message: str, line: int | None = None) -> LogEntry:
        """A line the manager writes about the mod (errors, faults, reverts); never capped."""
        return self._append(level, message, line)

    def entries(self, since: int = 0, limit: int | None = None) -> list[LogEntry]:
        items = [e for e in self._entries if e.seq > since]
        return items[-limit:] if limit else items

    def _append(self, level: str, message: str, line: int | None = None) -> LogEntry:
        self._seq += 1
        entry = LogEntry(self._seq, time.time(), self.mod, level, message, line, self.trace_id)
        self._entries.append(entry)
        loud = _LOUD.get(level)
        if loud:
            logger.bind(feature="lua", trace_id=self.trace_id, mod=self.mod).log(loud, "{}", str(entry))
        return entry
