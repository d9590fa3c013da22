"""The special enemy behaviours, vectorised: chargers dash, exploders blow up, splitters split.

- ``charger``: chases slowly; every ``fire_interval`` s within ``CHARGE_RANGE`` it stops and winds up
  (``WINDUP_S``, telegraphed by the red ring the renderer draws while ``charge > 0``), then dashes in a
  straight line at ``dash_speed`` toward where the player stood when it started winding up: dodgeable.
- ``exploder``: chases fast; close to the player it slows and lights a ``fire_interval`` s fuse, then
  explodes: ``damage`` to the player within ``blast_radius``, and it is gone (no kill, no XP). Killing it
  first defuses it.
- ``splitter``: on death splits into ``split_count`` ``split_into`` enemies around where it died.
- ``shielded``: chases with a front shield (``SHIELD_ARC`` wide) that turns toward the player at only
  ``SHIELD_TURN`` rad/s; a player bullet that reaches it from the front is stopped, whatever its pierce
  (``blocked``). Get round it (dash, circle), or use what is not a bullet: orbit blades, the lance, chain
  lightning. Its facing is ``dir_x``/``dir_y``.

State lives in the enemy pool: ``pattern`` (0 chase, 1 winding up / fusing, 2 dashing), ``charge`` (time
left in the current state), ``cooldown`` (time to the next dash), ``dir_x``/``dir_y`` (dash direction).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from game.sim import events as ev
from game.sim.prefabs import CHARGER, EXPLODER, SHIELDED

if TYPE_CHECKING:
    from game.sim.world import World

CHARGE_RANGE = 460.0
WINDUP_S = 0.55
DASH_S = 0.5
FUSE_TRIGGER = 0.55  # of blast_radius: how close an exploder gets before it lights its fuse
FUSE_SLOWDOWN = 0.3
SPLIT_SPREAD = 26.0
CHASE, WINDUP, DASH = 0, 1, 2
SHIELD_TURN = 1.4  # rad/s
SHIELD_ARC = math.radians(120.0)  # the front the shield covers
SHIELD_COS = math.cos(SHIELD_ARC / 2)
MAX_BLOCK_EVENTS = 16  # per tick


def steer(
    world: World,
    beh: np.ndarray,
    dist: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    vx: np.ndarray,
    vy: np.ndarray,
    dt: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Velocities for chargers and exploders (others pass through unchanged); shields turn."""
    e = world.enemies
    shielded = np.nonzero(beh == SHIELDED)[0]
    if len(shielded):
        _turn_shields(world, shielded, ux, uy, dt)
    chargers = np.nonzero(beh == CHARGER)[0]
    if len(chargers):
        vx, vy = _chargers(world, chargers, dist, ux, uy, vx, vy, dt)
    exploders = np.nonzero(beh == EXPLODER)[0]
    if len(exploders):
        pattern, charge = e.view("pattern"), e.view("charge")
        blast = world.kind_blast_radius[e.view("kind")[exploders]]
        lit = pattern[exploders] == WINDUP
        light = ~lit & (dist[exploders] < blast * FUSE_TRIGGER)
        if light.any():
            j = exploders[light]
            pattern[j] = WINDUP
            charge[j] = world.kind_fire_interval[e.view("kind")[j]]
        fusing = exploders[pattern[exploders] == WINDUP]
        vx[fusing] *= FUSE_SLOWDOWN
        vy[fusing] *= FUSE_SLOWDOWN
    return vx, vy


