"""Read: what the director knows about the player, computed once per tick (``Reader.update``).

The ``PlayerRead`` is the one input of everything that decides or acts between decisions: the plan's
situation is built from the same telemetry, the reflexes and the act stage read nothing else. It holds the
skill estimate, L4D intensity and its pacing phase, HP and whether the bar is falling, the player's kill
pace, the crowd in view or about to enter it, whether a boss is alive, and whether the player has touched
the controls yet. The reader also keeps the intensity history F10's graph draws (``IntensityHistory``:
``HISTORY_HZ`` samples a second of game time, the last ``HISTORY_S`` seconds).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from game.director.intensity import IntensityTracker
from game.director.pacing import Pacing, PacingState
from game.director.telemetry import Telemetry
from game.director.tuning import Tuning
from game.sim import events as ev
from game.sim.config import DT, TICK_HZ
from game.sim.view import ARRIVING_PX, boss_in_view, seen
from game.sim.world import World

MOVED_PX = 6.0  # the player has acted once it moved this far from where it began (or fired a shot)
HISTORY_S = 120.0  # the panel's intensity graph spans the last two minutes
HISTORY_HZ = 4  # samples per second of game time


@dataclass(frozen=True)
class PlayerRead:
    time: float
    wave: int
    hp: float  # fraction of max HP
    falling: bool  # the HP bar is falling (``[read]`` fall_bars within fall_s)
    fell: float  # bars lost within fall_s
    skill: float
    intensity: float
    pacing: PacingState
    kill_pace: float  # kills per minute, last minute
    present: int  # enemies in view or about to enter it (``ARRIVING_PX``)
    boss_in_view: bool  # a boss fight the player is in (a boss left behind off screen is not the peak)
    acted: bool  # the player moved or fired since the run began
    died: bool  # the player died this tick
    new_build_up: bool  # the pacing loop entered Build Up this tick
    new_peak: bool  # ... or a Sustain Peak


@dataclass(frozen=True)
class IntensitySample:
    time: float
    intensity: float
    pacing: PacingState


class IntensityHistory:
    """A fixed-size ring of samples, taken every ``TICK_HZ // HISTORY_HZ`` ticks."""

    def __init__(self) -> None:
        self._samples: deque[IntensitySample] = deque(maxlen=int(HISTORY_S * HISTORY_HZ))

    def add(self, time: float, intensity: float, pacing: PacingState) -> None:
        self._samples.append(IntensitySample(round(time, 3), round(intensity, 4), pacing))

    def samples(self) -> tuple[IntensitySample, ...]:
        return tuple(self._samples)


class Reader:
    """Owns the instruments (telemetry, intensity, pacing) and folds each tick into a ``PlayerRead``."""

    def __init__(self, seed: int, tuning: Tuning) -> None:
        self.t = tuning
        self.telemetry = Telemetry(tuning.plan.threat_hp)
        self.intensity = IntensityTracker()
        self.pacing = Pacing(seed, tuning.pacing)
        self._start: tuple[float, float] | None = None
        self.acted = False
        self.history = IntensityHistory()
        self.last: PlayerRead | None = None

    def update(self, world: World, events: Sequence[ev.Event], pressure: float) -> PlayerRead:
        tel = self.telemetry
        tel.pressure = pressure
        tel.update(world, events)
        value = self.intensity.update(
            events, hp_fraction=tel.hp_fraction, max_hp=tel.max_hp, engaged=tel.engaged, dt=DT
        )
        before = self.pacing.state
        state = self.pacing.update(value, DT)
        p = world.player
        if self._start is None:
            self._start = (p.x, p.y)
        moved = math.hypot(p.x - self._start[0], p.y - self._start[1]) > MOVED_PX
        self.acted = self.acted or moved or tel.shots_total > 0
        fell = tel.damage_fraction(self.t.read.fall_s)
        sees = seen(world, ARRIVING_PX)  # once a tick: the crowd in view and whether the boss is in it
        read = PlayerRead(
            time=world.time,
            wave=world.wave,
            hp=tel.hp_fraction,
            falling=fell >= self.t.read.fall_bars,
            fell=fell,
            skill=tel.skill.value,
            intensity=value,
            pacing=state,
            kill_pace=tel.kills_per_min,
            present=int(sees.sum()),
            boss_in_view=boss_in_view(world, sees),
            acted=self.acted,
            died=tel.died,
            new_build_up=state is not before and state is PacingState.BUILD_UP,
            new_peak=state is not before and state is PacingState.SUSTAIN_PEAK,
        )
        if world.tick % (TICK_HZ // HISTORY_HZ) == 0:
            self.history.add(world.time, value, state)
        self.last = read
        return read
