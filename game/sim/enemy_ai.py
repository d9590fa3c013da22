"""Vectorised enemy behaviour: chase, keep-distance ranged attackers, boss patterns, crowd separation
(chargers, exploders and splitters: ``game.sim.enemy_kinds``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from game.sim import enemy_kinds
from game.sim.config import ARENA_H, ARENA_W
from game.sim.prefabs import BOSS, RANGED
from game.sim.spatial import cell_keys

if TYPE_CHECKING:
    from game.sim.world import World

SEPARATION_STRENGTH = 60.0  # px/s push away from a crowded cell's centre
BODY_DEPTH = 4.0  # an enemy touching the player sits at most this far inside the touching distance
BOSS_CHARGE_SPEED = 3.6


def move_enemies(world: World, dt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move every enemy one tick; returns (dx, dy, dist) from each enemy to the player after moving."""
    e = world.enemies
    x, y = e.view("x"), e.view("y")
    px, py = world.player.x, world.player.y
    dx = px - x
    dy = py - y
    dist = np.sqrt(dx * dx + dy * dy) + 1e-6
    ux, uy = dx / dist, dy / dist
    beh = e.view("behaviour")
    speed = e.view("speed") * world.params.get("enemy_speed_mult")
    vx = ux * speed
    vy = uy * speed
    ri = np.nonzero(beh == RANGED)[0]
    if len(ri):
        d, rux, ruy, rs = dist[ri], ux[ri], uy[ri], speed[ri]
        keep = world.kind_keep_distance[e.view("kind")[ri]]
        far = d > keep + 40.0
        near = d < keep - 40.0
        sign = np.where(far, 1.0, np.where(near, -1.0, 0.0))
        strafe = ~far & ~near
        # ranged units approach or back off along the line, and circle while in their band
        vx[ri] = rux * rs * sign - ruy * rs * 0.5 * strafe
        vy[ri] = ruy * rs * sign + rux * rs * 0.5 * strafe
    boss = beh == BOSS
    if boss.any():
        charging = boss & (e.view("charge") > 0.0)
        vx = np.where(charging, vx * BOSS_CHARGE_SPEED, vx)
        vy = np.where(charging, vy * BOSS_CHARGE_SPEED, vy)
        e.view("charge")[boss] = np.maximum(0.0, e.view("charge")[boss] - dt)
    vx, vy = enemy_kinds.steer(world, beh, dist, ux, uy, vx, vy, dt)
    x += vx * dt
    y += vy * dt
    r = e.view("radius")
    np.clip(x, r, ARENA_W - r, out=x)
    np.clip(y, r, ARENA_H - r, out=y)
    flash = e.view("hit_flash")
    flash -= dt
    np.maximum(flash, 0.0, out=flash)
    return to_player(world)


