"""Collisions and their consequences: player bullets vs enemies, kills and drops, damage to the player,
pickups. Bullet–enemy overlap uses the spatial grid; everything else is a vectorised distance test."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from game.sim import enemy_kinds
from game.sim import events as ev
from game.sim.config import (
    ARENA_H,
    ARENA_W,
    ENEMY_BULLET_RADIUS,
    HEALTH_DROP_CHANCE,
    HEALTH_PICKUP_HEAL,
    PICKUP_RADIUS,
    PLAYER_BULLET_RADIUS,
)
from game.sim.spatial import Grid, overlap_pairs

if TYPE_CHECKING:
    from game.sim.world import World

NEAR_PLAYER = 260.0
MAGNET_SPEED = 520.0
XP, HEALTH = 0, 1


def move_bullets(world: World, dt: float) -> None:
    for pool in (world.bullets, world.enemy_bullets):
        if pool.n == 0:
            continue
        x, y = pool.view("x"), pool.view("y")
        x += pool.view("vx") * dt
        y += pool.view("vy") * dt
        ttl = pool.view("ttl")
        ttl -= dt
        pool.keep((ttl > 0) & (x > -20) & (x < ARENA_W + 20) & (y > -20) & (y < ARENA_H + 20))


def bullets_hit_enemies(world: World, grid: Grid) -> None:
    b, e = world.bullets, world.enemies
    if b.n == 0 or e.n == 0:
        return
    bi, ei = overlap_pairs(
        b.view("x"), b.view("y"), PLAYER_BULLET_RADIUS, grid, e.view("x"), e.view("y"), e.view("radius")
    )
    if len(bi) == 0:
        return
    ids = e.view("id")
    fresh = b.view("last_hit")[bi] != ids[ei]
    bi, ei = bi[fresh], ei[fresh]
    if len(bi) == 0:
        return
    # each bullet hits one enemy per tick: the nearest it overlaps (ties: the pair order, deterministic)
    bx, by = b.view("x")[bi], b.view("y")[bi]
    d2 = (bx - e.view("x")[ei]) ** 2 + (by - e.view("y")[ei]) ** 2
    order = np.argsort(bi * (float(d2.max()) + 1.0) + d2, kind="stable")  # by bullet, then distance
    bi, ei = bi[order], ei[order]
    first = np.ones(len(bi), dtype=bool)
    first[1:] = bi[1:] != bi[:-1]
    first_b, hit_e = bi[first], ei[first]
    stopped = enemy_kinds.blocked(world, b.view("x")[first_b], b.view("y")[first_b], hit_e)
    if stopped.any():
        gone = first_b[stopped]
        gx, gy = b.view("x")[gone].tolist(), b.view("y")[gone].tolist()
        for x, y in list(zip(gx, gy, strict=True))[: enemy_kinds.MAX_BLOCK_EVENTS]:
            world.events.append(ev.ShieldBlocked(x, y))
        b.view("pierce")[gone] = -1  # a shield stops a bullet whatever its pierce
        first_b, hit_e = first_b[~stopped], hit_e[~stopped]
    np.subtract.at(e.view("hp"), hit_e, b.view("damage")[first_b])
    e.view("hit_flash")[hit_e] = 0.12
    b.view("last_hit")[first_b] = ids[hit_e]
    pierce = b.view("pierce")
    pierce[first_b] -= 1
    world.stats.hits += len(first_b)
    if len(first_b):
        world.events.append(ev.EnemyHit(len(first_b)))
    if (pierce < 0).any():
        b.keep(pierce >= 0)


def resolve_kills(world: World) -> None:
    e = world.enemies
    dead = e.view("hp") <= 0.0
    if not dead.any():
        return
    idx = np.nonzero(dead)[0]
    kinds = e.view("kind")[idx]
    xs, ys = e.view("x")[idx].copy(), e.view("y")[idx].copy()
    elite = e.view("elite")[idx]
    mult = np.where(elite, 3, 1)
    scores = (world.kind_score[kinds] * mult * world.params.get("score_mult")).astype(np.int64)
    near = np.hypot(xs - world.player.x, ys - world.player.y) < NEAR_PLAYER
    ids = e.view("id")[idx]
    names = world.prefabs.names
    for j in range(len(idx)):
        world.events.append(
            ev.EnemyKilled(
                int(ids[j]),
                names[kinds[j]],
                float(xs[j]),
                float(ys[j]),
                bool(elite[j]),
                int(scores[j]),
                bool(near[j]),
            )
        )
    world.stats.kills += len(idx)
    world.stats.bosses_killed += int(world.kind_boss[kinds].sum())
    world.stats.score += int(scores.sum())
    xp = world.kind_xp[kinds] * mult
    world.pickups.add(len(idx), x=xs, y=ys, kind=XP, value=xp, ttl=40.0)
    heal_roll = world.rng.random(len(idx)) < HEALTH_DROP_CHANCE * world.params.get("pickup_rate_mult") * mult
    if heal_roll.any():
        k = int(heal_roll.sum())
        world.pickups.add(
            k, x=xs[heal_roll] + 12, y=ys[heal_roll], kind=HEALTH, value=HEALTH_PICKUP_HEAL, ttl=30.0
        )
    e.keep(~dead)
    if (world.kind_splits[kinds]).any():
        enemy_kinds.split(world, kinds, xs, ys)


def damage_player(world: World, dist: np.ndarray) -> None:
    p = world.player
    e = world.enemies
    dmg_mult = world.params.get("enemy_damage_mult")
    eb = world.enemy_bullets
    if eb.n:
        bx, by = eb.view("x"), eb.view("y")
        reach = p.stats.radius + ENEMY_BULLET_RADIUS
        hit = (bx - p.x) ** 2 + (by - p.y) ** 2 < reach * reach
        if hit.any() and not p.invulnerable:
            world.hurt_player(float(eb.view("damage")[hit].max()) * dmg_mult, "projectile")
            eb.keep(~hit)
    if e.n and not p.invulnerable:
        # exploders do their damage by exploding, not by touch
        touching = (dist < e.view("radius") + p.stats.radius) & (e.view("behaviour") != enemy_kinds.EXPLODER)
        if touching.any():
            world.hurt_player(float(e.view("damage")[touching].max()) * dmg_mult, "contact")
            recoil(world, touching, dist)


def recoil(world: World, touching: np.ndarray, dist: np.ndarray) -> None:
    """Bounce each touching enemy with a ``recoil`` off the player by that many px past touching distance,
    out the way it came in. A boss that landed a hit backs off and comes again, so its hits are a peak the
    player can answer; a boss sitting on a player pinned to a wall struck every i-frame (4 s from full HP to
    dead at wave 5, whatever the director did)."""
    e = world.enemies
    bounce = np.flatnonzero(touching & (world.kind_recoil[e.view("kind")] > 0))
    if not len(bounce):
        return
    p = world.player
    x, y, r = e.view("x"), e.view("y"), e.view("radius")
    d = np.maximum(dist[bounce], 1e-6)
    ux, uy = (x[bounce] - p.x) / d, (y[bounce] - p.y) / d
    out = r[bounce] + p.stats.radius + world.kind_recoil[e.view("kind")[bounce]]
    x[bounce] = np.clip(p.x + ux * out, r[bounce], ARENA_W - r[bounce])
    y[bounce] = np.clip(p.y + uy * out, r[bounce], ARENA_H - r[bounce])


def collect_pickups(world: World, dt: float) -> None:
    pk = world.pickups
    if pk.n == 0:
        return
    p = world.player
    x, y = pk.view("x"), pk.view("y")
    dx, dy = p.x - x, p.y - y
    d = np.sqrt(dx * dx + dy * dy) + 1e-6
    pull = d < p.stats.pickup_radius
    step = np.minimum(d, MAGNET_SPEED * dt)
    x += np.where(pull, dx / d * step, 0.0)
    y += np.where(pull, dy / d * step, 0.0)
    ttl = pk.view("ttl")
    ttl -= dt
    got = d < p.stats.radius + PICKUP_RADIUS
    if got.any():
        kinds, values = pk.view("kind")[got], pk.view("value")[got]
        xp = float(values[kinds == XP].sum())
        if xp:
            world.gain_xp(xp)
            world.events.append(ev.PickupCollected("xp", xp))
        heal = float(values[kinds == HEALTH].sum())
        if heal:
            p.heal(heal)
            world.events.append(ev.PickupCollected("health", heal))
    pk.keep(~got & (ttl > 0))
