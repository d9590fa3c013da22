"""Keyboard and mouse → ``PlayerInput``, the same interface the bots drive.

WASD (or arrows) move, the mouse aims, left button or Space shoots, Shift dashes. A dash pressed while the
dash is cooling down is remembered for a short moment, so a slightly early press still counts.
"""

from __future__ import annotations

from collections.abc import Callable

from arcade import key as K

from game.sim.config import DT
from game.sim.player import PlayerInput

DASH_BUFFER_S = 0.15
MOVE_KEYS = {
    K.W: (0, 1),
    K.UP: (0, 1),
    K.S: (0, -1),
    K.DOWN: (0, -1),
    K.A: (-1, 0),
    K.LEFT: (-1, 0),
    K.D: (1, 0),
    K.RIGHT: (1, 0),
}
DASH_KEYS = (K.LSHIFT, K.RSHIFT)


class HumanInput:
    def __init__(self) -> None:
        self.held: set[int] = set()
        self.mouse = (0.0, 0.0)
        self.mouse_down = False
        self._dash_buffer = 0.0

    def clear(self) -> None:
        self.held.clear()
        self.mouse_down = False
        self._dash_buffer = 0.0

    def press(self, symbol: int) -> bool:
        """Record a key; True when it is a gameplay key (movement, shoot, dash)."""
        if symbol in DASH_KEYS:
            self._dash_buffer = DASH_BUFFER_S
        if symbol in MOVE_KEYS or symbol in DASH_KEYS or symbol == K.SPACE:
            self.held.add(symbol)
            return True
        return False

    def release(self, symbol: int) -> None:
        self.held.discard(symbol)

    def dashed(self) -> None:
        """The simulation started a dash: the buffered press is used up."""
        self._dash_buffer = 0.0

    def sample(self, to_world: Callable[[float, float], tuple[float, float]]) -> PlayerInput:
        """This tick's input; ``to_world`` maps the mouse's window position into the arena."""
        mx = my = 0
        for k in self.held:
            d = MOVE_KEYS.get(k)
            if d is not None:
                mx += d[0]
                my += d[1]
        ax, ay = to_world(*self.mouse)
        dash = self._dash_buffer > 0.0
        self._dash_buffer = max(0.0, self._dash_buffer - DT)
        return PlayerInput(
            move_x=float(max(-1, min(1, mx))),
            move_y=float(max(-1, min(1, my))),
            aim_x=ax,
            aim_y=ay,
            shoot=self.mouse_down or K.SPACE in self.held,
            dash=dash,
        )