def to_player(world: World) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dy, dist) from each enemy to the player."""
    e = world.enemies
    dx = world.player.x - e.view("x")
    dy = world.player.y - e.view("y")
    return dx, dy, np.sqrt(dx * dx + dy * dy) + 1e-6


def separate(world: World, dt: float) -> None:
    """Push enemies that share a cell (``world.crowd_cell``) apart from the cell's centre of mass (O(n), no
    pair loop, no sort: cells are dense indices counted with ``bincount``)."""
    e = world.enemies
    if e.n < 2:
        return
    x, y = e.view("x"), e.view("y")
    inverse = cell_keys(x, y, world.crowd_cell)
    counts = np.bincount(inverse)
    cnt = counts[inverse]
    crowded = cnt > 1
    if not crowded.any():
        return
    sx = np.bincount(inverse, weights=x)[inverse] / cnt
    sy = np.bincount(inverse, weights=y)[inverse] / cnt
    ox, oy = x - sx, y - sy
    norm = np.sqrt(ox * ox + oy * oy)
    # enemies sitting exactly on the centre get a deterministic direction from their id
    flat = crowded & (norm < 1e-3)
    if flat.any():
        ang = (e.view("id")[flat] * 2.399963) % (2 * math.pi)
        ox[flat], oy[flat], norm[flat] = np.cos(ang), np.sin(ang), 1.0
    push = np.where(crowded, SEPARATION_STRENGTH * np.minimum(cnt - 1, 6) * dt / np.maximum(norm, 1e-3), 0.0)
    x += ox * push
    y += oy * push


def keep_off_player(world: World) -> int:
    """Set each enemy (not a boss) that pushed deeper than ``BODY_DEPTH`` into the player back to that depth,
    out the way it came in; returns how many moved. It still touches (contact hits land), but a chaser no
    longer walks onto the player's centre, where no shot could hit it: a bullet leaves the muzzle at the
    player's edge and is a step further out by its first collision test, so grunts sitting on a player who
    stood still never died (the planted playtest, seed 3: dead at 0:29)."""
    en = world.enemies
    if not en.n:
        return 0
    p = world.player
    xs, ys, r = en.view("x"), en.view("y"), en.view("radius")
    dx, dy = xs - p.x, ys - p.y
    d = np.hypot(dx, dy)
    reach = r + p.stats.radius - BODY_DEPTH
    deep = np.flatnonzero((d < reach) & (en.view("behaviour") != BOSS))
    if not len(deep):
        return 0
    # one on the player's exact centre goes a way of its own (spread round the circle by its id)
    fallback = (en.view("id")[deep] * 2.399963) % (2 * math.pi)
    angle = np.where(d[deep] > 1e-6, np.arctan2(dy[deep], dx[deep]), fallback)
    xs[deep] = np.clip(p.x + np.cos(angle) * reach[deep], r[deep], ARENA_W - r[deep])
    ys[deep] = np.clip(p.y + np.sin(angle) * reach[deep], r[deep], ARENA_H - r[deep])
    return len(deep)


def enemy_attacks(world: World, dx: np.ndarray, dy: np.ndarray, dist: np.ndarray, dt: float) -> None:
    """Ranged units and bosses fire enemy projectiles when their cooldown runs out."""
    e = world.enemies
    beh = e.view("behaviour")
    shooters = np.nonzero((beh == RANGED) | (beh == BOSS))[0]
    if len(shooters) == 0:
        return
    cd = e.view("cooldown")
    cd[shooters] -= dt
    kind = e.view("kind")
    keep = world.kind_keep_distance[kind[shooters]]
    ready = (
        (beh[shooters] == RANGED) & (cd[shooters] <= 0.0) & (dist[shooters] < np.maximum(keep, 200.0) * 1.7)
    )
    idx = shooters[ready]
    if len(idx):
        spd = world.kind_projectile_speed[kind[idx]]
        world.fire_enemy_bullets(
            e.view("x")[idx],
            e.view("y")[idx],
            dx[idx] / dist[idx] * spd,
            dy[idx] / dist[idx] * spd,
            e.view("damage")[idx],
        )
        cd[idx] = world.kind_fire_interval[kind[idx]] * world.rng.uniform(0.85, 1.15, len(idx))
    for i in np.nonzero((beh == BOSS) & (cd <= 0.0))[0]:
        boss_pattern(world, int(i), float(dx[i]), float(dy[i]), float(dist[i]))


def boss_pattern(world: World, i: int, dx: float, dy: float, dist: float) -> None:
    """Cycle radial burst → aimed spread → charge."""
    e = world.enemies
    bx, by = float(e.x[i]), float(e.y[i])
    spd = float(world.kind_projectile_speed[e.kind[i]])
    dmg = float(e.damage[i]) * 0.6
    pattern = int(e.pattern[i])
    if pattern == 0:
        angles = np.linspace(0, 2 * math.pi, 18, endpoint=False) + world.rng.uniform(0, 0.3)
    elif pattern == 1:
        base = math.atan2(dy, dx)
        angles = base + np.linspace(-0.45, 0.45, 7)
    else:
        angles = np.zeros(0)
        e.charge[i] = 1.1
    if len(angles):
        world.fire_enemy_bullets(
            np.full(len(angles), bx),
            np.full(len(angles), by),
            np.cos(angles) * spd,
            np.sin(angles) * spd,
            np.full(len(angles), dmg),
        )
    e.pattern[i] = (pattern + 1) % 3
    e.cooldown[i] = float(world.kind_fire_interval[e.kind[i]])
