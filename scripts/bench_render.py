"""Render-path benchmark: the CPU cost of turning the World into sprites each frame (``Scene.sync``) and the
cost of the whole drawn frame, at growing crowd sizes, in a real arcade window.

On a machine without a GPU (Mesa llvmpipe) the frame column is dominated by software rasterisation; the
sync column is what this code costs on any machine. Prints one table; ``main()`` can be called by the bench
runner.

    python scripts/bench_render.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main(counts: tuple[int, ...] = (500, 1000, 2000, 5000), frames: int = 20) -> None:
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    sys.path.insert(0, str(REPO))
    import arcade
    import numpy as np

    from game.render.scene import Scene
    from game.sim.config import DT, SCREEN_H, SCREEN_W
    from game.sim.world import World

    window = arcade.Window(SCREEN_W, SCREEN_H, "render bench")
    renderer = window.ctx.info.RENDERER
    print(f"Render path ({renderer}, {SCREEN_W}x{SCREEN_H}, {frames} frames each; everything on screen)")
    print(f"{'enemies':>8} {'bullets':>8} {'sprites':>8} {'sync ms':>9} {'frame ms':>9} {'fps':>6}")
    for n in counts:
        world = World(seed=1)
        world.enemies.clear()
        rng = np.random.default_rng(n)
        p = world.player
        kinds = [k for k in world.prefabs.names if k != "boss"]
        for i in range(n):
            world.spawn_enemy(
                kinds[i % len(kinds)],
                p.x + rng.uniform(-620, 620),
                p.y + rng.uniform(-340, 340),
                elite=i % 50 == 0,
            )
        b = min(2000, n)
        ang = rng.uniform(0, 2 * np.pi, b)
        world.bullets.add(
            b,
            x=p.x + rng.uniform(-600, 600, b),
            y=p.y + rng.uniform(-330, 330, b),
            vx=np.cos(ang) * 700,
            vy=np.sin(ang) * 700,
            damage=1.0,
            ttl=5.0,
            pierce=0,
            last_hit=-1,
        )
        world.enemies.view("hit_flash")[: n // 10] = 0.1
        scene = Scene(world.prefabs)
        view = (p.x - SCREEN_W / 2, p.y - SCREEN_H / 2, p.x + SCREEN_W / 2, p.y + SCREEN_H / 2)
        camera = arcade.Camera2D(position=(p.x, p.y))
        sync_s: list[float] = []
        frame_s: list[float] = []
        for f in range(frames + 2):
            t0 = time.perf_counter()
            scene.sync(world, view, f * DT)
            t1 = time.perf_counter()
            window.clear()
            camera.use()
            scene.draw()
            window.ctx.finish()
            t2 = time.perf_counter()
            if f >= 2:  # the first frames upload textures and build GPU buffers
                sync_s.append(t1 - t0)
                frame_s.append(t2 - t0)
        sprites = sum(scene.stats.values())
        sync_ms = 1000 * float(np.median(sync_s))
        frame_ms = 1000 * float(np.median(frame_s))
        print(f"{n:>8} {b:>8} {sprites:>8} {sync_ms:>9.2f} {frame_ms:>9.1f} {1000 / frame_ms:>6.1f}")
    window.close()


if __name__ == "__main__":
    main()
