"""``AgentInput``: an agent's key presses, aim and between-waves actions (``player_input``), main thread.

A held key goes into the ``AgentKeys`` the ``PlayController`` samples each tick, so it reaches the world
through the same ``PlayerInput`` a human's keys make; ``hold`` and ``sequence`` step the game through the
controller's clock while they press. Picks, purchases and ``next_wave`` act at once through the front (a
window's screens, or headless) and are recorded in the run's input log.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Sequence
from typing import Any

from game.errors import PlayRefused
from game.play.controller import PlayController
from game.play.keys import HELD_ACTIONS
from game.sim.world import World


class AgentInput:
    """What ``player_input`` does; the keys, the front and the clock are the controller's (a window swaps
    the front and the keys in after start, so they are read through it each call)."""

    def __init__(self, play: PlayController) -> None:
        self.play = play

    def _can_input(self, world: World, action: str) -> None:
        if world.over:
            raise PlayRefused(
                "player_input",
                f"the run is over (wave {world.wave}, {world.phase}): input has no one to move",
            )
        bot = self.play.front.bot()
        if bot is not None:
            raise PlayRefused(
                "player_input", f"a bot ({bot}) has the controls in this game (started with --bot)"
            )
        if action in HELD_ACTIONS and world.phase == "upgrade":
            raise PlayRefused(
                "player_input",
                f"'{action}' does nothing now: an upgrade pick is open (pick_1..pick_{len(world.choices)})",
            )
        if action in HELD_ACTIONS and self.play.front.shop_open():
            raise PlayRefused("player_input", f"'{action}' does nothing now: the shop is open (next_wave)")

    def press(self, action: str, item: str | None = None) -> dict[str, Any]:
        """Hold a key from the next tick on; a one-shot action (pick_N, shop_buy, next_wave) happens now."""
        world = self.play.require_world("player_input")
        self._can_input(world, action)
        if action not in HELD_ACTIONS:
            return self.one_shot(world, action, item)
        self.play.keys.press(action)
        return self.play.digest(world, applied_at_tick=world.tick + 1, pressed=action)

    def release(self, action: str) -> dict[str, Any]:
        world = self.play.require_world("player_input")
        if action not in HELD_ACTIONS:
            raise PlayRefused("player_input", f"'{action}' is a one-shot action: there is nothing to release")
        self.play.keys.release(action)
        return self.play.digest(world, applied_at_tick=world.tick + 1, released=action)

    def release_all(self) -> dict[str, Any]:
        world = self.play.require_world("player_input")
        self.play.keys.release_all()
        return self.play.digest(world, applied_at_tick=world.tick + 1)

    def aim(self, x: float, y: float, *, screen: bool) -> dict[str, Any]:
        world = self.play.require_world("player_input")
        self._can_input(world, "aim")
        if screen:  # a pixel of the logical 1280x720 view, the same in a window and headless
            self.play.keys.aim_at_screen(x, y)
        else:
            self.play.keys.aim_at_world(x, y)
        return self.play.digest(
            world, applied_at_tick=world.tick + 1, aim=[x, y], aim_space="screen" if screen else "world"
        )

    def begin_hold(self, action: str, ticks: int) -> concurrent.futures.Future[dict[str, Any]]:
        """Hold ``action`` for ``ticks`` ticks (stepping them), then let go."""
        world = self.play.require_world("player_input")
        self._can_input(world, action)
        if action not in HELD_ACTIONS:
            raise PlayRefused("player_input", f"'{action}' is a one-shot action: use press")
        self.play.check_can_step(world, "player_input")
        was_held = action in self.play.keys.held
        self.play.keys.press(action)
        end = None if was_held else (lambda: self.play.keys.release(action) if action != "dash" else None)
        future = self.play.begin_step(ticks=ticks, on_end=end, command="player_input")
        self._applied_at(world)
        return future

    def _applied_at(self, world: World) -> None:
        """The step just begun answers with the first tick that saw the input."""
        req = self.play.clock.request
        if req is not None:
            req.extra["applied_at_tick"] = world.tick + 1

    def begin_sequence(
        self, items: Sequence[tuple[int, str, str | None, tuple[float, float] | None]], ticks: int
    ) -> concurrent.futures.Future[dict[str, Any]]:
        """``items``: (tick offset, press / release / aim, action, point); offset 0 is the first tick."""
        world = self.play.require_world("player_input")
        for _at, op, action, _point in items:
            self._can_input(world, action or "aim")
            if op != "aim" and (action is None or action not in HELD_ACTIONS):
                raise PlayRefused("player_input", f"a sequence presses held keys only, not '{action}'")
        by_offset: dict[int, list[tuple[str, str | None, tuple[float, float] | None]]] = {}
        for at, op, action, point in items:
            by_offset.setdefault(at, []).append((op, action, point))

        def on_tick(offset: int) -> None:
            for op, action, point in by_offset.get(offset - 1, ()):
                if op == "press" and action is not None:
                    self.play.keys.press(action)
                elif op == "release" and action is not None:
                    self.play.keys.release(action)
                elif op == "aim" and point is not None:
                    self.play.keys.aim_at_world(*point)

        future = self.play.begin_step(ticks=ticks, on_tick=on_tick, command="player_input")
        self._applied_at(world)
        return future

    def one_shot(self, world: World, action: str, item: str | None) -> dict[str, Any]:
        """pick_N, shop_buy, next_wave: between waves, at once (no tick passes)."""
        if action.startswith("pick_"):
            if world.phase != "upgrade":
                raise PlayRefused("player_input", f"no upgrade pick is open (phase {world.phase})")
            index = int(action.split("_")[1]) - 1
            if index >= len(world.choices):
                raise PlayRefused("player_input", f"only {len(world.choices)} upgrades are offered")
            key = self.play.front.pick(world, index)
            self.play.inputs.action(world.tick, "pick", key)
            return self.play.digest(world, picked=key)
        if action == "shop_buy":
            if not self.play.front.shop_open():
                raise PlayRefused(
                    "player_input", "the shop is closed (it opens between waves, after the pick)"
                )
            if not item:
                raise PlayRefused(
                    "player_input", "shop_buy needs 'item' (an id or name from get_inventory, or 1-9)"
                )
            receipt = self.play.front.shop_buy(world, item)
            self.play.inputs.action(world.tick, "buy", str(receipt.get("item", item)))
            return self.play.digest(world, bought=receipt)
        if action == "next_wave":
            if world.phase == "upgrade":
                raise PlayRefused("player_input", "pick an upgrade first (pick_1..pick_3)")
            if not self.play.front.shop_open():
                raise PlayRefused("player_input", "not between waves: the wave is already on")
            self.play.front.next_wave(world)
            self.play.inputs.action(world.tick, "next_wave", "")
            return self.play.digest(world)
        raise PlayRefused("player_input", f"unknown action '{action}'")
