"""Reflexes: what acts between decisions (which come every 5-10 s), faster than a plan can. Each reads the
tick's ``PlayerRead`` and returns an ``Adjustment``; none touches the spawner, the world's params or the
crowd itself. The director's act stage (``act.py``) applies them.

- **Grace**: until the player first moves or fires (reading the controls, looking around), for at most
  ``[danger] grace_max_s``: nothing spawns past the presence floor, and hits land at ``low_factor`` (the
  softest). A player who starts at once, as every bot does, never sees it.
- **Rescue**: the HP bar falling (``PlayerRead.falling``) with at least ``[rescue] crowd`` enemies within
  ``radius``: shove them out to ``shove_to``, clear their shots and, under ``[danger] prey_hp``, drop
  ``supply``, at most every ``cooldown_s``. A decision only changes what spawns next; the crowd already on
  the player is what kills.
  At or under ``[danger] hp_low`` (in danger, though nothing is falling) it drops ``supply``. A reflex's
  supply keeps ``cooldown_s`` apart from its last, not the event's longer cooldown for plans: a player
  left at low HP always has a way back up.
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
        return Adjustment(danger=self.t.low_factor, hold=True, why=f"grace: hits x{self.t.low_factor:g}")


class Rescue:
    def __init__(self, t: Tuning) -> None:
        self.t = t.rescue
        self.low_hp, self.prey_hp = t.danger.hp_low, t.danger.prey_hp
        self.at = self.supplied_at = -1e9
        self.count = 0
        self.shoved = 0

    def tick(self, read: PlayerRead, world: World) -> Adjustment:
        t = self.t
        if 0 < read.hp <= self.low_hp and read.time - self.supplied_at >= t.cooldown_s:
            self.supplied_at = read.time  # in danger: the way back up, on the reflex's own cooldown
            return Adjustment(supply=True, why=f"supply: {read.hp:.0%} HP")
        if not read.falling or read.hp <= 0 or read.time - self.at < t.cooldown_s:
            return Adjustment()
        near = crowd_near(world, t.radius)
        if len(near) < t.crowd:
            return Adjustment()
        self.at = read.time
        self.count += 1
        keep = ~np.isin(world.enemies.view("kind")[near], world.prefabs.boss_kinds)  # a boss stays put
        rows = tuple(int(i) for i in near[keep])
        self.shoved += len(rows)
        supply = read.hp < self.prey_hp
        self.supplied_at = read.time if supply else self.supplied_at
        return Adjustment(shove=rows, supply=supply, why=f"RESCUE: {len(rows)} shoved")
