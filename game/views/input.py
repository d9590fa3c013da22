"""Keyboard, mouse and gamepad → ``PlayerInput``, the same interface the bots drive.

The keys come from ``game.controls.Controls`` (``[game.keys]``, rebindable on the options screen; by default
WASD or arrows move, Space shoots, Shift dashes); the mouse aims and its left button shoots. A gamepad, when
one is connected, moves with the left stick, aims with the right stick and shoots with the right trigger.
A dash pressed while the dash is cooling down is remembered for a short moment, so a slightly early press
still counts.
"""

from __future__ import annotations

from collections.abc import Callable

from game.controls import MOVES, Controls, Gamepad, pad_input
from game.sim.config import DT
from game.sim.player import PlayerInput

DASH_BUFFER_S = 0.15
PAD_AIM_REACH = 300.0  # how far ahead of the player the right stick aims, arena units


class HumanInput:
    def __init__(self, controls: Controls | None = None, gamepad: Gamepad | None = None) -> None:
        self.controls = controls or Controls()
        self.gamepad = gamepad
        self.deadzone = 0.2
        self.held: set[int] = set()
        self.mouse = (0.0, 0.0)
        self.pointed = False  # the mouse has moved over the window (an untouched one does not aim)
        self.mouse_down = False
        self._dash_buffer = 0.0
        self._pad_dash = False
        self._pad_aim: tuple[float, float] | None = None

    def clear(self) -> None:
        self.held.clear()
        self.mouse_down = False
        self._dash_buffer = 0.0

    def point(self, x: float, y: float) -> None:
        """The mouse is at window pixel (x, y)."""
        self.mouse = (float(x), float(y))
        self.pointed = True

    def press(self, symbol: int) -> bool:
        """Record a key; True when it is a gameplay key (movement, shoot, dash)."""
        action = self.controls.action(symbol)
        if action is None or action == "pause":
            return False
        if action == "dash":
            self._dash_buffer = DASH_BUFFER_S
        self.held.add(symbol)
        return True

    def release(self, symbol: int) -> None:
        self.held.discard(symbol)

    def dashed(self) -> None:
        """The simulation started a dash: the buffered press is used up."""
        self._dash_buffer = 0.0

    def sample(
        self,
        to_world: Callable[[float, float], tuple[float, float]],
        player: tuple[float, float] | None = None,
    ) -> PlayerInput:
        """This tick's input; ``to_world`` maps the mouse's window position into the arena, ``player`` is
        where the right stick aims from."""
        mx = my = 0.0
        shoot = self.mouse_down
        for k in self.held:
            action = self.controls.action(k)
            d = MOVES.get(action or "")
            if d is not None:
                mx += d[0]
                my += d[1]
            elif action == "shoot":
                shoot = True
        ax, ay = to_world(*self.mouse)
        reading = self.gamepad.read() if self.gamepad is not None else None
        if reading is not None:
            pad = pad_input(reading, self.deadzone)
            mx += pad.move_x
            my += pad.move_y
            shoot = shoot or pad.shoot
            if pad.dash and not self._pad_dash:
                self._dash_buffer = DASH_BUFFER_S
            self._pad_dash = pad.dash
            if pad.aim is not None:
                self._pad_aim = pad.aim
            if self._pad_aim is not None and player is not None and pad.aim is not None:
                ax = player[0] + self._pad_aim[0] * PAD_AIM_REACH
                ay = player[1] + self._pad_aim[1] * PAD_AIM_REACH
        dash = self._dash_buffer > 0.0
        self._dash_buffer = max(0.0, self._dash_buffer - DT)
        return PlayerInput(
            move_x=float(max(-1.0, min(1.0, mx))),
            move_y=float(max(-1.0, min(1.0, my))),
            aim_x=ax,
            aim_y=ay,
            shoot=shoot,
            dash=dash,
        )
