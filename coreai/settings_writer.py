"""Writing the user's settings file: change a few keys and keep everything else (other keys, comments,
layout) as the user wrote it.

``update_settings({"game": {"master_volume": 0.5}, "game.keys": {"move_up": ["Z"]}})`` edits the TOML
document with ``tomlkit`` (which round-trips comments), validates the result as ``Settings`` (a write never
leaves a file the game would refuse), and replaces the file atomically. A file that does not parse is left
alone: ``SettingsError``, nothing written.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import Table

from coreai.errors import SettingsError
from coreai.persist import atomic_write_text
from coreai.settings import default_settings_path, settings_from_dict


def _table(doc: Any, dotted: str) -> Any:
    node = doc
    for part in dotted.split("."):
        if part not in node:
            node[part] = tomlkit.table()
        node = node[part]
        if not isinstance(node, (Table, dict)):
            raise SettingsError(dotted, f"'{part}' is a value in the settings file, not a section")
    return node


def update_settings(updates: Mapping[str, Mapping[str, Any]], path: Path | None = None) -> Path:
    """Set ``updates[section][key] = value`` in the settings file; returns the file written."""
    target = path if path is not None else default_settings_path()
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        raise SettingsError(str(target), f"cannot read: {exc}") from exc
    try:
        doc = tomlkit.parse(text)
    except Exception as exc:  # tomlkit raises its own ParseError subclasses
        raise SettingsError(str(target), f"not valid TOML, left unchanged: {exc}") from exc
    for section, values in updates.items():
        table = _table(doc, section)
        for key, value in values.items():
            table[key] = value
    out = tomlkit.dumps(doc)
    settings_from_dict(tomllib.loads(out))  # raises SettingsError naming the bad key; nothing is written
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, out)
    return target
