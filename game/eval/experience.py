"""What the player sees and suffers, measured from the world alone.

The director steers its own intensity and pacing, so grading it by them grades it by its own steering
signal. This meter never reads the director: each tick it looks at the world the player is in (where the
enemies stand, the player's HP, what hit it, what died) and classifies the tick.

- **empty**: no enemy inside the view, the 1280x720 window around the player, stopped at the arena's
  edge as the camera is (``EMPTY_AFTER_S``: the run's opening is not judged, the arena starts empty);
- **engaged**: an enemy within ``REACH_PX`` or a hit in the last ``HIT_MEMORY_S``, while HP is at least
  ``DANGER_HP`` (fighting, not at death's door);
- **danger**: HP under ``DANGER_HP``;
- damage taken, kills and deaths per minute of play (respawn runs count each death and play on).

Shares are of the ticks the world was stepped (upgrade picks take no game time), per run and per minute.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.sim import events as ev
from game.sim.config import TICK_HZ
from game.sim.view import in_view
from game.sim.world import World

EMPTY_AFTER_S = 10.0  # an empty screen counts from this game time on (the run's opening fills the arena)
REACH_PX = 500.0  # an enemy this close is in the fight (the blaster reaches about 790 px)
HIT_MEMORY_S = 3.0  # a hit this recent still counts as engaged
DANGER_HP = 0.25  # HP share under which the player is at death's door
MINUTE_TICKS = 60 * TICK_HZ


@dataclass(frozen=True)
class Experience:
    seconds: float  # game time measured
    ticks: int
    empty_share: float  # of the ticks after EMPTY_AFTER_S
    longest_empty_s: float  # the longest stretch with nothing in view (after EMPTY_AFTER_S)
    engaged_share: float
    danger_share: float
    damage_per_min: float
    kills_per_min: float
    deaths: int
    minute_empty: tuple[float, ...] = ()  # empty share in each minute (the first minute after its opening)
    minute_engaged: tuple[float, ...] = ()

    @property
    def deaths_per_5min(self) -> float:
        return self.deaths / (self.seconds / 300.0) if self.seconds else 0.0


class ExperienceMeter:
    """Feed ``add(world)`` after every stepped tick; ``result(world)`` at any time. O(enemies) per tick."""

    def __init__(self) -> None:
        self.ticks = 0
        self.judged = 0  # ticks after EMPTY_AFTER_S
        self.empty = 0
        self.engaged = 0
        self.danger = 0
        self._run = 0  # the current empty stretch, in ticks
        self.longest = 0
        self._last_hit = -(10**9)
        self._minutes: list[list[int]] = []  # [ticks, judged, empty, engaged] per minute
        self._damage0 = 0.0
        self._kills0 = 0
        self._deaths0 = 0
        self._started = False

    def add(self, world: World) -> None:
        if not self._started:  # a meter attached mid-run measures from here
            self._started = True
            self._damage0, self._kills0, self._deaths0 = (
                world.stats.damage_taken,
                world.stats.kills,
                world.stats.deaths,
            )
        if self.ticks % MINUTE_TICKS == 0:
            self._minutes.append([0, 0, 0, 0])
        minute = self._minutes[-1]
        self.ticks += 1
        minute[0] += 1
        if any(isinstance(e, ev.PlayerDamaged) for e in world.events):
            self._last_hit = self.ticks
        hp = world.player.hp_fraction
        if hp < DANGER_HP:
            self.danger += 1
        else:
            near = False
            e = world.enemies
            if e.n:
                p = world.player
                d2 = (e.view("x") - p.x) ** 2 + (e.view("y") - p.y) ** 2
                near = bool(d2.min() <= REACH_PX * REACH_PX)
            if near or self.ticks - self._last_hit <= HIT_MEMORY_S * TICK_HZ:
                self.engaged += 1
                minute[3] += 1
        if world.time < EMPTY_AFTER_S:
            return
        self.judged += 1
        minute[1] += 1
        if in_view(world) == 0:
            self.empty += 1
            minute[2] += 1
            self._run += 1
            self.longest = max(self.longest, self._run)
        else:
            self._run = 0

    def result(self, world: World) -> Experience:
        n = max(1, self.ticks)
        minutes = self.ticks / MINUTE_TICKS
        per_min = (lambda v: v / minutes) if minutes > 0 else (lambda v: 0.0)
        return Experience(
            seconds=round(self.ticks / TICK_HZ, 3),
            ticks=self.ticks,
            empty_share=round(self.empty / max(1, self.judged), 4),
            longest_empty_s=round(self.longest / TICK_HZ, 2),
            engaged_share=round(self.engaged / n, 4),
            danger_share=round(self.danger / n, 4),
            damage_per_min=round(per_min(world.stats.damage_taken - self._damage0), 2),
            kills_per_min=round(per_min(world.stats.kills - self._kills0), 2),
            deaths=world.stats.deaths - self._deaths0,
            minute_empty=tuple(round(m[2] / m[1], 4) if m[1] else 0.0 for m in self._minutes),
            minute_engaged=tuple(round(m[3] / m[0], 4) for m in self._minutes),
        )
