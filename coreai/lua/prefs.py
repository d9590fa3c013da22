"""The player's mod choices that survive a restart: disabled mods and quarantined mods (with the reason)."""

from __future__ import annotations

from pathlib import Path

from loguru import logger
from pydantic import BaseModel, ConfigDict, ValidationError

from coreai.errors import CorruptSaveError
from coreai.paths import saves_root
from coreai.persist import atomic_write_json, read_json

log = logger.bind(feature="lua", trace_id=None)


class ModPrefs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    disabled: list[str] = []
    enabled: list[str] = []  # turned on by the player although the mod ships disabled
    quarantined: dict[str, str] = {}


class PrefsFile:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or saves_root() / "mod_settings.json"
        self.prefs = self._read()
        self.defaults: dict[str, bool] = {}  # name -> the manifest's enabled_by_default

    def _read(self) -> ModPrefs:
        try:
            return ModPrefs.model_validate(read_json(self.path))
        except FileNotFoundError:
            return ModPrefs()
        except (CorruptSaveError, ValidationError) as exc:
            log.warning("mod settings unreadable, starting clean: {}", exc)
            return ModPrefs()

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
