"""The rescue reflex: the director's mercy when the HP bar falls fast under a crowd (per tick, in
``watch.PlayerWatch``; never under static difficulty).

A decision comes every 5-10 s and only changes what spawns next; the profiled deaths of the strong bot were
a full bar gone in 2-4 s to a crowd that closed in (8-15 enemies within 100 px, escalated hits of 20+). So
when the player lost ``FALL_BARS`` of a bar in the last ``FALL_S`` s and is under ``FALL_HP``, or is under
``LAST_STAND_HP`` (once ``LAST_STAND_FALL_BARS`` of a bar went in ``FALL_S`` s), with at least ``CROWD``
enemies within ``RADIUS`` px, the director, at most every ``COOLDOWN_S`` s (plus one *last stand* inside
that: under ``LAST_STAND_HP`` and falling, ``LAST_STAND_GAP_S`` or more after the rescue before):

- **shoves** the enemies within ``RADIUS`` (a boss stays put) out to ``SHOVE_TO`` px, and clears enemy
  shots within ``RADIUS`` (a visible shockwave: ``game.sim.events.Rescued``);
- scales enemy damage by ``DAMAGE`` for ``SOFT_S`` s (Resident Evil 4's hidden mercy, not god mode);
- holds its own spawns for ``HOLD_S`` s (the spawner's crowd cap at 0);
- drops ``supply`` (health packs) at once if it is ready.

It asks for no decision of its own: the falling bar already did (``telemetry.falling``), and an extra ease
on top of the rescue cost a strong bot that would have lived its pressure (seed 11: mean 1.27x -> 0.99x).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from loguru import logger

from game.director.rules import EASE_EVENT
from game.sim import events as ev
from game.sim.config import ARENA_H, ARENA_W
from game.sim.world import World

if TYPE_CHECKING:
    from game.director.director import Director

FALL_S = 2.0
FALL_BARS = 0.3  # this much of a bar lost in FALL_S ...
FALL_HP = 0.7  # ... leaving the player under this much HP ...
LAST_STAND_HP, LAST_STAND_FALL_BARS = 0.35, 0.15  # ... or under LAST_STAND_HP while still falling
CROWD = 3  # ... with at least this many enemies within RADIUS: rescue
RADIUS = 150.0
SHOVE_TO = 280.0
SHOVE_WALL = 30.0
DAMAGE = 0.5
SOFT_S = 3.0
HOLD_S = 5.0
COOLDOWN_S = 12.0
LAST_STAND_GAP_S = 4.0  # within the cooldown, one last stand (under LAST_STAND_HP) may come this soon


@dataclass
class RescueState:
    rescues: int = 0
    shoved: int = 0  # enemies pushed back, in all
    at: float = -1e9  # game time of the last rescue
    stand: bool = False  # the last rescue was a last stand inside the cooldown (one per cooldown)


def crowd_near(world: World, radius: float = RADIUS) -> np.ndarray:
    """Indices of the enemies within ``radius`` of the player (their edge, not their centre)."""
    en = world.enemies
    if not en.n:
        return np.zeros(0, dtype=np.int64)
    p = world.player
    d = np.hypot(en.view("x") - p.x, en.view("y") - p.y) - en.view("radius")
    return np.flatnonzero(d < radius)


def should_rescue(hp: float, fell: float, crowd: int) -> bool:
    """``hp`` (fraction), ``fell`` (bars lost in ``FALL_S`` s), ``crowd`` (enemies within ``RADIUS``)."""
    falling = (fell >= FALL_BARS and hp < FALL_HP) or (hp < LAST_STAND_HP and fell >= LAST_STAND_FALL_BARS)
    return falling and crowd >= CROWD


class Rescue:
    def __init__(self) -> None:
        self.state = RescueState()
        self._log = logger.bind(feature="director.rescue", trace_id="-")

    def damage_factor(self, now: float) -> float:
        return DAMAGE if now - self.state.at < SOFT_S else 1.0

    def holding(self, now: float) -> bool:
        return now - self.state.at < HOLD_S

    def left_s(self, now: float) -> float:
        """Seconds of the last rescue still in force (the spawn hold), 0 when none."""
        return max(0.0, HOLD_S - (now - self.state.at))

    def tick(self, director: Director, world: World) -> bool:
        """Rescue now if the bar is falling under a crowd; True when it did."""
        st = self.state
        since = world.time - st.at
        tel = director.telemetry
        stand = since < COOLDOWN_S  # inside the cooldown only a last stand, once, LAST_STAND_GAP_S on
        if world.player.hp <= 0 or (stand and (st.stand or since < LAST_STAND_GAP_S)):
            return False
        if stand and tel.hp_fraction >= LAST_STAND_HP:
            return False
        fell = tel.damage_fraction(FALL_S)
        near = crowd_near(world)
        if not should_rescue(tel.hp_fraction, fell, len(near)):
            return False
        st.at = world.time
        st.stand = stand
        st.rescues += 1
        pushed = self._shove(world, near)
        st.shoved += pushed
        supply = director.events.not_ready(EASE_EVENT, world) is None
        if supply:
            director.events.fire(EASE_EVENT, world, director.credit_spawner.placer)
        world.emit(ev.Rescued(world.player.x, world.player.y, RADIUS, pushed))
        self._log.bind(trace_id=f"dir-s{director.seed}").info(
            "rescue {}{} at {:.1f}s: {:.0%} HP, {:.0%} of a bar lost in {:g}s, {} enemies close: {} shoved, "
            "hits x{:g} for {:g}s, spawns held {:g}s{}",
            st.rescues,
            " (last stand)" if stand else "",
            world.time,
            tel.hp_fraction,
            fell,
            FALL_S,
            len(near),
            pushed,
            DAMAGE,
            SOFT_S,
            HOLD_S,
            ", supply dropped" if supply else "",
        )
        return True

    def _shove(self, world: World, near: np.ndarray) -> int:
        en = world.enemies
        p = world.player
        keep = ~np.isin(en.view("kind")[near], world.prefabs.boss_kinds)
        idx = near[keep]
        if len(idx):
            xs, ys = en.view("x"), en.view("y")
            dx, dy = xs[idx] - p.x, ys[idx] - p.y
            d = np.hypot(dx, dy)
            # an enemy right on the player goes a way of its own (spread round the circle), not all one way
            angle = np.where(d > 1e-6, np.arctan2(dy, dx), np.linspace(0.0, 2 * math.pi, len(idx)))
            xs[idx] = np.clip(p.x + np.cos(angle) * SHOVE_TO, SHOVE_WALL, ARENA_W - SHOVE_WALL)
            ys[idx] = np.clip(p.y + np.sin(angle) * SHOVE_TO, SHOVE_WALL, ARENA_H - SHOVE_WALL)
        eb = world.enemy_bullets
        if eb.n:
            near_shots = np.hypot(eb.view("x") - p.x, eb.view("y") - p.y) < RADIUS
            if near_shots.any():
                eb.keep(~near_shots)
        return len(idx)
