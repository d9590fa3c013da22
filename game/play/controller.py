"""``PlayController``: an agent's control of game time, on the game's main thread.

The tools (``game.play.tools``) reach it only through ``CallOnMain`` (the one main-loop queue); the loop that
owns the fixed timestep asks it, every tick, whether to tick (``may_tick``), what the player does
(``sample``) and tells it what happened (``after_tick``). Nothing here steps the world itself: a ``step``
hands the loop a ``StepRequest`` and returns its future, which the loop resolves on the tick the step ends,
with that tick's digest. So a frozen game is not paused: the loop keeps drawing and draining calls.
The agent's key presses, aim and between-waves actions (``player_input``) are ``game.play.agent_input``.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from loguru import logger

from game.bindings import WorldHandle
from game.errors import PlayRefused
from game.play.clock import SimClock, StepRequest
from game.play.digest import digest
from game.play.inputs import InputFeed, InputLog
from game.play.journal import EventJournal
from game.play.keys import AgentKeys, ToWorld
from game.sim import events as ev
from game.sim.config import TICK_HZ
from game.sim.player import PlayerInput
from game.sim.world import World

log = logger.bind(feature="play", trace_id="-")
MAX_STEP_TICKS = 60 * TICK_HZ * 10  # one call steps at most 10 minutes of game time
DEFAULT_UNTIL_TICKS = 60 * TICK_HZ  # step_until's default tick limit: one minute of game time
DEFAULT_WALL_S = 45.0  # a step answers within this much wall time (clients time out at 60 s by default)
MAX_WALL_S = 300.0  # the most wall time a client may give one step

Condition = Callable[[], bool]


class Front(Protocol):
    """What the between-waves actions mean where the game runs (a window's screens, or headless)."""

    def pick(self, world: World, index: int) -> str: ...

    def shop_open(self) -> bool: ...

    def shop_buy(self, world: World, item: str) -> dict[str, Any]: ...

    def next_wave(self, world: World) -> None: ...

    def to_world(self) -> ToWorld | None: ...

    def bot(self) -> str | None: ...

    def coins(self) -> int | None: ...

    def new_run(self, seed: int) -> None: ...


class PlayController:
    def __init__(
        self,
        handle: WorldHandle,
        front: Front,
        keys: AgentKeys,
        *,
        frozen: bool = False,
        headless: bool = False,
        compile_condition: Callable[[str], Condition] | None = None,
    ) -> None:
        self.handle = handle
        self.front = front
        self.keys = keys
        self.clock = SimClock(frozen=frozen, headless=headless)
        self.journal = EventJournal()
        self.inputs = InputLog()  # what was pressed, per tick: a run can be replayed or forked
        self.feed: InputFeed | None = None  # a replay or fork feeding recorded input instead of the keys
        self.compile_condition = compile_condition
        self._cancel = False
        self.feed_diverged = ""

    # ------------------------------------------------------------------ the loop's side (main thread)
    def may_tick(self, world: World) -> bool:
        return world.phase == "playing" and self.clock.may_tick() and not self.front.shop_open()

    def stepping(self) -> bool:
        return self.clock.request is not None

    def sample(self, world: World, to_world: ToWorld | None) -> PlayerInput:
        """The agent's input for the coming tick (a scripted sequence applies its presses first)."""
        req = self.clock.request
        if req is not None and req.on_tick is not None:
            req.on_tick(world.tick + 1 - req.start_tick)
        if self.feed is not None:
            inp = self.feed.input(world.tick + 1)
        else:
            inp = self.keys.sample(to_world, (world.player.x, world.player.y))
        self.inputs.tick(world.tick + 1, inp)
        return inp

    def after_tick(self, world: World, events: list[ev.Event]) -> None:
        if any(isinstance(e, ev.Dashed) for e in events):
            self.keys.input.dashed()  # the buffered dash press is used up (a window's arena does the same)
        rows = self.journal.record(world.tick, events)
        if self.feed is not None and (world.phase == "upgrade" or self.front.shop_open()):
            self._feed_between_waves(world)
        req = self.clock.request
        if req is None:
            return
        reason = self._stop_reason(world, req, rows)
        if reason is not None:
            self._finish(world, reason)

    def after_frame(self, world: World) -> None:
        """Once per loop pass: a step that can go no further (a pick opened between ticks, a new run) ends."""
        req = self.clock.request
        if req is None:
            return
        given_up = "cancelled" if self._cancel else req.given_up()
        if given_up is not None:
            self._finish(world, given_up)
        elif self.feed_diverged:
            self._finish(world, "diverged")
        elif world.phase != "playing" or self.front.shop_open():
            self._finish(world, self._phase_reason(world))

    def _feed_between_waves(self, world: World) -> None:
        """A replay reaches a wave's end: take the recorded picks and purchases, then go on."""
        assert self.feed is not None
        for row in self.feed.actions(world.tick):
            if "pick" in row:
                if world.phase != "upgrade" or row["pick"] not in world.choices:
                    self.feed_diverged = (
                        f"tick {world.tick}: recorded pick {row['pick']}, offered {world.choices}"
                    )
                    return
                self.front.pick(world, world.choices.index(row["pick"]))
                self.inputs.action(world.tick, "pick", row["pick"])
            elif "buy" in row:
                self.front.shop_buy(world, row["buy"])
                self.inputs.action(world.tick, "buy", row["buy"])
            elif "next_wave" in row and self.front.shop_open():
                self.front.next_wave(world)
                self.inputs.action(world.tick, "next_wave", "")

    def on_run_start(self, world: World) -> None:
        self.journal.reset()
        self.inputs.reset()
        if self.clock.request is not None:
            self._finish(world, "new run")

    def _stop_reason(self, world: World, req: StepRequest, rows: list[dict[str, Any]]) -> str | None:
        if self.feed_diverged:
            return "diverged"
        hit = [r for r in rows if r["type"] in req.events]
        if hit:
            req.matched.extend(hit)
            return f"event:{hit[0]['type']}"
        if req.condition is not None and req.condition():
            return "condition"
        if req.until_tick is not None and world.tick >= req.until_tick:
            return "ticks"
        if world.tick >= req.limit_tick:
            return "tick_limit"
        if world.phase != "playing":
            return self._phase_reason(world)
        if self._cancel:
            return "cancelled"
        return req.given_up()

    @staticmethod
    def _phase_reason(world: World) -> str:
        if world.phase == "upgrade":
            return "upgrade_pick"
        if world.phase == "dead":
            return "player_died"
        if world.phase == "won":
            return "run_won"
        return "shop_open"

    def _finish(self, world: World, reason: str) -> None:
        req = self.clock.request
        if req is None:
            return
        self.clock.request = None
        self._cancel = False
        self.clock.frozen = True
        if req.on_end is not None:
            req.on_end()
        extra: dict[str, Any] = {"stopped": reason, "stepped": world.tick - req.start_tick, **req.extra}
        if req.matched:
            extra["matched"] = req.matched[:5]
        if not req.future.done():
            req.future.set_result(self.digest(world, **extra))

    def cancel_step(self) -> None:
        """The caller gave up on its step (any thread): it ends at the next tick or frame."""
        self._cancel = True

    # ------------------------------------------------------------------ answers
    def digest(self, world: World, **extra: Any) -> dict[str, Any]:
        more: dict[str, Any] = {**extra, **self.clock.describe()}
        held = self.keys.held
        if held:
            more["held"] = held
        if self.front.shop_open():
            more["shop_open"] = True
        coins = self.front.coins()
        if coins is not None:
            more["coins"] = coins
        return digest(world, self.journal.since_last(), **more)

    def require_world(self, command: str) -> World:
        world = self.handle.world
        if world is None:
            raise PlayRefused(command, "no run is in progress yet")
        return world

    # ------------------------------------------------------------------ sim_control (main thread)
    def state(self) -> dict[str, Any]:
        return self.digest(self.require_world("sim_control"))

    def freeze(self) -> dict[str, Any]:
        world = self.require_world("sim_control")
        self.clock.frozen = True
        return self.digest(world)

    def thaw(self) -> dict[str, Any]:
        world = self.require_world("sim_control")
        if self.clock.request is not None:
            raise PlayRefused("sim_control", "a step is in progress; thaw when it has answered")
        self.clock.frozen = False
        return self.digest(world)

    def set_speed(self, speed: float) -> dict[str, Any]:
        world = self.require_world("sim_control")
        try:
            self.clock.speed = self.clock.check_speed(speed)
        except ValueError as exc:
            raise PlayRefused("sim_control", str(exc)) from None
        return self.digest(world)

    def check_can_step(self, world: World, command: str) -> None:
        req = self.clock.request
        if req is not None and (self._cancel or req.given_up() is not None):
            self._finish(world, "cancelled" if self._cancel else req.given_up() or "cancelled")
        if self.clock.request is not None:
            raise PlayRefused(command, "a step is already in progress (one at a time)")
        if world.phase == "dead":
            raise PlayRefused(command, f"the player is dead (wave {world.wave}); the run is over")
        if world.phase == "won":
            raise PlayRefused(command, f"the run is won (wave {world.wave} survived); the run is over")
        if world.phase == "upgrade":
            raise PlayRefused(
                command,
                f"an upgrade pick is open: choose with player_input pick_1..pick_{len(world.choices)}",
            )
        if self.front.shop_open():
            raise PlayRefused(command, "the shop is open between waves: shop_buy, or next_wave to go on")

    def begin_step(
        self,
        *,
        ticks: int | None = None,
        events: tuple[str, ...] = (),
        condition: str | None = None,
        max_ticks: int = DEFAULT_UNTIL_TICKS,
        on_tick: Callable[[int], None] | None = None,
        on_end: Callable[[], None] | None = None,
        command: str = "sim_control",
        cancel: threading.Event | None = None,
        max_wall_s: float = DEFAULT_WALL_S,
    ) -> concurrent.futures.Future[dict[str, Any]]:
        """Start a step; the loop resolves the future with the digest of its last tick. It ends early, with
        the ticks it did, when ``cancel`` is set ("cancelled") or after ``max_wall_s`` ("wall_time")."""
        world = self.require_world(command)
        self.check_can_step(world, command)
        check: Condition | None = None
        if condition:
            if self.compile_condition is None:
                raise PlayRefused(command, "Lua conditions are unavailable in this game")
            check = self.compile_condition(condition)  # raises PlayRefused on a bad expression
        start = world.tick
        limit = start + max(1, min(max_ticks, MAX_STEP_TICKS))
        req = StepRequest(
            start_tick=start,
            until_tick=None if ticks is None else start + ticks,
            limit_tick=limit if ticks is None else max(limit, start + ticks),
            events=frozenset(events),
            condition=check,
            condition_text=condition or "",
            on_tick=on_tick,
            on_end=on_end,
            cancel=cancel,
            wall_deadline=time.monotonic() + max(0.0, min(max_wall_s, MAX_WALL_S)),
        )
        self._cancel = False
        self.clock.request = req
        log.debug("step from tick {}: ticks={} events={} condition={!r}", start, ticks, events, condition)
        return req.future
