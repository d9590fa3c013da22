"""A mod on disk: ``mod.toml`` (validated with pydantic) plus its Lua files, read into a ``ModBundle``.

A bundle is the unit the manager runs, versions, exports and imports: the manifest, every file as text,
and a digest of all of it. Reading is strict about names and sizes so an imported or hand-made mod cannot
reach outside its folder or bloat the saves.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Annotated, Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from coreai.errors import ModError, ModManifestError
from coreai.lua.settings import LuaSettings
from coreai.validation import explain

MANIFEST = "mod.toml"
NAME_PATTERN = r"^[a-z][a-z0-9_]{1,39}$"
TEXT_SUFFIXES = (".lua", ".md", ".txt", ".json")
_PATH_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")  # used with fullmatch ("$" allows a final \n)


VERSION_PATTERN = r"^\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.-]+)?$"


def _spec(value: str) -> str:
    try:
        SpecifierSet(value)
    except InvalidSpecifier as exc:
        raise ValueError(f"'{value}' is not a version range (e.g. \">=1.0, <2\")") from exc
    return value


VersionRange = Annotated[str, AfterValidator(_spec)]


class ModManifest(BaseModel):
    """``mod.toml``: name, version, author, title, description, api_version, entry, dependencies (name ->
    version range), conflicts, load_order, min_game_version. Keys this game does not know are kept aside
    (``unknown_keys``) and reported as a warning, so an older game still loads a newer mod."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str = Field(pattern=NAME_PATTERN, description="lower_snake_case, 2-40 chars; the mod's id")
    version: str = Field(pattern=VERSION_PATTERN, description="e.g. 1.0.0")
    author: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=500)
    api_version: Literal[1] = Field(description="Mod API version; this game speaks 1")
    entry: str = Field(default="main.lua", description="the Lua file run on load")
    enabled_by_default: bool = Field(
        default=True, description="false: the mod ships off until the player enables it (F7 / manage_mods)"
    )
    title: str = Field(default="", max_length=80, description="display name (F7); default: the name")
    dependencies: dict[str, VersionRange] = Field(
        default_factory=dict, description='mods this one needs: name = version range (">=1.0, <2", "" = any)'
    )
    conflicts: list[str] = Field(default_factory=list, description="mods that must not run with this one")
    load_order: int = Field(default=0, ge=-1000, le=1000, description="lower loads first (after deps)")
    min_game_version: str | None = Field(
        default=None, pattern=VERSION_PATTERN, description="the oldest game version this mod runs on"
    )

    @property
    def unknown_keys(self) -> list[str]:
        return sorted(self.model_extra or {})

    def unknown_keys_warning(self) -> str:
        keys = ", ".join(self.unknown_keys)
        return f"mod {self.name}: mod.toml keys this game does not know are ignored ({keys})"

    @property
    def display_name(self) -> str:
        return self.title or self.name

    @field_validator("dependencies")
    @classmethod
    def _dependency_names(cls, v: dict[str, str]) -> dict[str, str]:
        for name in v:
            if not re.fullmatch(NAME_PATTERN, name):
                raise ValueError(f"dependency '{name}' is not a mod name")
        return v

    @field_validator("entry")
    @classmethod
    def _entry_is_lua_file(cls, v: str) -> str:
        if not v.endswith(".lua") or not is_safe_relpath(v):
            raise ValueError("must be a relative .lua path inside the mod folder")
        return v


@dataclass(frozen=True)
class ModBundle:
    manifest: ModManifest
    files: Mapping[str, str] = field(repr=False)
    digest: str = ""

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def entry_source(self) -> str:
        return self.files[self.manifest.entry]


def is_safe_relpath(path: str) -> bool:
    p = PurePosixPath(path)
    if p.is_absolute() or "\\" in path or len(p.parts) > 3:
        return False
    return all(_PATH_PART.fullmatch(part) and part not in (".", "..") for part in p.parts)


def bundle_digest(files: Mapping[str, str]) -> str:
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode())
        h.update(b"\0")
        h.update(files[name].encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:16]


