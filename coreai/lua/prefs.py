"""The player's mod choices that survive a restart: disabled mods and quarantined mods (with the reason).

A mod_settings.json that does not parse or validate is quarantined (``*.corrupt-<time>``), never overwritten;
the choices that can still be read from it (``disabled``/``enabled`` names, quarantine reasons) are kept, so
a mod the player turned off does not start running, and ``warning`` carries the notice for the HUD.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from loguru import logger
from pydantic import BaseModel, ConfigDict

from coreai.errors import CorruptSaveError
from coreai.paths import saves_root
from coreai.persist import atomic_write_json, loads_json, read_model

log = logger.bind(feature="lua", trace_id=None)


class ModPrefs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    disabled: list[str] = []
    enabled: list[str] = []  # turned on by the player although the mod ships disabled
    quarantined: dict[str, str] = {}


class PrefsFile:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or saves_root() / "mod_settings.json"
        self.warning: str | None = None
        self.prefs = self._read()
        self.defaults: dict[str, bool] = {}  # name -> the manifest's enabled_by_default

    def _read(self) -> ModPrefs:
        raw: Any = None
        with contextlib.suppress(OSError, ValueError):  # read_model below quarantines it and says why
            raw = loads_json(self.path.read_text(encoding="utf-8"))
        try:
            return read_model(self.path, ModPrefs)
        except FileNotFoundError:
            return ModPrefs()
        except CorruptSaveError as exc:
            prefs = _salvage(raw)
            kept = len(prefs.disabled) + len(prefs.enabled) + len(prefs.quarantined)
            self.warning = (
                f"mod settings were unreadable or invalid; moved aside to "
                f"{Path(exc.quarantined_to or '?').name} (kept {kept} readable choice(s))"
            )
            log.warning("{}: {}", self.warning, exc)
            return prefs

    def save(self) -> None:
        atomic_write_json(self.path, self.prefs.model_dump())

    def is_enabled(self, name: str) -> bool:
        if name in self.prefs.disabled:
            return False
        return name in self.prefs.enabled or self.defaults.get(name, True)

    def set_enabled(self, name: str, enabled: bool) -> None:
        disabled, on = set(self.prefs.disabled), set(self.prefs.enabled)
        (disabled.discard if enabled else disabled.add)(name)
        (on.add if enabled else on.discard)(name)
        self.prefs.disabled, self.prefs.enabled = sorted(disabled), sorted(on)
        if enabled:
            self.prefs.quarantined.pop(name, None)
        self.save()

    def quarantine(self, name: str, reason: str) -> None:
        self.prefs.quarantined[name] = reason
        self.save()

    def release(self, name: str) -> None:
        if self.prefs.quarantined.pop(name, None) is not None:
            self.save()

    def quarantined(self, name: str) -> str | None:
        return self.prefs.quarantined.get(name)


def _salvage(raw: Any) -> ModPrefs:
    """The well-formed choices of an invalid settings object (names must be strings)."""
    if not isinstance(raw, dict):
        return ModPrefs()

    def names(key: str) -> list[str]:
        value = raw.get(key)
        return sorted({v for v in value if isinstance(v, str)}) if isinstance(value, list) else []

    reasons = raw.get("quarantined")
    quarantined = (
        {k: v for k, v in reasons.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(reasons, dict)
        else {}
    )
    return ModPrefs(disabled=names("disabled"), enabled=names("enabled"), quarantined=quarantined)
