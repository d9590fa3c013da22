"""Rebindable controls: key names from the settings (``[game.keys]``) to actions, and the gamepad.

``Controls`` maps arcade key codes to the actions move_up/move_down/move_left/move_right/shoot/dash/pause and
back; ``rebind`` gives an action a new primary key and takes that key away from every other action (so one
key never does two things). ``Gamepad`` reads the first connected controller through pyglet: left stick
moves, right stick aims, right trigger (or A) shoots, left trigger (or B) dashes; ``pad_input`` is the pure
mapping from one reading to movement, aim direction, shoot and dash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from arcade import key as K
from loguru import logger

from coreai.settings import KeyBindings

log = logger.bind(feature="game", trace_id="controls")

ACTIONS: tuple[str, ...] = ("move_up", "move_down", "move_left", "move_right", "shoot", "dash", "pause")
MOVES: dict[str, tuple[int, int]] = {
    "move_up": (0, 1),
    "move_down": (0, -1),
    "move_left": (-1, 0),
    "move_right": (1, 0),
}
LABELS: dict[str, str] = {
    "move_up": "Move up",
    "move_down": "Move down",
    "move_left": "Move left",
    "move_right": "Move right",
    "shoot": "Shoot",
    "dash": "Dash",
    "pause": "Pause",
}
# Keys that stay with the menus and hotkeys (Esc leaves menus and pauses, F-keys, the console, M...).
RESERVED = frozenset(
    {K.ESCAPE, K.ENTER, K.RETURN, K.F1, K.F2, K.F3, K.F5, K.F6, K.F7, K.F9, K.F10, K.F11, K.GRAVE, K.M}
)

_ALIASES = {"RETURN": "ENTER", "BACKQUOTE": "GRAVE"}
_BY_CODE: dict[int, str] = {}
for _name in dir(K):
    _value = getattr(K, _name)
    if _name.isupper() and isinstance(_value, int) and not _name.startswith(("MOD_", "MOTION_")):
        _BY_CODE.setdefault(_value, _ALIASES.get(_name, _name))


def key_code(name: str) -> int | None:
    value = getattr(K, name, None)
    return value if isinstance(value, int) and name.isupper() and not name.startswith("MOD_") else None


def key_name(code: int) -> str:
    return _BY_CODE.get(code, f"KEY_{code}")


def key_label(name: str) -> str:
    """A short label for a key name: ``KEY_1`` -> ``1``, ``LSHIFT`` -> ``L-Shift``."""
    special = {"LSHIFT": "L-Shift", "RSHIFT": "R-Shift", "SPACE": "Space", "LCTRL": "L-Ctrl"}
    if name in special:
        return special[name]
    if name.startswith("KEY_") and len(name) == 5:
        return name[4:]
    return name.title() if len(name) > 1 else name


class Controls:
    """The current bindings, both ways."""

    def __init__(self, bindings: KeyBindings | None = None) -> None:
        self.bindings = bindings or KeyBindings()
        self._by_key: dict[int, str] = {}
        for action in ACTIONS:
            for name in getattr(self.bindings, action):
                code = key_code(name)
                if code is None:
                    log.warning("[game.keys] {}: '{}' is not a key name; ignored", action, name)
                elif code not in self._by_key:
                    self._by_key[code] = action

    def action(self, code: int) -> str | None:
        return self._by_key.get(code)

    def keys(self, action: str) -> list[int]:
        return [c for c, a in self._by_key.items() if a == action]

    def label(self, action: str) -> str:
        names = getattr(self.bindings, action)
        return " / ".join(key_label(n) for n in names) or "(none)"

    def rebind(self, action: str, code: int) -> KeyBindings | None:
        """New bindings where ``code`` replaces ``action``'s primary (first) key, its other keys stay (W -> Z
        keeps the arrow); None when the key is reserved for menus and hotkeys."""
        if action not in ACTIONS or code in RESERVED:
            return None
        name = key_name(code)
        data = self.bindings.model_dump()
        rest = [n for n in data[action][1:] if n != name]
        for other in ACTIONS:
            data[other] = [n for n in data[other] if n != name]
        data[action] = [name, *rest][:4]
        return KeyBindings.model_validate(data)


@dataclass(frozen=True)
class PadReading:
    left_x: float = 0.0
    left_y: float = 0.0
    right_x: float = 0.0
    right_y: float = 0.0
    right_trigger: float = 0.0
    left_trigger: float = 0.0
    a: bool = False
    b: bool = False


@dataclass(frozen=True)
class PadInput:
    move_x: float
    move_y: float
    aim: tuple[float, float] | None  # a unit direction, None while the right stick rests
    shoot: bool
    dash: bool


def _dead(x: float, y: float, deadzone: float) -> tuple[float, float]:
    mag = math.hypot(x, y)
    if mag <= deadzone:
        return 0.0, 0.0
    scale = min(1.0, (mag - deadzone) / max(1e-6, 1.0 - deadzone)) / mag
    return x * scale, y * scale


def pad_input(reading: PadReading, deadzone: float) -> PadInput:
    mx, my = _dead(reading.left_x, reading.left_y, deadzone)
    ax, ay = _dead(reading.right_x, reading.right_y, deadzone)
    mag = math.hypot(ax, ay)
    aim = (ax / mag, ay / mag) if mag > 0 else None
    shoot = reading.right_trigger > 0.5 or reading.a or aim is not None
    return PadInput(mx, my, aim, shoot, reading.left_trigger > 0.5 or reading.b)


class Gamepad:
    """The first connected controller (pyglet); any failure only disables the gamepad (logged once)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.device: Any = None
        self._looked = False

    def read(self) -> PadReading | None:
        if not self.enabled:
            return None
        if self.device is None and not self._looked:
            self._looked = True
            self._open()
        if self.device is None:
            return None
        d = self.device
        try:  # pyglet's raw stick y axes grow downwards (HID); the game's y grows upwards
            return PadReading(
                float(d.leftx), -float(d.lefty), float(d.rightx), -float(d.righty),
                float(getattr(d, "righttrigger", 0.0)), float(getattr(d, "lefttrigger", 0.0)),
                bool(getattr(d, "a", False)), bool(getattr(d, "b", False)),
            )  # fmt: skip
        except Exception as exc:
            log.warning("gamepad read failed, gamepad off: {}", exc)
            self.device = None
            return None

    def _open(self) -> None:
        try:
            import pyglet.input

            found = pyglet.input.get_controllers()
            if found:
                found[0].open()
                self.device = found[0]
                log.info("gamepad: {}", getattr(found[0], "name", "controller"))
        except Exception as exc:  # no input backend (headless), no permission...
            log.info("no gamepad: {}", exc)
