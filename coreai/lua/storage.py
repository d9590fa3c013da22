"""Persisted per-mod storage: a small JSON object under saves/mod_storage/<mod>.json, size-capped.

Writes are batched: ``set`` marks the store dirty and the manager flushes it (atomically) about once a
second and on unload. A file that does not parse, or parses to anything but a JSON object, is moved aside
(``*.corrupt-<time>``, never overwritten) and the mod starts with empty storage; ``warning`` says so once.
``clean_storage_folder`` removes the ``.tmp`` files killed writes left there (the manager calls it at start,
as the saves root and ``mod_versions/`` are cleaned).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from loguru import logger
from pydantic import RootModel

from coreai.errors import CorruptSaveError, ModError
from coreai.paths import saves_path, saves_root
from coreai.persist import atomic_write_json, clean_stale_tmp, read_model

log = logger.bind(feature="lua", trace_id=None)


STORAGE_DIR = "mod_storage"


def clean_storage_folder(root: Path | None = None) -> int:
    """Delete the stale ``.<mod>.json.<random>.tmp`` files in ``saves/mod_storage``; returns how many."""
    return clean_stale_tmp((root or saves_root()) / STORAGE_DIR)


class StorageFile(RootModel[dict[str, Any]]):
    """saves/mod_storage/<mod>.json: one JSON object (anything else is invalid, not "empty")."""


class ModStorage:
    def __init__(self, mod: str, cap_bytes: int, path: Path | None = None) -> None:
        self.mod = mod
        self.cap_bytes = cap_bytes
        self._path = path
        self._data: dict[str, Any] | None = None
        self._size = 2
        self.dirty = False
        self.warning: str | None = None

    @property
    def path(self) -> Path:
        """saves/mod_storage/<mod>.json, resolved on first use (so ARENA_SAVES_DIR is honoured)."""
        if self._path is None:
            self._path = saves_path(STORAGE_DIR, f"{self.mod}.json")
        return self._path

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            data: dict[str, Any] = {}
            try:
                data = read_model(self.path, StorageFile).root
            except FileNotFoundError:
                data = {}
            except CorruptSaveError as exc:
                moved = Path(exc.quarantined_to or "?").name
                self.warning = (
                    f"storage file was unreadable or invalid; moved aside to {moved}, starting empty"
                )
                log.warning("mod {}: {} ({})", self.mod, self.warning, exc)
            self._data = data
            self._size = len(self._encode(self._data))
        return self._data

    @staticmethod
    def _encode(data: dict[str, Any]) -> bytes:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

    def get(self, key: str) -> Any:
        return self._load().get(key)

    def keys(self) -> list[str]:
        return sorted(self._load())

    @property
    def size_bytes(self) -> int:
        self._load()
        return self._size

    def set(self, key: str, value: Any) -> None:
        """Set (or with ``None`` remove) one key; raises ``ModError`` past the size cap."""
        data = self._load()
        old = data.get(key)
        if value is None:
            if key in data:
                del data[key]
                self._size = len(self._encode(data))
                self.dirty = True
            return
        data[key] = value
        size = len(self._encode(data))
        if size > self.cap_bytes:
            if old is None:
                del data[key]
            else:
                data[key] = old
            raise ModError(
                self.mod,
                f"storage.set('{key}'): storage would be {size} bytes, over its {self.cap_bytes} byte cap",
            )
        self._size = size
        self.dirty = True

    def flush(self) -> None:
        if self.dirty and self._data is not None:
            atomic_write_json(self.path, self._data)
            self.dirty = False
