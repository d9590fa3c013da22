"""The last lines of the game's log, kept in memory for the ``.../log`` resource (a loguru sink).

``LogTail.install(level)`` adds the sink; every line is kept (at most ``max_lines``) and ``on_line`` is told,
so a resource subscription can hear of it. ``remove()`` takes the sink away again.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from loguru import logger

from coreai.logging import LINE_FORMAT


class LogTail:
    def __init__(self, max_lines: int = 500, on_line: Callable[[], None] | None = None) -> None:
        self.lines: deque[str] = deque(maxlen=max_lines)
        self.on_line = on_line
        self.total = 0
        self._lock = threading.Lock()
        self._id: int | None = None

    def install(self, level: str = "INFO") -> LogTail:
        if self._id is None:
            self._id = logger.add(self._write, level=level, format=LINE_FORMAT, colorize=False)
        return self

    def remove(self) -> None:
        if self._id is not None:
            logger.remove(self._id)
            self._id = None

    def _write(self, message: Any) -> None:
        with self._lock:
            self.lines.append(str(message).rstrip("\n"))
            self.total += 1
        if self.on_line is not None:
            self.on_line()

    def tail(self, n: int = 100) -> list[str]:
        with self._lock:
            lines = list(self.lines)
        return lines[-n:]