def new_manifest(name: str, author: str = "agent", description: str = "written in game") -> str:
    """mod.toml text for a new mod (JSON string quoting is valid TOML)."""
    return (
        f'name = {json.dumps(name)}\nversion = "0.1.0"\nauthor = {json.dumps(author[:80] or "agent")}\n'
        f'description = {json.dumps(description[:500])}\napi_version = 1\nentry = "main.lua"\n'
    )


def parse_manifest(text: str, where: str) -> ModManifest:
    """Validate ``mod.toml`` text; ``ModManifestError`` names the mod folder and every bad field."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ModManifestError(where, f"mod.toml is not valid TOML: {exc}") from exc
    try:
        return ModManifest.model_validate(raw)
    except ValidationError as exc:
        raise ModManifestError(where, f"mod.toml is invalid: {explain(exc)}") from exc


def read_manifest(folder: Path) -> ModManifest | None:
    """The folder's manifest, or None when it is missing or invalid (reported when the mod loads)."""
    try:
        return parse_manifest((folder / MANIFEST).read_text(encoding="utf-8"), str(folder))
    except (OSError, UnicodeDecodeError, ModError):
        return None


def bundle_from_files(
    files: Mapping[str, str], settings: LuaSettings, *, where: str = "?", expected_name: str | None = None
) -> ModBundle:
    """Check names, sizes and the manifest of an in-memory mod; raises ``ModManifestError``/``ModError``."""
    if MANIFEST not in files:
        raise ModManifestError(where, "mod.toml is missing")
    manifest = parse_manifest(files[MANIFEST], where)
    name = manifest.name
    if expected_name is not None and name != expected_name:
        raise ModManifestError(where, f"mod.toml names the mod '{name}' but its folder is '{expected_name}'")
    if len(files) > settings.max_mod_files:
        raise ModError(name, f"too many files ({len(files)} > {settings.max_mod_files})")
    total = 0
    for path, text in files.items():
        if path != MANIFEST and (not is_safe_relpath(path) or not path.endswith(TEXT_SUFFIXES)):
            raise ModError(
                name, f"file '{path}' is not allowed (relative {', '.join(TEXT_SUFFIXES)} paths only)"
            )
        size = len(text.encode("utf-8"))
        if size > settings.max_file_bytes:
            raise ModError(name, f"file '{path}' is {size} bytes (max {settings.max_file_bytes})")
        total += size
    if total > settings.max_mod_bytes:
        raise ModError(name, f"mod is {total} bytes (max {settings.max_mod_bytes})")
    if manifest.entry not in files:
        raise ModManifestError(name, f"entry file '{manifest.entry}' does not exist")
    frozen = dict(sorted(files.items()))
    return ModBundle(manifest, frozen, bundle_digest(frozen))


def read_files(folder: Path, settings: LuaSettings) -> dict[str, str]:
    """The text files of a mod folder (mod.toml and allowed suffixes, up to 3 levels deep)."""
    files: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        rel = path.relative_to(folder).as_posix()
        if rel != MANIFEST and (not rel.endswith(TEXT_SUFFIXES) or not is_safe_relpath(rel)):
            continue
        if len(files) >= settings.max_mod_files:
            raise ModError(folder.name, f"too many files (max {settings.max_mod_files})")
        if path.stat().st_size > settings.max_file_bytes:
            raise ModError(folder.name, f"file '{rel}' is over {settings.max_file_bytes} bytes")
        try:
            files[rel] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ModError(folder.name, f"file '{rel}' is not UTF-8 text") from exc
    return files


def read_bundle(folder: Path, settings: LuaSettings) -> ModBundle:
    if not (folder / MANIFEST).is_file():
        raise ModManifestError(folder.name, f"no mod.toml in {folder}")
    try:
        files = read_files(folder, settings)
    except OSError as exc:
        raise ModError(folder.name, f"cannot read {folder}: {exc}") from exc
    return bundle_from_files(files, settings, where=folder.name, expected_name=folder.name)


def folder_signature(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Cheap change detector: (path, mtime_ns, size) of every file; () when the folder is gone."""
    out: list[tuple[str, int, int]] = []
    try:
        for path in folder.rglob("*"):
            if path.is_file():
                st = path.stat()
                out.append((path.relative_to(folder).as_posix(), st.st_mtime_ns, st.st_size))
    except OSError:
        return ()
    return tuple(sorted(out))
