"""Mods as files: export a bundle to a .zip, read a .zip back (strictly), write a bundle into a folder."""

from __future__ import annotations

import zipfile
from collections.abc import Mapping
from pathlib import Path

from coreai.errors import ModError
from coreai.lua.manifest import MANIFEST, TEXT_SUFFIXES, ModBundle, is_safe_relpath
from coreai.lua.settings import LuaSettings
from coreai.persist import atomic_write_text


def write_zip(bundle: ModBundle, dest: Path) -> Path:
    """``dest`` holds ``<name>/<file>`` for every file of the bundle."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for rel, text in bundle.files.items():
            zf.writestr(f"{bundle.name}/{rel}", text)
    tmp.replace(dest)
    return dest


def read_zip(path: Path, settings: LuaSettings) -> dict[str, str]:
    """The files of a mod archive; one top folder is stripped. Unsafe names and oversize data are refused."""
    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise ModError(path.name, f"not a readable zip archive: {exc}") from exc
    with zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
        if len(infos) > settings.max_mod_files:
            raise ModError(path.name, f"archive has {len(infos)} files (max {settings.max_mod_files})")
        names = [i.filename for i in infos]
        tops = {n.split("/", 1)[0] for n in names}
        strip = len(tops) == 1 and all("/" in n for n in names)
        files: dict[str, str] = {}
        total = 0
        for info in infos:
            rel = info.filename.split("/", 1)[1] if strip else info.filename
            if rel != MANIFEST and (not is_safe_relpath(rel) or not rel.endswith(TEXT_SUFFIXES)):
                raise ModError(path.name, f"archive entry '{info.filename}' is not allowed")
            if info.file_size > settings.max_file_bytes:
                raise ModError(
                    path.name, f"archive entry '{info.filename}' is over {settings.max_file_bytes} bytes"
                )
            total += info.file_size
            if total > settings.max_mod_bytes:
                raise ModError(path.name, f"archive is over {settings.max_mod_bytes} bytes unpacked")
            data = zf.read(info)[: settings.max_file_bytes + 1]
            if len(data) > settings.max_file_bytes:
                raise ModError(
                    path.name, f"archive entry '{info.filename}' is over {settings.max_file_bytes} bytes"
                )
            try:
                files[rel] = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ModError(path.name, f"archive entry '{info.filename}' is not UTF-8 text") from exc
        return files


def write_folder(folder: Path, files: Mapping[str, str]) -> None:
    """Write every file atomically, then remove mod files that are no longer part of the bundle."""
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        atomic_write_text(folder / rel, text)
    for path in folder.rglob("*"):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel not in files and (rel == MANIFEST or rel.endswith(TEXT_SUFFIXES)):
            path.unlink()
