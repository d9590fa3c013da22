"""Persisted per-mod storage: a small JSON object under saves/mod_storage/<mod>.json, size-capped.

The durability promise (docs/modding.md, "Mod storage"): a value ``storage.set`` accepted is on disk within
``DURABLE_WITHIN_S`` (1 s), whatever the game does meanwhile (a long frame, a frozen MCP run, a paused
game), so a crash or a kill -9 loses at most the last second of writes; a console line or an MCP
``execute_lua`` call that changed storage answers only once the change is on disk. ``set`` only marks the
store dirty: one background thread (``StorageWriter``) writes every dirty store atomically (fsynced, then
renamed) every ``WRITE_PERIOD_S``, so no fsync ever runs on the game's main thread during play.

A file that does not parse, or parses to anything but a JSON object, is moved aside (``*.corrupt-<time>``,
never overwritten) and the mod starts with empty storage; ``warning`` says so once.
``clean_storage_folder`` removes the ``.tmp`` files killed writes left there (the manager calls it at start,
as the saves root and ``mod_versions/`` are cleaned).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from loguru import logger
from pydantic import RootModel

from coreai.errors import CoreAIError, CorruptSaveError, ModError
from coreai.paths import saves_path, saves_root
from coreai.persist import atomic_write_bytes, clean_stale_tmp, read_model

log = logger.bind(feature="lua", trace_id=None)


STORAGE_DIR = "mod_storage"
DURABLE_WITHIN_S = 1.0  # the promise to modders: an accepted storage.set is on disk this soon
WRITE_PERIOD_S = 0.25  # how often the writer thread writes the dirty stores (well inside the promise)


def clean_storage_folder(root: Path | None = None) -> int:
    """Delete the stale ``.<mod>.json.<random>.tmp`` files in ``saves/mod_storage``; returns how many."""
    return clean_stale_tmp((root or saves_root()) / STORAGE_DIR)


class StorageFile(RootModel[dict[str, Any]]):
    """saves/mod_storage/<mod>.json: one JSON object (anything else is invalid, not "empty")."""


class ModStorage:
    """One mod's store. ``set``/``get`` run on the main thread; ``flush`` may run on any thread (the writer
    thread, or the main thread when a mod stops or a console line ends)."""

    def __init__(self, mod: str, cap_bytes: int, path: Path | None = None) -> None:
        self.mod = mod
        self.cap_bytes = cap_bytes
        self._path = path
        self._data: dict[str, Any] | None = None
        self._size = 2
        self._changes = 0  # bumped by every accepted change
        self._written = 0  # the change count the file on disk holds
        self._data_lock = threading.Lock()  # the dict and the counters
        self._write_lock = threading.Lock()  # one write of this file at a time, snapshots in order
        self.warning: str | None = None
        self.write_error: str | None = None  # why the last write failed (it is retried)

    @property
    def path(self) -> Path:
        """saves/mod_storage/<mod>.json, resolved on first use (so ARENA_SAVES_DIR is honoured)."""
        if self._path is None:
            self._path = saves_path(STORAGE_DIR, f"{self.mod}.json")
        return self._path

    @property
    def dirty(self) -> bool:
        """True while an accepted change is not on disk yet."""
        return self._changes != self._written

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            data: dict[str, Any] = {}
            try:
                data = read_model(self.path, StorageFile).root
            except FileNotFoundError:
                data = {}
            except OSError as exc:  # the folder cannot be read at all: no empty store that could overwrite it
                raise ModError(self.mod, f"storage could not be read ({exc}); nothing was changed") from exc
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
        """Set (or with ``None`` remove) one key; raises ``ModError`` past the size cap. The change is on
        disk within ``DURABLE_WITHIN_S`` (the writer thread picks it up)."""
        data = self._load()
        with self._data_lock:
            old = data.get(key)
            if value is None:
                if key not in data:
                    return
                del data[key]
                self._size = len(self._encode(data))
            else:
                data[key] = value
                size = len(self._encode(data))
                if size > self.cap_bytes:
                    if old is None:
                        del data[key]
                    else:
                        data[key] = old
                    raise ModError(
                        self.mod,
                        f"storage.set('{key}'): storage would be {size} bytes, over its "
                        f"{self.cap_bytes} byte cap",
                    )
                self._size = size
            self._changes += 1
        WRITER.mark(self)

    def flush(self) -> None:
        """Write what was accepted so far (atomically, fsynced) if it is not on disk yet; raises
        ``PersistenceError`` when the write fails (the store stays dirty)."""
        with self._write_lock:
            with self._data_lock:
                if self._data is None or self._changes == self._written:
                    return
                changes = self._changes
                text = json.dumps(self._data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
            atomic_write_bytes(self.path, text.encode("utf-8"))
            self._written = changes
            self.write_error = None

    def save_now(self) -> str | None:
        """``flush`` that never raises: None when everything accepted is on disk, else why not (the writer
        thread retries)."""
        try:
            self.flush()
            return None
        except (CoreAIError, OSError) as exc:
            return self.write_failed(exc)

    def write_failed(self, exc: Exception) -> str:
        """A write failed (a full disk, a folder that is a file): retried by the writer thread; the mod's
        next storage call tells the player once per distinct reason (``warning``)."""
        why = str(exc)
        if why != self.write_error:
            log.warning("mod {}: storage could not be written, retrying: {}", self.mod, why)
            self.warning = f"storage could not be written ({why}); retrying, the values stay in memory"
        self.write_error = why
        WRITER.mark(self)
        return why


class StorageWriter:
    """The one background thread that makes ``storage.set`` durable: every ``WRITE_PERIOD_S`` it writes
    each store marked dirty. Started on the first change; a daemon, so it never holds the game open (a
    normal quit flushes every store on the main thread first)."""

    def __init__(self, period_s: float = WRITE_PERIOD_S) -> None:
        self.period_s = period_s
        self._lock = threading.Lock()
        self._pending: dict[int, ModStorage] = {}
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def mark(self, store: ModStorage) -> None:
        with self._lock:
            self._pending[id(store)] = store
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="mod-storage-writer", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            self._wake.wait(self.period_s)
            self._wake.clear()
            self.write_pending()

    def write_pending(self) -> int:
        """Write every dirty store now (any thread); returns how many were written. A store whose write
        fails stays pending and is retried next period."""
        with self._lock:
            stores, self._pending = list(self._pending.values()), {}
        written = 0
        for store in stores:
            try:
                store.flush()
                written += 1
            except (CoreAIError, OSError) as exc:
                store.write_failed(exc)
            except Exception:  # a bug, not the disk: said loudly, never kills the writer thread
                log.exception("mod {}: storage write failed", store.mod)
        return written


WRITER = StorageWriter()
