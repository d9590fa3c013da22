"""Version history of every mod and Programmer script, persisted under saves/mod_versions/<name>/.

Each distinct source (by digest) becomes a numbered version: ``index.json`` lists them with a status
(``new`` until it has run its first seconds cleanly, then ``good``; ``faulted`` when it was reverted),
and ``vNNNN.json`` holds the files. Auto-revert and manual revert read from here, so an edit that breaks
a mod never loses the last good source.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from loguru import logger
from pydantic import BaseModel, ConfigDict, ValidationError

from coreai.errors import CorruptSaveError, ModError
from coreai.lua.manifest import bundle_digest
from coreai.paths import saves_root
from coreai.persist import atomic_write_json, read_json

log = logger.bind(feature="lua", trace_id=None)

VersionStatus = Literal["new", "good", "faulted"]


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
            index = _Index.model_validate(read_json(path))
        except FileNotFoundError:
            pass
        except CorruptSaveError as exc:
            log.warning("version index of {} was corrupt, starting a new one: {}", name, exc)
        except ValidationError as exc:
            log.warning("version index of {} did not validate, starting a new one: {}", name, exc)
        self._cache[name] = index
        return index

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
        number = max((v.number for v in index.versions), default=0) + 1
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
        self._prune(index)
        self._save(index)
        return info

    def files(self, name: str, number: int) -> dict[str, str]:
        self.get(name, number)
        path = self._dir(name) / f"v{number:04d}.json"
        try:
            return _Snapshot.model_validate(read_json(path)).files
        except (FileNotFoundError, CorruptSaveError, ValidationError) as exc:
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

    def _prune(self, index: _Index) -> None:
        while len(index.versions) > self.max_versions:
            newest_good = max((v.number for v in index.versions if v.status == "good"), default=None)
            victim = next((v for v in index.versions if v.number != newest_good), None)
            if victim is None:
                return
            index.versions.remove(victim)
            with contextlib.suppress(OSError):
                (self._dir(index.name) / f"v{victim.number:04d}.json").unlink()
