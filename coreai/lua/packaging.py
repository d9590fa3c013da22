"""Mods as files: export a bundle to a .zip, read a .zip back (strictly), write a bundle into a folder."""

from __future__ import annotations

import os
import tempfile
import zipfile
import zlib
from collections.abc import Mapping
from pathlib import Path

from coreai.errors import ModError
from coreai.lua.manifest import MANIFEST, TEXT_SUFFIXES, ModBundle, is_safe_relpath
from coreai.lua.settings import LuaSettings
from coreai.persist import TMP_SUFFIX, atomic_write_text


def write_zip(bundle: ModBundle, dest: Path) -> Path:
    """``dest`` holds ``<name>/<file>`` for every file of the bundle."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    # named like atomic_write_bytes' temporary files, so a killed export is cleaned at the next start
    fd, name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=TMP_SUFFIX, dir=dest.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for rel, text in bundle.files.items():
                zf.writestr(f"{bundle.name}/{rel}", text)
        tmp.replace(dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest


MIN_ZIP_ENTRIES_SLACK = 8  # folder entries a normal archive has besides its files
_EOCD = b"PK\x05\x06"


def _central_directory(path: Path) -> tuple[int, int]:
    """(entries, central directory bytes) from the end record, read before ``zipfile`` parses anything."""
    with path.open("rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - 65_557))
        tail = fh.read()
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < 22:
        raise ModError(path.name, "not a readable zip archive: no end-of-archive record")
    entries = int.from_bytes(tail[at + 10 : at + 12], "little")
    cd_bytes = int.from_bytes(tail[at + 12 : at + 16], "little")
    if entries == 0xFFFF or cd_bytes == 0xFFFFFFFF:
        raise ModError(path.name, "zip64 archives are not supported for mods")
    return entries, cd_bytes


def read_zip(path: Path, settings: LuaSettings) -> dict[str, str]:
    """The files of a mod archive; one top folder is stripped. Unsafe names, oversize data and two entries
    for one file (a duplicate name, or names that differ only in case) are refused.

    Memory stays bounded whatever the archive claims: the entry count (folders included) and the central
    directory size are checked from the end record before ``zipfile`` reads it, and every entry is
    inflated as a stream and stopped one byte past ``max_file_bytes`` (declared sizes are not trusted),
    so the peak is about ``max_mod_bytes`` of text plus one inflate window. Every failure, a corrupt or
    lying archive included, is a ``ModError``."""
    limit = settings.max_mod_files + MIN_ZIP_ENTRIES_SLACK
    try:
        if path.stat().st_size > 4 * settings.max_mod_bytes + 65_536:
            raise ModError(path.name, f"archive file is over {4 * settings.max_mod_bytes} bytes")
        entries, cd_bytes = _central_directory(path)
        if entries > limit:
            raise ModError(path.name, f"archive has {entries} entries (max {limit}, folders included)")
        if cd_bytes > limit * 1100:  # a central record is 46 bytes + a name of at most ~1 KiB
            raise ModError(path.name, f"archive directory is {cd_bytes} bytes: too big for {entries} entries")
        zf = zipfile.ZipFile(path)
    except ModError:
        raise
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise ModError(path.name, f"not a readable zip archive: {exc}") from exc
    with zf:
        every = zf.infolist()
        if len(every) > limit:
            raise ModError(path.name, f"archive has {len(every)} entries (max {limit}, folders included)")
        infos = [i for i in every if not i.is_dir()]
        if len(infos) > settings.max_mod_files:
            raise ModError(path.name, f"archive has {len(infos)} files (max {settings.max_mod_files})")
        names = [i.filename for i in infos]
        tops = {n.split("/", 1)[0] for n in names}
        strip = len(tops) == 1 and all("/" in n for n in names)
        files: dict[str, str] = {}
        seen: dict[str, str] = {}  # case-folded name -> the entry that had it
        total = 0
        for info in infos:
            rel = info.filename.split("/", 1)[1] if strip else info.filename
            if rel != MANIFEST and (not is_safe_relpath(rel) or not rel.endswith(TEXT_SUFFIXES)):
                raise ModError(path.name, f"archive entry {info.filename!r} is not allowed")
            first = seen.get(rel.casefold())
            if first is not None:
                if first == info.filename:
                    why = f"archive has two entries named {info.filename!r}"
                else:
                    why = f"entries {first!r} and {info.filename!r} are one file on a case-insensitive disk"
                raise ModError(path.name, f"{why}; refused, as either copy could silently win")
            seen[rel.casefold()] = info.filename
            data = _inflate(zf, info, settings.max_file_bytes, path.name)
            total += len(data)
            if total > settings.max_mod_bytes:
                raise ModError(path.name, f"archive is over {settings.max_mod_bytes} bytes unpacked")
            try:
                files[rel] = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ModError(path.name, f"archive entry {info.filename!r} is not UTF-8 text") from exc
        return files


def _inflate(zf: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int, where: str) -> bytes:
    """At most ``cap`` bytes of one entry, inflated as a stream; over the cap (whatever the header
    declares) or corrupt is a ``ModError``."""
    if info.file_size > cap:
        raise ModError(where, f"archive entry {info.filename!r} is over {cap} bytes")
    try:
        with zf.open(info) as fh:
            data = fh.read(cap + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as exc:
        raise ModError(where, f"archive entry {info.filename!r} is corrupt or unsupported: {exc}") from exc
    if len(data) > cap:
        raise ModError(where, f"archive entry {info.filename!r} inflates past {cap} bytes (declared "
                              f"{info.file_size})")  # fmt: skip
    return data


def inside(root: Path, path: Path) -> bool:
    """True when ``path`` (symlinks resolved) is ``root`` or below it (root resolved too)."""
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def write_folder(folder: Path, files: Mapping[str, str], *, root: Path | None = None) -> None:
    """Write every file atomically, then remove mod files that are no longer part of the bundle.

    Nothing is written or deleted outside ``root`` (default: the folder's parent, the mods folder) once
    symlinks are resolved: a mod folder, or a folder inside it, that is a link elsewhere is refused."""
    base = root if root is not None else folder.parent
    if folder.is_symlink() or (folder.exists() and not inside(base, folder)):
        raise ModError(folder.name, f"refusing to write {folder}: it is a link out of the mods folder")
    folder.mkdir(parents=True, exist_ok=True)
    if not inside(base, folder):
        raise ModError(folder.name, f"refusing to write {folder}: it leaves the mods folder")
    for rel in files:
        target = folder / rel
        parent = target.parent
        parent.mkdir(parents=True, exist_ok=True)
        if not inside(folder, parent) or target.is_symlink():
            raise ModError(folder.name, f"refusing to write '{rel}': it leads out of the mod folder")
    for rel, text in files.items():
        atomic_write_text(folder / rel, text)
    for path in folder.rglob("*"):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink() or not inside(folder, path):
            continue  # never delete through a link
        if path.is_file() and rel not in files and (rel == MANIFEST or rel.endswith(TEXT_SUFFIXES)):
            path.unlink()
