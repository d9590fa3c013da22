"""The player's options while the game runs: the ``[game]`` settings, loaded once, applied to the app, and
written back (only the keys that changed, comments and other keys kept) when the options screen changes one.

The options screen edits ``GamePrefs.settings`` through ``change``/``set_keys``; ``apply_to`` pushes the
values into the live game: sound volumes, controls, gamepad, fullscreen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from loguru import logger

from coreai.errors import CoreAIError, SettingsError
from coreai.settings import GameSettings, KeyBindings, load_settings
from coreai.settings_writer import update_settings

if TYPE_CHECKING:
    import arcade

    from game.audio import Audio
    from game.render.quality import FrameGovernor
    from game.views.input import HumanInput

log = logger.bind(feature="game", trace_id="prefs")


class OptionsTarget(Protocol):
    """What the player's options apply to, live (``GamePrefs.apply_to``, the options screen); one
    of the shell's ports (``game.ports``)."""

    @property
    def prefs(self) -> GamePrefs: ...

    @property
    def audio(self) -> Audio: ...

    @property
    def governor(self) -> FrameGovernor: ...

    @property
    def window(self) -> arcade.Window: ...

    @property
    def input(self) -> HumanInput: ...

    def apply_controls(self, bindings: KeyBindings) -> None:
        """Use these key bindings now: the arena's input, the pause hotkey, the F1 help's labels."""

    def set_fullscreen(self, on: bool) -> None: ...

    def prefs_changed(self, settings: GameSettings) -> None:
        """Tell the plug-ins (``ArenaHooks.on_prefs_changed``)."""


class GamePrefs:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.warning: str | None = None
        try:
            self.settings = load_settings(path).game
        except SettingsError as exc:
            self.warning = f"settings file rejected ({exc}); options use their defaults and are not saved"
            log.warning(self.warning)
            self.settings = GameSettings()
        self.save_errors = 0

    def change(self, **values: Any) -> str | None:
        """Set ``[game]`` keys now and in the file; returns a player-readable error, or None."""
        self.settings = self.settings.model_validate({**self.settings.model_dump(), **values})
        return self._save({"game": values})

    def set_keys(self, bindings: KeyBindings) -> str | None:
        before = self.settings.keys.model_dump()
        self.settings = self.settings.model_copy(update={"keys": bindings})
        changed = {k: v for k, v in bindings.model_dump().items() if before.get(k) != v}
        return self._save({"game.keys": changed}) if changed else None

    def _save(self, updates: dict[str, dict[str, Any]]) -> str | None:
        if self.warning is not None:
            return "not saved: the settings file has an error (see the log)"
        try:
            update_settings(updates, self.path)
            return None
        except (CoreAIError, OSError) as exc:
            self.save_errors += 1
            log.warning("options not saved: {}", exc)
            return f"options not saved: {exc}"

    def apply_to(self, app: OptionsTarget, *, fullscreen: bool = True) -> None:
        """Push every option into the running game (``fullscreen=False``: leave the window as it is)."""
        s = self.settings
        app.audio.set_volumes(master=s.master_volume, music=s.music_volume, sfx=s.sfx_volume)
        app.apply_controls(s.keys)
        if app.governor.setting != s.graphics_quality:
            app.governor.set(s.graphics_quality)
        app.input.deadzone = s.gamepad_deadzone
        if app.input.gamepad is not None:
            app.input.gamepad.enabled = s.gamepad
        if fullscreen and bool(app.window.fullscreen) != s.fullscreen:
            app.set_fullscreen(s.fullscreen)
        app.prefs_changed(s)
