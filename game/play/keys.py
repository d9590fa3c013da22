"""The agent's keys: key actions held or tapped, and an aim point, sampled into ``PlayerInput`` each tick.

The agent presses the very keys a human would: each held action is the action's bound key (``[game.keys]``)
held in a ``HumanInput``, and each tick's ``PlayerInput`` comes from ``HumanInput.sample`` - the same code a
human's keyboard goes through. In a window the agent holds keys in the arena's own ``HumanInput`` (a human
at the keyboard and the agent add up, as two hands on one keyboard would); headless it has its own.

Aim: a world point (kept until changed), or a screen point (the window's mouse position: mapped through the
camera each tick, exactly as a mouse is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from game.controls import MOVES
from game.sim.player import PlayerInput
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
        self.aim_world: tuple[float, float] | None = None  # None: the mouse (screen) aims

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
        self.aim_world = (float(x), float(y))

    def aim_at_screen(self, x: float, y: float) -> None:
        self.aim_world = None
        self.input.mouse = (float(x), float(y))

    def sample(self, to_world: ToWorld | None, player: tuple[float, float]) -> PlayerInput:
        """This tick's input. ``to_world`` maps a screen point into the arena (None headless)."""
        if self.aim_world is not None:
            aim = self.aim_world
            mapping: ToWorld = lambda _x, _y: aim  # noqa: E731
        elif to_world is not None:
            mapping = to_world
        else:  # headless and never aimed: straight ahead of the player, like an untouched mouse
            mapping = lambda _x, _y: (player[0] + 1.0, player[1])  # noqa: E731
        return self.input.sample(mapping, player)