def _chargers(
    world: World,
    idx: np.ndarray,
    dist: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    vx: np.ndarray,
    vy: np.ndarray,
    dt: float,
) -> tuple[np.ndarray, np.ndarray]:
    e = world.enemies
    pattern, charge, cd = e.view("pattern"), e.view("charge"), e.view("cooldown")
    dir_x, dir_y = e.view("dir_x"), e.view("dir_y")
    state = pattern[idx]
    charge[idx] = np.maximum(0.0, charge[idx] - dt)
    cd[idx] = np.where(state == CHASE, cd[idx] - dt, cd[idx])
    # chase -> wind up: aim at where the player is now
    start = idx[(state == CHASE) & (cd[idx] <= 0.0) & (dist[idx] < CHARGE_RANGE)]
    pattern[start], charge[start] = WINDUP, WINDUP_S
    dir_x[start], dir_y[start] = ux[start], uy[start]
    # wind up -> dash
    go = idx[(state == WINDUP) & (charge[idx] <= 0.0)]
    pattern[go], charge[go] = DASH, DASH_S
    # dash -> chase
    done = idx[(state == DASH) & (charge[idx] <= 0.0)]
    pattern[done] = CHASE
    cd[done] = world.kind_fire_interval[e.view("kind")[done]] * world.rng.uniform(0.8, 1.2, len(done))
    state = pattern[idx]
    winding, dashing = idx[state == WINDUP], idx[state == DASH]
    vx[winding], vy[winding] = 0.0, 0.0
    dash = world.kind_dash_speed[e.view("kind")[dashing]] * world.params.get("enemy_speed_mult")
    vx[dashing], vy[dashing] = dir_x[dashing] * dash, dir_y[dashing] * dash
    return vx, vy


def _turn_shields(world: World, idx: np.ndarray, ux: np.ndarray, uy: np.ndarray, dt: float) -> None:
    e = world.enemies
    fx, fy = e.view("dir_x"), e.view("dir_y")
    new = (fx[idx] == 0.0) & (fy[idx] == 0.0)  # just spawned: facing the player
    if new.any():
        j = idx[new]
        fx[j], fy[j] = ux[j], uy[j]
    heading = np.arctan2(fy[idx], fx[idx])
    want = np.arctan2(uy[idx], ux[idx])
    diff = (want - heading + math.pi) % (2 * math.pi) - math.pi
    heading += np.clip(diff, -SHIELD_TURN * dt, SHIELD_TURN * dt)
    fx[idx], fy[idx] = np.cos(heading), np.sin(heading)


def blocked(world: World, bx: np.ndarray, by: np.ndarray, ei: np.ndarray) -> np.ndarray:
    """Which of these bullet hits (bullet positions, enemy indices) a front shield stops."""
    e = world.enemies
    out = e.view("behaviour")[ei] == SHIELDED
    if not out.any():
        return out
    j = np.nonzero(out)[0]
    k = ei[j]
    rx, ry = bx[j] - e.view("x")[k], by[j] - e.view("y")[k]
    front = rx * e.view("dir_x")[k] + ry * e.view("dir_y")[k] > SHIELD_COS * np.sqrt(rx * rx + ry * ry)
    out[j] = front
    return out


def detonate(world: World, dist: np.ndarray, dt: float) -> None:
    """Exploders whose fuse burnt down go off (after movement, with distances from after the move)."""
    e = world.enemies
    ex = np.nonzero((e.view("behaviour") == EXPLODER) & (e.view("pattern") == WINDUP))[0]
    if len(ex) == 0:
        return
    charge = e.view("charge")
    charge[ex] -= dt
    boom = ex[charge[ex] <= 0.0]
    if len(boom) == 0:
        return
    blast = world.kind_blast_radius[e.view("kind")[boom]]
    in_reach = dist[boom] < blast + world.player.stats.radius
    if in_reach.any():
        dmg = float(e.view("damage")[boom][in_reach].max()) * world.params.get("enemy_damage_mult")
        world.hurt_player(dmg, "explosion")
    names = world.prefabs.names
    for j, r in zip(boom.tolist(), blast.tolist(), strict=True):
        world.events.append(ev.Exploded(float(e.x[j]), float(e.y[j]), float(r)))
        world.events.append(ev.EnemyRemoved(int(e.id[j]), names[int(e.kind[j])]))
    keep = np.ones(e.n, dtype=bool)
    keep[boom] = False
    e.keep(keep)


def split(world: World, kinds: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:
    """Dead splitters (their kinds and positions) release their children; call after the dead are removed."""
    reg = world.prefabs
    for kind, x, y in zip(kinds.tolist(), xs.tolist(), ys.tolist(), strict=True):
        pf = reg.by_index(int(kind))
        if pf.behaviour != "splitter" or not pf.split_into:
            continue
        for k in range(pf.split_count):
            a = 2 * math.pi * k / pf.split_count + 0.6
            world.spawn_enemy(
                pf.split_into, x + math.cos(a) * SPLIT_SPREAD, y + math.sin(a) * SPLIT_SPREAD, source="split"
            )
