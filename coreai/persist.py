"""Atomic writes, bounded JSON parsing and forgiving reads for everything under ``saves/``.

Writes go to a temporary file in the same folder, are flushed and fsynced, then renamed over the target, so
a crash leaves either the old file or the new one, never half of each. A file that cannot be read back, or
that parses but does not validate against its model, is moved aside to ``<name>.corrupt-<time>`` and
reported; the caller starts clean and nothing is lost (the bad bytes stay in the quarantined file).

``loads_json`` is the one JSON parser for anything read from disk or the network: it refuses nesting deeper
than ``MAX_JSON_DEPTH`` before the (recursive) decoder runs, so ``[[[[...`` cannot raise RecursionError.
``clean_stale_tmp`` removes the ``.<name>.*.tmp`` files a killed write leaves behind.

A save's model derives from ``SaveModel``: a key it does not know (a newer game's, a hand edit) makes the file
invalid, so it is quarantined like any other bad file instead of being dropped silently on the next write;
``salvage`` then reads back from the quarantined copy what the model knows, so nothing readable is lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any, TypeVar

from loguru import logger
from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, model_validator

from coreai.errors import CorruptSaveError, PersistenceError
from coreai.validation import explain

log = logger.bind(feature="game")
M = TypeVar("M", bound=BaseModel)

MAX_JSON_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
TMP_SUFFIX = ".tmp"


def too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when the JSON ``text`` nests arrays/objects deeper than ``limit`` (string contents ignored)."""
    if text.count("[") + text.count("{") <= limit:  # cannot be deeper than its number of openers
        return False
    depth = 0
    for c in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if c == "[" or c == "{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def loads_json(data: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, strict: bool = True) -> Any:
    """``json.loads`` with bounded nesting; too deep raises ``json.JSONDecodeError`` (a ValueError).
    ``strict=False`` accepts raw control characters (a newline, a tab) in strings, as models write them."""
    text = data.decode("utf-8") if isinstance(data, bytes | bytearray) else data
    if not isinstance(text, str):  # what json.loads raises for a non-text argument
        raise TypeError(f"the JSON object must be str or bytes, not {type(data).__name__}")
    if too_deep(text, max_depth):
        raise json.JSONDecodeError(f"nested deeper than {max_depth} levels", text[:200], 0)
    try:
        return json.loads(text, strict=strict)
    except RecursionError:  # a caller deep in its own stack: still a parse failure, never a crash
        raise json.JSONDecodeError(f"nested too deeply (limit {max_depth})", text[:200], 0) from None


_SALVAGE = "salvage"


class SaveModel(BaseModel):
    """A model of a file under ``saves/``: unknown keys are invalid (``read_model`` quarantines the file);
    validated with ``salvage``'s context they are dropped instead, at every level of nesting."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _drop_unknown_when_salvaging(cls, data: Any, info: ValidationInfo) -> Any:
        if isinstance(data, dict) and isinstance(info.context, dict) and info.context.get(_SALVAGE):
            known = set(cls.model_fields) | {f.alias for f in cls.model_fields.values() if f.alias}
            return {k: v for k, v in data.items() if k in known}
        return data


def salvage(path: Path, model: type[M]) -> M | None:
    """What ``model`` can still read from ``path`` (a quarantined copy) with unknown keys dropped, or None.
    Never moves or changes the file."""
    try:
        data = loads_json(path.read_text(encoding="utf-8"))
        return model.model_validate(data, context={_SALVAGE: True})
    except (OSError, UnicodeDecodeError, ValueError):  # ValidationError and JSONDecodeError are ValueErrors
        return None


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
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


def read_json(path: Path, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse a JSON file; a parse failure quarantines it and raises ``CorruptSaveError``."""
    try:
        text = path.read_text(encoding="utf-8")
        return loads_json(text, max_depth=max_depth)
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        moved = quarantine(path, str(exc))
        why = f"unreadable ({exc})"
        raise CorruptSaveError(str(path), f"{why}; moved to {moved.name}", str(moved), reason=why) from exc


def read_model(path: Path, model: type[M]) -> M:
    """Parse and validate a JSON save; either failure quarantines the file and raises ``CorruptSaveError``.

    ``FileNotFoundError`` passes through (a missing file is not corrupt). Never returns a default for a file
    that exists but is bad, so a caller cannot silently overwrite it."""
    data = read_json(path)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        why = f"invalid contents ({explain(exc)})"
        moved = quarantine(path, why)
        raise CorruptSaveError(str(path), f"{why}; moved to {moved.name}", str(moved), reason=why) from None


# exactly what ``atomic_write_bytes`` leaves: ``tempfile.mkstemp`` adds 8 of [a-z0-9_] between name and suffix
ATOMIC_TMP_NAME = re.compile(r"^\..+\.[a-z0-9_]{8}" + re.escape(TMP_SUFFIX) + "$")


def clean_stale_tmp(
    folder: Path, *, older_than_s: float = 0.0, recursive: bool = False, exact: bool = False
) -> int:
    """Delete the ``.<name>.<random>.tmp`` files killed writes left in ``folder``; returns how many.
    ``recursive`` looks in subfolders too (never through a symlink); ``exact`` removes only names of
    exactly ``atomic_write_bytes``' shape, for folders a person also edits (a mod's)."""
    if not folder.is_dir():
        return 0
    removed = 0
    cutoff = time.time() - older_than_s
    pattern = "**/.*" + TMP_SUFFIX if recursive else ".*" + TMP_SUFFIX
    for tmp in folder.glob(pattern):
        if exact and not ATOMIC_TMP_NAME.match(tmp.name):
            continue
        try:
            if tmp.is_file() and not tmp.is_symlink() and tmp.stat().st_mtime <= cutoff:
                tmp.unlink()
                removed += 1
        except OSError:
            continue
    if removed:
        log.info("removed {} stale temporary file(s) in {}", removed, folder)
    return removed
