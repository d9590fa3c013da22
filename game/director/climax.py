"""The ``climax`` event: the peak a run is owed.

The pacing loop peaks when intensity reaches ``pacing.PEAK_INTENSITY``. A strong player who clears every
crowd at range and is never touched never gets there, however high pressure goes: minutes of Build Up with
no Sustain Peak. Once ``rules.CLIMAX_DUE_S`` passed without a peak, the rules director calls ``climax`` with
a ``hold`` (the rings are the peak; a x1.3 spike on top of them wore a level-3 player down):

- the ``surround`` ring (the crowd trailing the player moved onto a ring just off screen, plus new runners),
- a second ring of ``surround_size(wave)`` runners ``CLIMAX_OUTER_DEPTH`` px further out, which reaches the
  player while it is still busy with the first,
- every new enemy of both rings ``CLIMAX_TOUGH_PER_LEVEL`` tougher (HP) per player level above 1, so a
  level-12 build cannot shoot the ring down before it closes,
- and ``CLIMAX_STEP`` times tougher again for each earlier climax of the run that brought no peak within
  ``CLIMAX_WINDOW_S`` (up to ``CLIMAX_MAX_STRENGTH``): the lever that does not run out.

The director reports each peak (``note_peak``) and each new run (``new_run``), so the event knows whether
its last climax worked. State is per run and game-timed, so runs replay exactly.
"""

from __future__ import annotations

import math

from game.director.events import SURROUND_DEPTH, spawn_ring, spawn_surround, surround_size
from game.director.spawner import SpawnPlacer, toughen
from game.sim.world import World

CLIMAX_COOLDOWN_S = 30.0
CLIMAX_WINDOW_S = 45.0  # a climax followed by a peak within this long worked
CLIMAX_OUTER_DEPTH = 320.0  # px past the first ring
CLIMAX_TOUGH_PER_LEVEL = 0.1
CLIMAX_STEP = 1.5
CLIMAX_MAX_STRENGTH = 4.0


class Climax:
    """The event's handler and its per-run memory (how strong the next climax is)."""

    def __init__(self) -> None:
        self.new_run()

    def new_run(self) -> None:
        self.strength = 1.0
        self.fired_at: float | None = None
        self.peak_at = -math.inf

    def note_peak(self, time: float) -> None:
        self.peak_at = time

    def worked(self) -> bool:
        """Whether the last climax brought a peak within ``CLIMAX_WINDOW_S`` (True before the first)."""
        if self.fired_at is None:
            return True
        return self.fired_at <= self.peak_at <= self.fired_at + CLIMAX_WINDOW_S

    def toughness(self, level: int) -> float:
        return self.strength * (1.0 + CLIMAX_TOUGH_PER_LEVEL * max(0, level - 1))

    def __call__(self, world: World, placer: SpawnPlacer) -> None:
        if not self.worked():
            self.strength = min(CLIMAX_MAX_STRENGTH, self.strength * CLIMAX_STEP)
        self.fired_at = world.time
        first = world.enemies.n
        spawn_surround(world, placer)
        start = float(world.rng.uniform(0.0, 2.0 * math.pi))
        spawn_ring(world, surround_size(world.wave), start, SURROUND_DEPTH + CLIMAX_OUTER_DEPTH)
        toughen(world, first, self.toughness(world.player.level))
