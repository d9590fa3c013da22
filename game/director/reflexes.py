"""Reflexes: what acts between decisions (which come every 5-10 s), faster than a plan can. Each reads the
tick's ``PlayerRead`` and returns an ``Adjustment``; none touches the spawner, the world's params or the
crowd itself. The director's act stage (``act.py``) applies them.

- **Grace**: until the player first moves or fires (reading the controls, looking around), for at most
  ``[danger] grace_max_s``: nothing spawns past the presence floor, and hits land at ``grace_factor``. A
  player who starts at once, as every bot does, never sees it.
- **Rescue** (a second wind): under ``[rescue] hp`` of the bar, for a player who has acted, shove the crowd
  out, clear its shots and drop ``supply``, paid from a few charges a run (``charges``, one more at every
  ``recharge_waves``-th wave, the boss waves, up to ``recharge_last_wave``: the second half of a run is
  played on the second winds saved). A decision only changes what spawns next; the crowd
  already on the player is what kills, so this is the comeback; once the charges are spent the run can be
  lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.director.read import PlayerRead
from game.director.tuning import Tuning
from game.sim.world import World


@dataclass(frozen=True)
class Adjustment:
    """What a reflex asks of the act stage this tick (the neutral element: ``Adjustment()``)."""

    danger: float = 1.0  # multiplies the enemy damage factor
    hold: bool = False  # no spawns but the presence floor
    shove: tuple[int, ...] = ()  # enemy rows to push out (the rescue)
    supply: bool = False  # drop supply (if the event is ready)
    why: str = ""  # F10: what is in force


def crowd_near(world: World, radius: float) -> np.ndarray:
    """Indices of the enemies within ``radius`` of the player (their edge, not their centre)."""
    en = world.enemies
    if not en.n:
        return np.zeros(0, dtype=np.int64)
    p = world.player
    d = np.hypot(en.view("x") - p.x, en.view("y") - p.y) - en.view("radius")
    return np.flatnonzero(d < radius)


class Grace:
    def __init__(self, t: Tuning) -> None:
        self.t = t.danger
        self.on = True

    def tick(self, read: PlayerRead, world: World) -> Adjustment:
        self.on = self.on and not read.acted and read.time < self.t.grace_max_s
        if not self.on:
            return Adjustment()
        f = self.t.grace_factor
        return Adjustment(danger=f, hold=True, why=f"grace: hits x{f:g}")


class Rescue:
    """A second wind: a comeback the player earns by fighting, not immunity. Under ``[rescue] hp`` of the
    bar, for a player who has acted, it shoves the crowd within ``radius`` out to ``shove_to``, clears
    their shots and drops ``supply``, at most every ``cooldown_s`` and only while a charge is left. A run
    starts with ``charges``; the start of every ``recharge_waves``-th wave (the boss waves) up to
    ``recharge_last_wave`` gives one back, up to ``charges_max``. With none left, a player at low HP is on
    their own: the run can be lost."""

    def __init__(self, t: Tuning) -> None:
        self.t = t.rescue
        self.charges = self.t.charges
        self.at = -1e9
        self.count = 0
        self.shoved = 0
        self._wave = 1

    def tick(self, read: PlayerRead, world: World) -> Adjustment:
        t = self.t
        if read.wave > self._wave:
            self._wave = read.wave
            if t.recharge_waves and read.wave % t.recharge_waves == 0 and read.wave <= t.recharge_last_wave:
                self.charges = min(t.charges_max, self.charges + 1)
        due = read.acted and 0 < read.hp < t.hp and read.time - self.at >= t.cooldown_s
        if not due or self.charges <= 0:
            return Adjustment()
        self.charges -= 1
        self.at = read.time
        self.count += 1
        near = crowd_near(world, t.radius)
        keep = ~np.isin(world.enemies.view("kind")[near], world.prefabs.boss_kinds)  # a boss stays put
        rows = tuple(int(i) for i in near[keep])
        self.shoved += len(rows)
        return Adjustment(
            shove=rows, supply=True, why=f"SECOND WIND: {len(rows)} shoved, {self.charges} left"
        )
