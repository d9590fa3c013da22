"""Atomic writes and forgiving reads for everything under ``saves/``.

Writes go to a temporary file in the same folder, are flushed and fsynced, then renamed over the target, so
a crash leaves either the old file or the new one, never half of each. A file that cannot be read back is
moved aside to ``<name>.corrupt-<time>`` and reported; the caller starts clean and nothing is lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from loguru import logger

from coreai.errors import CorruptSaveError, PersistenceError

log = logger.bind(feature="game")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise PersistenceError(str(path), f"write failed: {exc}") from exc
    try:  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def quarantine(path: Path, reason: str) -> Path:
    """Move an unreadable file aside to ``<name>.corrupt-<time>`` and return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    os.replace(path, target)
    log.warning("quarantined unreadable save {} -> {}: {}", path, target.name, reason)
    return target


def read_json(path: Path) -> Any:
    """Parse a JSON file; a parse failure quarantines it and raises ``CorruptSaveError``."""
    try:
        text = path.read_text(encoding="utf-8")
        return json.loads(text)
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        moved = quarantine(path, str(exc))
        raise CorruptSaveError(str(path), f"unreadable ({exc}); moved to {moved.name}", str(moved)) from exc
