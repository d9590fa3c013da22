"""Version history of every mod and Programmer script, persisted under saves/mod_versions/<name>/.

Each distinct source (by digest) becomes a numbered version: ``index.json`` lists them with a status
(``new`` until it has run its first seconds cleanly, then ``good``; ``faulted`` when it was reverted),
and ``vNNNN.json`` holds the files. Auto-revert and manual revert read from here, so an edit that breaks
a mod never loses the last good source.

Crash safety: a snapshot is written before the index lists it, and pruning saves the index before it
deletes the pruned files, so the index never names a missing file. On first use the index is reconciled
with the folder: snapshots it does not list are adopted, entries whose file is gone are dropped, stale
``.tmp`` files are removed. A bad index (or snapshot) is quarantined, never overwritten, and numbering
continues after the highest number on disk.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from loguru import logger
from pydantic import BaseModel, ConfigDict

from coreai.errors import CoreAIError, CorruptSaveError, ModError
from coreai.lua.manifest import bundle_digest
from coreai.paths import saves_root
from coreai.persist import atomic_write_json, clean_stale_tmp, read_model

log = logger.bind(feature="lua", trace_id=None)

VersionStatus = Literal["new", "good", "faulted"]
_SNAPSHOT = re.compile(r"v(\d{4,9})\.json")


class VersionInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    number: int
    digest: str
    created: float
    status: VersionStatus = "new"
    note: str = ""
    mod_version: str = ""


class _Index(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    versions: list[VersionInfo] = []


class _Snapshot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: dict[str, str]


class VersionStore:
    def __init__(self, root: Path | None = None, max_versions: int = 30) -> None:
        self._root = root
        self.max_versions = max_versions
        self._cache: dict[str, _Index] = {}
        self._highest: dict[str, int] = {}  # the highest snapshot number ever seen on disk, per name

    @property
    def root(self) -> Path:
        return self._root or saves_root() / "mod_versions"

    def _dir(self, name: str) -> Path:
        return self.root / name

    def _index(self, name: str) -> _Index:
        if name in self._cache:
            return self._cache[name]
        path = self._dir(name) / "index.json"
        index = _Index(name=name)
        try:
            index = read_model(path, _Index)
        except FileNotFoundError:
            pass
        except CorruptSaveError as exc:
            log.warning(
                "version index of {} was bad and was moved aside; rebuilding from files: {}", name, exc
            )
        if index.name != name:
            index = _Index(name=name, versions=index.versions)
        if self._reconcile(index):
            with contextlib.suppress(CoreAIError):
                self._save(index)
        self._cache[name] = index
        return index

    def _on_disk(self, name: str) -> dict[int, Path]:
        folder = self._dir(name)
        if not folder.is_dir():
            return {}
        clean_stale_tmp(folder)
        found: dict[int, Path] = {}
        for path in folder.iterdir():
            m = _SNAPSHOT.fullmatch(path.name)
            if m and path.is_file():
                found[int(m.group(1))] = path
        return found

    def _reconcile(self, index: _Index) -> bool:
        """Make the index match the snapshot files; True if it changed (then it is saved)."""
        disk = self._on_disk(index.name)
        listed = {v.number for v in index.versions}
        kept = [v for v in index.versions if v.number in disk]
        changed = len(kept) != len(index.versions)
        if changed:
            log.warning("version index of {} listed missing files; dropped them", index.name)
        for number in sorted(set(disk) - listed):
            try:
                files = read_model(disk[number], _Snapshot).files
            except (FileNotFoundError, CorruptSaveError) as exc:
                log.warning("version {} of {} is unreadable: {}", number, index.name, exc)
                continue
            created = disk[number].stat().st_mtime if disk[number].exists() else time.time()
            kept.append(VersionInfo(number=number, digest=bundle_digest(files), created=created,
                                    note="recovered from disk"))  # fmt: skip
            changed = True
        index.versions = sorted(kept, key=lambda v: v.number)
        self._highest[index.name] = max([*disk, 0])
        return changed

    def _save(self, index: _Index) -> None:
        atomic_write_json(self._dir(index.name) / "index.json", index.model_dump())

    def history(self, name: str) -> list[VersionInfo]:
        return list(self._index(name).versions)

    def get(self, name: str, number: int) -> VersionInfo:
        for v in self._index(name).versions:
            if v.number == number:
                return v
        raise ModError(name, f"no version {number} (have: {[v.number for v in self.history(name)]})")

    def find(self, name: str, digest: str) -> VersionInfo | None:
        return next((v for v in self._index(name).versions if v.digest == digest), None)

    def record(
        self,
        name: str,
        files: Mapping[str, str],
        *,
        note: str = "",
        mod_version: str = "",
        status: VersionStatus = "new",
    ) -> VersionInfo:
        """Store ``files`` as a new version, or return the existing version with the same digest."""
        digest = bundle_digest(files)
        existing = self.find(name, digest)
        if existing is not None:
            return existing
        index = self._index(name)
        number = max([v.number for v in index.versions] + [self._highest.get(name, 0)]) + 1
        while (self._dir(name) / f"v{number:04d}.json").exists():  # never write over an existing file
            number += 1
        self._highest[name] = number
        info = VersionInfo(
            number=number,
            digest=digest,
            created=time.time(),
            status=status,
            note=note[:200],
            mod_version=mod_version,
        )
        atomic_write_json(self._dir(name) / f"v{number:04d}.json", _Snapshot(files=dict(files)).model_dump())
        index.versions.append(info)
        victims = self._prune(index)
        self._save(index)  # the index stops naming the pruned files before they go
        for victim in victims:
            with contextlib.suppress(OSError):
                (self._dir(name) / f"v{victim:04d}.json").unlink()
        return info

    def files(self, name: str, number: int) -> dict[str, str]:
        self.get(name, number)
        path = self._dir(name) / f"v{number:04d}.json"
        try:
            return read_model(path, _Snapshot).files
        except (FileNotFoundError, CorruptSaveError) as exc:
            raise ModError(name, f"version {number} cannot be read: {exc}") from exc

    def mark(self, name: str, number: int, status: VersionStatus) -> None:
        index = self._index(name)
        index.versions = [
            v.model_copy(update={"status": status}) if v.number == number else v for v in index.versions
        ]
        self._save(index)

    def last_good(self, name: str, *, exclude_digest: str | None = None) -> VersionInfo | None:
        goods = [v for v in self._index(name).versions if v.status == "good" and v.digest != exclude_digest]
        return max(goods, key=lambda v: v.number) if goods else None

    def _prune(self, index: _Index) -> list[int]:
        """Drop the oldest versions (never the newest good one) from the index; returns their numbers."""
        victims: list[int] = []
        while len(index.versions) > self.max_versions:
            newest_good = max((v.number for v in index.versions if v.status == "good"), default=None)
            victim = next((v for v in index.versions if v.number != newest_good), None)
            if victim is None:
                break
            index.versions.remove(victim)
            victims.append(victim.number)
        return victims
