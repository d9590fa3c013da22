"""Simulation cost per tick at crowd scale: 500 / 2,000 / 5,000 enemies, each with 2,000 live bullets.

Enemies get effectively infinite HP and bullets infinite pierce, so the counts stay fixed while every system
(movement, separation, grid collisions, contact damage, pickups) runs exactly as in play. The player
cannot die.
Target: 5,000 enemies + 2,000 bullets <= 8 ms p99 per tick on one core. The "armed" row adds what the
weapons cost: four held weapons at max level (orbit blades, lance, chain lightning, missiles) firing on top.
The target is on wall-clock time; the CPU columns (this thread's CPU time per tick) leave out the time the
process waited for a core, so on a shared or busy machine they show what the simulation itself costs.
"""

from __future__ import annotations

import time

import numpy as np

from game.headless import run_headless
from game.sim.config import ARENA_H, ARENA_W
from game.sim.player import PlayerInput
from game.sim.spawner import NullSpawner
from game.sim.world import World

PREFABS = ("grunt", "runner", "tank", "spitter")
WARMUP, TICKS = 30, 240
BULLETS = 2000


def crowd_world(n_enemies: int, seed: int = 0) -> World:
    w = World(seed=seed, spawner=NullSpawner())
    w.wave_time_left = 1e9
    w.player.hp = 1e12
    rng = np.random.default_rng(seed)
    for i in range(n_enemies):
        # half crowd the player, half roam the arena
        if i % 2:
            a, d = rng.uniform(0, 2 * np.pi), rng.uniform(60, 700)
            x, y = w.player.x + np.cos(a) * d, w.player.y + np.sin(a) * d
        else:
            x, y = rng.uniform(0, ARENA_W), rng.uniform(0, ARENA_H)
        w.spawn_enemy(PREFABS[i % len(PREFABS)], x, y)
    w.enemies.view("hp")[:] = 1e12
    return w


def top_up_bullets(w: World, rng: np.random.Generator) -> None:
    missing = BULLETS - w.bullets.n
    if missing <= 0:
        return
    a = rng.uniform(0, 2 * np.pi, missing)
    d = rng.uniform(0, 900, missing)
    w.bullets.add(
        missing,
        x=w.player.x + np.cos(a) * d,
        y=w.player.y + np.sin(a) * d,
        vx=np.cos(a) * 700,
        vy=np.sin(a) * 700,
        damage=1.0,
        ttl=1.2,
        pierce=10_000,
        last_hit=-1,
    )


ARMED = ("orbit", "lance", "chain", "missile")


def ms_per_tick(n_enemies: int, armed: bool = False) -> tuple[float, float, int, int, float, float]:
    """(median ms, p99 ms, enemies, bullets, CPU median ms, CPU p99 ms) per tick."""
    w = crowd_world(n_enemies)
    if armed:
        from game.sim.weapons import HeldWeapon

        cat = w.arsenal.cat
        w.arsenal.held = [HeldWeapon(k, cat.get(k).max_level) for k in ARMED]
    rng = np.random.default_rng(1)
    inp = PlayerInput(move_x=1.0, move_y=0.3, aim_x=w.player.x + 100, aim_y=w.player.y, shoot=True)
    samples, cpu = [], []
    for t in range(WARMUP + TICKS):
        top_up_bullets(w, rng)
        w.player.hp = 1e12
        start, start_cpu = time.perf_counter(), time.thread_time()
        w.step(inp)
        if t >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000.0)
            cpu.append((time.thread_time() - start_cpu) * 1000.0)
    arr, c = np.array(samples), np.array(cpu)
    return (
        float(np.median(arr)),
        float(np.percentile(arr, 99)),
        w.enemies.n,
        w.bullets.n,
        float(np.median(c)),
        float(np.percentile(c, 99)),
    )


def main() -> None:
    print("\n== Simulation: ms per tick (headless, one core) ==")
    print(
        f"{'enemies':>8} {'bullets':>8} {'median ms':>10} {'p99 ms':>8} {'cpu med':>8} {'cpu p99':>8}  target"
    )
    for n in (500, 2000, 5000):
        med, p99, en, bn, cmed, cp99 = ms_per_tick(n)
        target = "p99 <= 8 ms" if n == 5000 else ""
        print(f"{en:>8} {bn:>8} {med:>10.2f} {p99:>8.2f} {cmed:>8.2f} {cp99:>8.2f}  {target}")
    med, p99, en, bn, cmed, cp99 = ms_per_tick(5000, armed=True)
    print(
        f"{en:>8} {bn:>8} {med:>10.2f} {p99:>8.2f} {cmed:>8.2f} {cp99:>8.2f}"
        f"  armed: {', '.join(ARMED)} at max level"
    )
    start = time.perf_counter()
    summary = run_headless(seed=1, seconds=120, bot="strong")
    wall = time.perf_counter() - start
    print(
        f"full game, strong bot, 120 s of game time: {summary.ticks} ticks in {wall:.2f} s wall "
        f"= {summary.ticks / wall:,.0f} ticks/s ({summary.ticks / wall / 60:.0f}x real time)"
    )


if __name__ == "__main__":
    main()
