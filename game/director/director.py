"""The director's loop: read → decide → act, once per simulation tick on the main thread.

Call ``director.on_tick(world)`` after ``world.step`` and build the world with ``spawner=director.spawner``.
Each tick the reader folds the tick into one ``PlayerRead``, the reflexes return adjustments, the plan
request lifecycle (``requests.py``) polls and asks (every ``[decide] interval_s`` of game time, and at once
on a death, a new Build Up, the bar starting to fall, a wave start or a mode switch), and the actuator
applies the knobs and the adjustments.

Modes: ``static`` (the ``WaveSpawner``, no director), ``rules``, any ``register_source`` one;
``set_mode``/F6 switch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coreai.errors import SettingsError
from game.director.act import Actuator
from game.director.events import EventRegistry
from game.director.memory import DirectorMemory
from game.director.plan import DirectorKnobs
from game.director.read import PlayerRead, Reader
from game.director.reflexes import Grace, Rescue
from game.director.requests import PENDING_MAX_S as PENDING_MAX_S  # the lifecycle's; tests import it here
from game.director.requests import PlanRequests
from game.director.routing import DirectorSpawner
from game.director.rules import RulesSource
from game.director.source import PlanSource
from game.director.spawn_log import SpawnLog
from game.director.trajectory import TrajectorySink
from game.director.tuning import TUNING, Tuning, preset_names, tuning
from game.sim.spawner import CreditSpawner, Limits, WaveSpawner
from game.sim.world import World

STATIC = "static"


class Director(PlanRequests):
    def __init__(
        self,
        mode: str = "rules",
        *,
        seed: int = 0,
        sources: tuple[PlanSource, ...] = (),
        memory: DirectorMemory | None = None,
        trajectory: TrajectorySink | None = None,
        events: EventRegistry | None = None,
        decision_interval_s: float = TUNING.decide.interval_s,
        difficulty: Callable[[], str] | None = None,
    ) -> None:
        self.difficulty = difficulty or (lambda: "normal")  # the player's preset (its tuning overlay)
        self.events = events if events is not None else EventRegistry()
        self.memory = memory if memory is not None else DirectorMemory()
        self.trajectory = trajectory
        self.decision_interval_s = decision_interval_s
        self._sources: dict[str, PlanSource] = {}
        for s in (RulesSource(lambda: self.difficulty()), *sources):  # rules plans under the preset too
            self.register_source(s)
        self._mode = self._known(mode)
        self.reset(seed)

    def reset(self, seed: int) -> None:
        """A new run: fresh telemetry, intensity, pacing, spawners, counters and history. The mode, sources,
        events and memory stay (one director lives for the whole session)."""
        self._reset_requests()
        self.seed = seed
        t = self.tuning
        self.reader = r = Reader(seed, t)
        self.telemetry, self.intensity, self.pacing = r.telemetry, r.intensity, r.pacing  # the reader's
        self.history = r.history  # F10's graph
        self.read: PlayerRead | None = None
        self.spawn_log = SpawnLog()
        self.events.new_run()
        self.credit_spawner = CreditSpawner(
            DirectorKnobs(danger=t.plan.opening_danger, mix=dict(t.mix.start)), t
        )
        self.credit_spawner.limits = Limits(hold=True)  # the first step spawns before the first act
        self.static_spawner = WaveSpawner(tuning=t)
        self.spawner = DirectorSpawner(self.active_spawner, self.request_now)
        self.grace, self.rescue = Grace(t), Rescue(t)
        self.actuator = Actuator(t)
        self._fall_cue = -1e9  # game time the falling bar last asked for a decision
        self._last_tick = -1
        self._last_events: list[Any] | None = None  # the events list last folded in (kept: identity check)
        self._carry: list[Any] = []  # events from a step that did not advance the tick

    # ------------------------------------------------------------------ modes and sources
    @property
    def mode(self) -> str:
        return self._mode

    @property
    def tuning(self) -> Tuning:
        name = self.difficulty()
        return tuning(name if name in preset_names() else "normal")

    def modes(self) -> tuple[str, ...]:
        return (STATIC, *self._sources)

    def register_source(self, source: PlanSource) -> None:
        """Add (or replace) a plan source; its ``name`` becomes a mode."""
        if not source.name or source.name == STATIC:
            raise SettingsError("director.source", f"invalid source name {source.name!r}")
        self._sources[source.name] = source

    def set_mode(self, name: str, world: World | None = None) -> None:
        """Switch mode (between ticks); with ``world`` the switch is recorded. The act stage applies the new
        mode on the next tick."""
        if self._known(name) != self._mode:
            self._mode = name
            self._mode_switched(world)

    def _known(self, mode: str) -> str:
        if mode not in self.modes():
            raise SettingsError("director.mode", f"unknown mode '{mode}'; known: {', '.join(self.modes())}")
        return mode

    def cycle_mode(self, world: World | None = None) -> str:
        modes = self.modes()
        self.set_mode(modes[(modes.index(self._mode) + 1) % len(modes)], world)
        return self._mode

    def active_spawner(self) -> CreditSpawner | WaveSpawner:
        return self.static_spawner if self._mode == STATIC else self.credit_spawner

    # ------------------------------------------------------------------ the tick
    def on_tick(self, world: World) -> None:
        """Fold in what ``world.step`` just produced. A call with no new step (paused, upgrade screen) does
        nothing: events count once and replies land only on ticks (a replay applies them at the same point);
        events a step delivered without advancing the tick are carried to the next tick."""
        if world.events is self._last_events:
            return
        self._last_events = world.events
        if world.tick == self._last_tick:
            self._carry.extend(world.events)
            return
        self._last_tick = world.tick
        events = world.events
        if self._carry:
            events, self._carry = [*self._carry, *events], []
        self.spawn_log.add(world.time, events)
        static = self._mode == STATIC
        read = self.read = self.reader.update(world, events, 1.0 if static else self.knobs.pressure)
        if read.new_peak:
            self.events.note_peak(world.time)
        falling = read.falling and read.time - self._fall_cue >= self.tuning.read.fall_s  # again if it falls
        if falling:
            self._fall_cue = read.time
        if read.died or read.new_build_up or falling:  # a reply in flight still lands first unless a death
            self.request_now(supersede=read.died)
        if static:
            self.actuator.off(world, self.credit_spawner)
            return
        adjustments = [self.grace.tick(read, world), self.rescue.tick(read, world)]  # read -> reflexes
        self._decide(world)  # a plan that landed sets the knobs; a due decision is asked for
        self.actuator.act(world, read, self.knobs, adjustments, self.credit_spawner, self.events)  # act

    # ------------------------------------------------------------------ what the UI reads
    def prompt_line(self) -> str:
        return str(getattr(self._sources.get(self._mode), "prompt_line", "") or "")
