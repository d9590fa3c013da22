"""The one registry of every hotkey and control in the game.

The F1 help overlay renders this registry, so whatever is registered here is documented on screen. Built-in
keys get their handlers from the app; keys reserved for later features (director backend, mods panel,
Programmer task, director panel, console) are listed from the start and shown as "coming" until some code
registers a handler for them at run time::

    app.hotkeys.register(arcade.key.F10, "Director panel", panel.toggle)

Handlers run on the main thread, from the window's key events. A handler that raises is logged and reported
through ``on_error`` (the game keeps running).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from arcade import key as K
from loguru import logger

log = logger.bind(feature="game", trace_id=None)

Handler = Callable[[], object]  # the return value is ignored
Kind = Literal["hotkey", "control"]

# A readable label for keys that have no obvious name.
_KEY_LABELS: dict[int, str] = {
    K.GRAVE: "` (backtick)",
    K.ESCAPE: "Esc",
    K.SPACE: "Space",
    K.ENTER: "Enter",
    K.RETURN: "Enter",
    K.TAB: "Tab",
    **{getattr(K, f"F{i}"): f"F{i}" for i in range(1, 13)},
}


def key_label(symbol: int) -> str:
    """``F1``, ``Esc``, ``P``, ``1``... for an arcade key code."""
    if symbol in _KEY_LABELS:
        return _KEY_LABELS[symbol]
    if 32 < symbol < 127:
        return chr(symbol).upper()
    return f"key {symbol}"


@dataclass
class Hotkey:
    """One entry of the registry: the keys that trigger it, what it does, and (maybe) who handles it."""

    keys: tuple[int, ...]
    description: str
    handler: Handler | None = None
    label: str = ""
    kind: Kind = "hotkey"
    group: str = "Game"
    reserved: bool = False  # announced for a later feature; "coming" until a handler exists

    def __post_init__(self) -> None:
        if not self.label:
            self.label = " / ".join(key_label(k) for k in self.keys) if self.keys else "?"

    @property
    def available(self) -> bool:
        return self.kind == "control" or self.handler is not None

    @property
    def status(self) -> str:
        """What the help overlay shows next to the description."""
        if self.available:
            return ""
        return "coming" if self.reserved else "unavailable"


@dataclass
class HotkeyRegistry:
    """Key code → entry. ``version`` changes on every edit so renderers know when to rebuild their text."""

    entries: list[Hotkey] = field(default_factory=list)
    version: int = 0
    # told about a handler that raised (the app shows a toast); the game keeps running either way
    on_error: Callable[[Hotkey, Exception], None] | None = None

    # ------------------------------------------------------------------ editing
    def register(
        self,
        key: int | Iterable[int],
        description: str,
        handler: Handler | None = None,
        *,
        label: str = "",
        group: str = "Game",
        kind: Kind = "hotkey",
        reserved: bool = False,
    ) -> Hotkey:
        """Add an entry, or take over the entry that already owns exactly these keys (description and handler
        are replaced; a reserved entry keeps its place and group, and returns to "coming" on ``unregister``).

        A key owned by a multi-key entry (``P / Esc``) is split off: the new handler gets that key only.
        """
        keys = (key,) if isinstance(key, int) else tuple(key)
        if not keys and kind == "hotkey":
            raise ValueError("a hotkey needs at least one key")
        same = self.find(keys[0]) if keys and kind == "hotkey" else None
        if (
            same is not None and same.keys == keys
        ):  # taking over an entry (e.g. a reserved key): keep its place
            same.description = description
            same.handler = handler
            if label:
                same.label = label
            self.version += 1
            return same
        if kind == "hotkey":
            for k in keys:
                self._release(k)
        entry = Hotkey(keys, description, handler, label=label, kind=kind, group=group, reserved=reserved)
        self.entries.append(entry)
        self.version += 1
        return entry

    def set_handler(self, key: int, handler: Handler | None) -> Hotkey:
        """Attach (or detach, with ``None``) the handler of an existing entry, keeping its description."""
        entry = self.find(key)
        if entry is None:
            raise KeyError(f"no hotkey registered for {key_label(key)}")
        entry.handler = handler
        self.version += 1
        return entry

    def unregister(self, key: int) -> None:
        entry = self.find(key)
        if entry is None:
            return
        if entry.reserved:  # a reserved key goes back to "coming", it never disappears from help
            entry.handler = None
        else:
            self._release(key)
        self.version += 1

    def _release(self, key: int) -> None:
        for entry in list(self.entries):
            if entry.kind != "hotkey" or key not in entry.keys:
                continue
            rest = tuple(k for k in entry.keys if k != key)
            if rest:
                entry.keys = rest
                entry.label = " / ".join(key_label(k) for k in rest)
            else:
                self.entries.remove(entry)

    # ------------------------------------------------------------------ lookup and dispatch
    def find(self, key: int) -> Hotkey | None:
        for entry in self.entries:
            if entry.kind == "hotkey" and key in entry.keys:
                return entry
        return None

    def dispatch(self, key: int) -> bool:
        """Run the handler bound to ``key``; True when the key is a registered, handled hotkey."""
        entry = self.find(key)
        if entry is None or entry.handler is None:
            return False
        try:
            entry.handler()
        except Exception as exc:  # a faulty handler (maybe a mod's) must not take the game down
            log.opt(exception=exc).error("hotkey {} ({}) failed: {}", entry.label, entry.description, exc)
            if self.on_error is not None:
                self.on_error(entry, exc)
        return True

    def groups(self) -> list[tuple[str, list[Hotkey]]]:
        """Entries grouped for display, groups in first-registration order."""
        out: dict[str, list[Hotkey]] = {}
        for entry in self.entries:
            out.setdefault(entry.group, []).append(entry)
        return list(out.items())


# Keys the built-in game binds (the app attaches the handlers).
HELP = K.F1
SCREENSHOT = K.F2
RESTART = K.F5
FULLSCREEN = K.F11
MUTE = K.M
FPS = K.F3
PAUSE_KEYS = (K.P, K.ESCAPE)
# Keys reserved for the AI and mod features of later issues.
DIRECTOR_BACKEND = K.F6
MODS_PANEL = K.F7
PROGRAMMER_TASK = K.F9
DIRECTOR_PANEL = K.F10
CONSOLE = K.GRAVE


def default_registry() -> HotkeyRegistry:
    """Every control and hotkey of the game, with the reserved ones marked as coming."""
    r = HotkeyRegistry()
    c: Kind = "control"
    r.register((), "Move", label="W A S D", kind=c, group="Controls")
    r.register((), "Aim", label="Mouse", kind=c, group="Controls")
    r.register((), "Shoot (hold)", label="Left mouse / Space", kind=c, group="Controls")
    r.register((), "Dash (brief invulnerability)", label="Shift", kind=c, group="Controls")
    r.register((), "Pick an upgrade", label="1 / 2 / 3 / click", kind=c, group="Controls")
    r.register(HELP, "Help (this overlay)")
    r.register(PAUSE_KEYS, "Pause / resume")
    r.register(SCREENSHOT, "Screenshot (to the screenshots folder)")
    r.register(RESTART, "Restart the run")
    r.register(FULLSCREEN, "Fullscreen")
    r.register(FPS, "Show / hide the FPS counter")
    r.register(MUTE, "Mute / unmute sound")
    ai = "AI & mods"
    r.register(DIRECTOR_BACKEND, "Cycle director backend", group=ai, reserved=True)
    r.register(MODS_PANEL, "Mods panel", group=ai, reserved=True)
    r.register(PROGRAMMER_TASK, "Programmer task (write a Lua mod)", group=ai, reserved=True)
    r.register(DIRECTOR_PANEL, "Director panel", group=ai, reserved=True)
    r.register(CONSOLE, "Console", group=ai, reserved=True)
    return r
