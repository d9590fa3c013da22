"""The planted reflex: mercy for a first-time player who stands still in the crowd and shoots (per tick, in
``watch.PlayerWatch``; never under static difficulty).

A playtester who stood still and shot died at 0:28 of wave 1; the ``still`` bot (the novice's aim, no feet)
dies at 16-18 s on every seed 0-9. Two things kill it. Contact damage is the worst of the enemies touching
the player every ``hit_iframes`` (0.45 s): a steady 20+ damage a second however few touch. And an enemy
that pushes onto the player's centre cannot be shot: a bullet leaves the muzzle at the player's edge and is
12 px further out by its first collision test, so the grunts sitting on a player who does not move never
die (the novice walks away from them and shoots them as they follow).

So while a player rated under ``watch.LOW_SKILL``, in its first ``PLANTED_WAVES`` waves, has stayed within
``PLANTED_PX`` of one spot for ``PLANTED_S`` s and was hit in the last ``HURT_S`` s, the director:

- softens enemy hits by ``DAMAGE`` (folded into the watch's damage factor);
- tells the player to move (``HINT``, the announcer toast, at most every ``HINT_GAP_S``): the advice the
  game-over screen gives comes too late for the run it is about.

The enemies on it are held at arm's length by the simulation itself now, for every player and mode
(``game.sim.enemy_ai.keep_off_player``: they still touch, but sit no deeper than ``BODY_DEPTH`` inside its
reach, where its shots hit them); this reflex first did that for the planted player only.

Measured on seeds 0-9 (``first-wave --skill still``): wave 1 survived on 10/10 (was 0/10), the first 60 s
on 10/10. Either lever alone: hits x0.25 10/10 but dead at 31-36 s, arm's length 2/10. Hits x0.5 were enough
for the still bot (10/10) but not for a still player whose aim stays put (the mouse left in one place, as in
the window playtest: 1/10; x0.25: 10/10, dead at 31-47 s if it never moves). From wave 3 on there is no
such mercy (the still bot dies at 73-112 s): the game-over advice tells it to move. A player who walks
``PLANTED_PX`` from where it stopped is no longer planted: the mercy ends at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PLANTED_PX = 40.0  # the player stands still while it stays within this of where it last stopped ...
PLANTED_S = 1.5  # ... for at least this long ...
HURT_S = 3.0  # ... and took a hit within this many seconds
PLANTED_WAVES = 2  # the reflex covers a run's first waves (a first-time player's)
HINT = "Keep moving (WASD): standing still, they swarm you"  # the toast when the mercy comes on ...
HINT_GAP_S = 20.0  # ... at most this often
DAMAGE = 0.25  # enemy hits x this while planted (as in the gentle opening: watch.GRACE_DAMAGE)


@dataclass
class Feet:
    """Where the player last stopped, and since when (game time)."""

    x: float = math.nan
    y: float = math.nan
    since: float = 0.0

    def update(self, x: float, y: float, now: float) -> float:
        """Seconds the player has stood within ``PLANTED_PX`` of where it stopped (0 on the tick it moves)."""
        if math.isnan(self.x) or math.hypot(x - self.x, y - self.y) > PLANTED_PX:
            self.x, self.y, self.since = x, y, now
        return now - self.since


def is_planted(still_s: float, since_hit_s: float, skill: float, wave: int, low_skill: float) -> bool:
    """``still_s`` (``Feet.update``), ``since_hit_s`` (seconds since the last hit), ``skill`` (0..1)."""
    return still_s >= PLANTED_S and since_hit_s <= HURT_S and skill < low_skill and wave <= PLANTED_WAVES
