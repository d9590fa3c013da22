"""The main-loop command queue: many producer threads post, the game's main thread drains within a budget.

Agents think on worker threads and never touch the engine; they ``post()`` typed commands
(``coreai.commands``) and get a ``CommandFuture`` back. Each frame the game calls ``drain(budget_s)``,
which applies commands in arrival order until the time budget is spent (the rest waits for the next frame).
Producers never take a lock: the deque's append/popleft are atomic, so per-producer order is kept.

Rules applied here: unknown prefab -> ``UnknownPrefabError`` naming the allowed ones; positions clamped to
``arena_bounds()``; spawn count capped per command; world-mutating commands rate limited per agent; a future
the caller cancelled is skipped, never executed later. ``wait(future, timeout)`` raises ``MainLoopTimeout``
naming why the answer did not come ("paused", "not draining", "backlogged ..."). Every applied or rejected
command is logged with its trace id (feature "world").

This is the one way to hand work to the main thread. Besides the world commands it has a second lane,
``post_ui`` / ``drain_ui`` (``coreai.ui_lane``), for the game's own hand-offs (a panel's answer, a notice
that becomes a toast): those run every frame, also while the game is paused.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from loguru import logger

from coreai.commands import (
    CallOnMain,
    Destroy,
    GetState,
    ListEntities,
    MainLoopCommand,
    Move,
    Spawn,
)
from coreai.errors import (
    CommandRateLimited,
    CommandRejected,
    CoreAIError,
    MainLoopTimeout,
    UnknownPrefabError,
)
from coreai.futures import CommandFuture
from coreai.ratelimit import AgentRateLimiter
from coreai.settings import MainLoopSettings
from coreai.ui_lane import UiLane
from coreai.world import CoreAiBindings, WorldExecutor

T = TypeVar("T")
_log = logger.bind(feature="world")


@dataclass(frozen=True)
class MainLoopStats:
    pending: int
    applied: int
    rejected: int
    skipped_cancelled: int
    paused: bool
    last_drain_age_s: float | None


@dataclass(frozen=True)
class DrainSlice:
    """One ``drain()`` call: when it started (perf_counter), its budget, how long it took, what it did."""

    started: float
    budget_s: float
    elapsed_s: float
    count: int


class MainLoopQueue:
    def __init__(self, bindings: CoreAiBindings, config: MainLoopSettings | None = None) -> None:
        self.bindings = bindings
        self.config = config or MainLoopSettings()
        self._dq: deque[tuple[MainLoopCommand, CommandFuture[Any]]] = deque()
        self._limiter = (
            AgentRateLimiter(self.config.rate_per_s, self.config.rate_burst)
            if self.config.rate_per_s > 0
            else None
        )
        self._game_limiter: AgentRateLimiter | None = None  # main-thread producers (mods), in game time
        self._drain_lock = threading.Lock()
        self._paused = False
        self._closed = False
        self._last_drain: float | None = None
        self.last_slice: DrainSlice | None = None
        self._stats_lock = threading.Lock()
        self._applied = 0
        self._rejected = 0
        self._skipped = 0
        self.ui = UiLane()  # the second lane: the game's own hand-offs, drained also while paused
        self._handlers: dict[type[MainLoopCommand], Callable[[Any], Any]] = {
            Spawn: self._spawn,
            Move: self._move,
            Destroy: self._destroy,
            ListEntities: self._list,
            GetState: self._state,
            CallOnMain: self._call,
        }

    def register(self, command_type: type[MainLoopCommand], handler: Callable[[Any], Any]) -> None:
        """Handle a game-defined command type (e.g. the shop's ``BuyItem``) on the main thread; its
        validation is the pydantic model's and the handler's (raise a ``CoreAIError`` to refuse)."""
        self._handlers[command_type] = handler

    # -- producers (any thread) ---------------------------------------------------------------------------
    def post(self, command: MainLoopCommand) -> CommandFuture[Any]:
        """Queue a command for the main thread; rejections come back as an already-failed future."""
        future: CommandFuture[Any] = CommandFuture(command.kind, command.trace_id)
        if self._admit(command, future, queued=True):
            self._dq.append((command, future))
        return future

    def post_ui(self, fn: Callable[[], None], label: str = "ui") -> None:
        """Hand ``fn`` to the main thread's UI lane (any thread): it runs at the next ``drain_ui``, paused
        or not. For the game's own widgets (panels, toasts), never for changes to the world."""
        self.ui.post(fn, label)

    def drain_ui(self) -> int:
        """Run the UI lane's hand-offs (main thread, every frame on every screen)."""
        return self.ui.drain()

    def apply_now(self, command: MainLoopCommand) -> Any:
        """Apply ``command`` at once on the main thread (Lua mods run there) under exactly the rules a
        drained command gets: whitelist, clamping, the per-command spawn cap and the producer's rate
        limit. Returns the answer or raises the command's ``CoreAIError``."""
        future: CommandFuture[Any] = CommandFuture(command.kind, command.trace_id)
        if self._admit(command, future, queued=False) and future.set_running():
            self._apply(self._handlers[type(command)], command, future)
        return future.result(0)

    def set_game_clock(self, clock: Callable[[], float]) -> None:
        """Rate-limit commands applied on the main thread (``apply_now``: mods, driven by game events) in
        game seconds, so a game running at 14x real time does not look like a mod posting 14x as fast.
        Queued commands from agents keep the wall-clock limit."""
        if self.config.rate_per_s > 0:
            self._game_limiter = AgentRateLimiter(self.config.rate_per_s, self.config.rate_burst, clock=clock)

    def _admit(self, command: MainLoopCommand, future: CommandFuture[Any], *, queued: bool) -> bool:
        """The checks made before a command may run; a refusal fails ``future`` and returns False."""
        if self._closed:
            self._reject(command, future, CommandRejected(command.kind, "main loop is closed"))
            return False
        if type(command) not in self._handlers:
            self._reject(command, future, CommandRejected(command.kind, "unsupported command type"))
            return False
        limit = self.config.max_pending
        if queued and limit and len(self._dq) >= limit:  # may overshoot by the number of racing producers
            self._reject(command, future, CommandRejected(command.kind, f"queue full ({limit} pending)"))
            return False
        limiter = self._limiter if queued or self._game_limiter is None else self._game_limiter
        if limiter is not None and command.agent and command.mutating:
            cost = min(command.cost(), self.config.max_spawn_per_command)
            if not limiter.allow(command.agent, cost):
                self._reject(command, future, CommandRateLimited(command.kind, command.agent))
                return False
        return True

    def wait(self, future: CommandFuture[T], timeout: float | None = None) -> T:
        """Wait for a posted command's answer; on timeout the command is cancelled and the cause named."""
        limit = self.config.wait_timeout_s if timeout is None else timeout
        try:
            return future.result(limit)
        except TimeoutError:
            if future.cancel():  # still queued: it will never run now
                raise MainLoopTimeout(
                    future.label, self.timeout_cause(), limit, trace_id=future.trace_id
                ) from None
            if future.done():
                return future.result(0)  # it finished in the meantime
            raise MainLoopTimeout(
                future.label, "busy: the command started on the main thread but has not finished", limit,
                trace_id=future.trace_id,
            ) from None  # fmt: skip

    def call(self, command: MainLoopCommand, timeout: float | None = None) -> Any:
        """``post`` then ``wait``: the answer, or the command's error."""
        return self.wait(self.post(command), timeout)

    # -- consumer (the game's main thread) ----------------------------------------------------------------
    def drain(self, budget_s: float | None = None) -> int:
        """Apply queued commands until the budget is spent; returns how many were applied or rejected."""
        budget = self.config.drain_budget_ms / 1000.0 if budget_s is None else budget_s
        if not self._drain_lock.acquire(blocking=False):
            _log.error("drain() called concurrently from two threads; this call did nothing")
            return 0
        try:
            clock = time.perf_counter
            started = clock()
            deadline = started + budget
            self._last_drain = time.monotonic()
            dq = self._dq
            handlers = self._handlers
            done = 0
            while dq:
                command, future = dq.popleft()
                if not future.set_running():
                    self._skipped += 1
                    continue
                self._apply(handlers[type(command)], command, future)
                done += 1
                if clock() >= deadline:
                    break
            self.last_slice = DrainSlice(started, budget, clock() - started, done)
            return done
        finally:
            self._drain_lock.release()

    def set_paused(self, paused: bool) -> None:
        """Tell the queue the game loop is paused, so waits that time out say so."""
        self._paused = paused

    @property
    def paused(self) -> bool:
        return self._paused

    def pending(self) -> int:
        return len(self._dq)

    def close(self) -> None:
        """Refuse new commands and resolve everything still queued with an error."""
        self._closed = True
        while True:
            try:
                command, future = self._dq.popleft()
            except IndexError:
                break
            if future.set_running():
                self._reject(command, future, CommandRejected(command.kind, "main loop closed before it ran"))

    def stats(self) -> MainLoopStats:
        age = None if self._last_drain is None else time.monotonic() - self._last_drain
        return MainLoopStats(
            pending=len(self._dq),
            applied=self._applied,
            rejected=self._rejected,
            skipped_cancelled=self._skipped,
            paused=self._paused,
            last_drain_age_s=age,
        )

    # -- internals ----------------------------------------------------------------------------------------
    def timeout_cause(self) -> str:
        """Why a queued command is not being answered: "closed", "paused", "not draining" or "backlogged"."""
        if self._closed:
            return "closed"
        if self._paused:
            return "paused"
        last = self._last_drain
        if last is None or time.monotonic() - last > self.config.not_draining_after_s:
            return "not draining"
        return f"backlogged ({len(self._dq)} commands queued)"

    def _apply(
        self, handler: Callable[[Any], Any], command: MainLoopCommand, future: CommandFuture[Any]
    ) -> None:
        try:
            result = handler(command)
        except CoreAIError as exc:
            if exc.trace_id is None:
                exc.trace_id = command.trace_id
            self._reject(command, future, exc)
            return
        except Exception as exc:
            wrapped = CommandRejected(
                command.kind,
                f"failed on the main thread: {type(exc).__name__}: {exc}",
                trace_id=command.trace_id,
            )
            _log.opt(exception=exc).error(
                "command {} raised in the game", command.kind, trace_id=command.trace_id
            )
            self._reject(command, future, wrapped)
            return
        self._applied += 1
        future.set_result(result)
        _log.debug("applied {} agent={}", command.kind, command.agent, trace_id=command.trace_id)

    def _reject(
        self, command: MainLoopCommand, future: CommandFuture[Any], exc: BaseException
    ) -> CommandFuture[Any]:
        with self._stats_lock:
            self._rejected += 1
        future.set_exception(exc)
        _log.warning("rejected {} agent={}: {}", command.kind, command.agent, exc, trace_id=command.trace_id)
        return future

    def _world(self, kind: str) -> WorldExecutor:
        world = self.bindings.world
        if world is None:
            raise CommandRejected(kind, "no world is registered with the AI core")
        return world

    def _clamp(self, world: WorldExecutor, x: float, y: float) -> tuple[float, float]:
        xmin, ymin, xmax, ymax = world.arena_bounds()
        return min(max(x, xmin), xmax), min(max(y, ymin), ymax)

    def _spawn(self, cmd: Spawn) -> list[int]:
        world = self._world(cmd.kind)
        allowed = list(world.prefab_names())
        if cmd.prefab not in allowed:
            raise UnknownPrefabError(cmd.prefab, allowed, trace_id=cmd.trace_id)
        x, y = self._clamp(world, cmd.x, cmd.y)
        count = min(cmd.count, self.config.max_spawn_per_command)
        if count < cmd.count:
            _log.info("spawn count {} capped to {}", cmd.count, count, trace_id=cmd.trace_id)
        return [world.spawn(cmd.prefab, x, y, elite=cmd.elite) for _ in range(count)]

    def _move(self, cmd: Move) -> bool:
        world = self._world(cmd.kind)
        x, y = self._clamp(world, cmd.x, cmd.y)
        return bool(world.move(cmd.entity_id, x, y))

    def _destroy(self, cmd: Destroy) -> bool:
        return bool(self._world(cmd.kind).destroy(cmd.entity_id))

    def _list(self, cmd: ListEntities) -> list[dict[str, Any]]:
        return list(self._world(cmd.kind).list_entities(cmd.limit))

    def _state(self, cmd: GetState) -> dict[str, Any]:
        provider = self.bindings.state
        if provider is None:
            raise CommandRejected(cmd.kind, "no state provider is registered with the AI core")
        return dict(provider.game_state())

    def _call(self, cmd: CallOnMain) -> Any:
        return cmd.fn()
