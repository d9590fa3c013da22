"""The agent's keys: key actions held or tapped, and an aim point, sampled into ``PlayerInput`` each tick.

The agent presses the very keys a human would: each held action is the action's bound key (``[game.keys]``)
held in a ``HumanInput``, and each tick's ``PlayerInput`` comes from ``HumanInput.sample`` - the same code a
human's keyboard goes through. In a window the agent holds keys in the arena's own ``HumanInput`` (a human
at the keyboard and the agent add up, as two hands on one keyboard would); headless it has its own.

Aim: a world point (kept until changed), or a screen point: a pixel of the game's logical 1280x720 view,
which is centred on the player and stops at the arena's edge (``game.sim.view``), mapped into the arena
each tick. It never goes through the window's camera (which eases after the player in real time and shakes),
so the same inputs give the same run in a window and headless. Until the agent aims (or a human moves the
mouse over the window, which aims through the camera as for any player), the player aims straight ahead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from game.controls import MOVES
from game.sim.config import SCREEN_H, SCREEN_W
from game.sim.player import PlayerInput
from game.sim.view import view_center
from game.views.input import HumanInput

HELD_ACTIONS: tuple[str, ...] = ("move_up", "move_down", "move_left", "move_right", "shoot", "dash")
ONE_SHOT_ACTIONS: tuple[str, ...] = ("pick_1", "pick_2", "pick_3", "shop_buy", "next_wave")
KeyAction = Literal[
    "move_up", "move_down", "move_left", "move_right", "shoot", "dash",
    "pick_1", "pick_2", "pick_3", "shop_buy", "next_wave",
]  # fmt: skip
ToWorld = Callable[[float, float], tuple[float, float]]

assert set(MOVES) <= set(HELD_ACTIONS)


class AgentKeys:
    def __init__(self, human: HumanInput | None = None) -> None:
        self.input = human if human is not None else HumanInput()
        self.aim_world: tuple[float, float] | None = None  # an arena point the agent aims at
        self.aim_screen: tuple[float, float] | None = None  # or a pixel of the logical view

    @property
    def held(self) -> list[str]:
        """The actions whose key is down now (a view change or pause lets go of every key, as for a human)."""
        down = self.input.held
        return [a for a in HELD_ACTIONS if any(k in down for k in self.input.controls.keys(a))]

    def _key(self, action: str) -> int:
        keys = self.input.controls.keys(action)
        if not keys:
            raise ValueError(f"no key is bound to '{action}'")
        return keys[0]

    def press(self, action: str) -> None:
        self.input.press(self._key(action))
        if action == "dash":  # a press: the input buffers it for a moment, nothing stays held
            self.input.release(self._key(action))

    def release(self, action: str) -> None:
        for key in self.input.controls.keys(action):
            self.input.release(key)

    def release_all(self) -> None:
        for action in self.held:
            self.release(action)

    def aim_at_world(self, x: float, y: float) -> None:
        self.aim_world, self.aim_screen = (float(x), float(y)), None

    def aim_at_screen(self, x: float, y: float) -> None:
        self.aim_world, self.aim_screen = None, (float(x), float(y))

    def sample(self, to_world: ToWorld | None, player: tuple[float, float]) -> PlayerInput:
        """This tick's input. ``to_world``: a human's mouse through the window's camera (None headless)."""
        if self.aim_world is not None:
            aim = self.aim_world
        elif self.aim_screen is not None:
            aim = screen_to_world(self.aim_screen, player)
        elif to_world is not None and self.input.pointed:
            return self.input.sample(to_world, player)  # a human's mouse aims as it always does
        else:  # never aimed: straight ahead of the player
            aim = (player[0] + 1.0, player[1])
        return self.input.sample(lambda _x, _y: aim, player)


def screen_to_world(point: tuple[float, float], player: tuple[float, float]) -> tuple[float, float]:
    """A pixel of the logical 1280x720 view (origin bottom left, like the mouse) as an arena point."""
    cx, cy = view_center(*player)
    return cx - SCREEN_W / 2 + point[0], cy - SCREEN_H / 2 + point[1]
