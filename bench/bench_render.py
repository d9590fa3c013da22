"""Render cost per frame at 100 / 500 / 1,000 enemies, in a real arcade window (headless EGL under
``make bench``), measured side by side in one run:

- **scene high / scene low**: the real game frame, ``ArenaView.draw_world`` (sprite sync from the World,
  floor, pickups, enemies, bullets, the player, particles, the HUD) at graphics quality high (particles,
  glow, vignette) and low (``game.render.quality``);
- **bare**: one plain ``arcade.SpriteList`` holding the same play sprites (every enemy, bullet, pickup and
  the ship, same textures, positions and scales), drawn through the same camera: the least any renderer
  of this crowd costs on this machine;
- **ratio** = scene ms / bare ms. On software GL (llvmpipe) fill rate dominates both, so the ratio, not the
  absolute figure, is what this code is responsible for.

The three are interleaved frame by frame so machine noise hits them alike; medians of ``FRAMES`` frames.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import arcade

    from game.render.scene import Scene
    from game.sim.world import World

COUNTS = (100, 500, 1000)
FRAMES = 16
WARMUP = 3


def crowd(n: int) -> World:
    """``n`` enemies (every 40th elite), ``n / 2`` bullets and some hit flashes, all inside the view."""
    from game.sim.config import SCREEN_H, SCREEN_W
    from game.sim.spawner import NullSpawner
    from game.sim.world import World

    world = World(seed=1, spawner=NullSpawner())
    world.wave_time_left = 1e9
    rng = np.random.default_rng(n)
    p = world.player
    kinds = [k for k in world.prefabs.names if world.prefabs.get(k).behaviour != "boss"]
    for i in range(n):  # everything inside the view: the worst case for drawing
        x = p.x + rng.uniform(-SCREEN_W / 2 + 20, SCREEN_W / 2 - 20)
        y = p.y + rng.uniform(-SCREEN_H / 2 + 20, SCREEN_H / 2 - 20)
        world.spawn_enemy(kinds[i % len(kinds)], x, y, elite=i % 40 == 0)
    b = n // 2
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
    return world


def bare_list(scene: Scene) -> arcade.SpriteList[arcade.BasicSprite]:
    """A plain SpriteList with a copy of every play sprite the scene shows now."""
    import arcade

    bare: arcade.SpriteList[arcade.BasicSprite] = arcade.SpriteList(capacity=4096)
    pools = [scene.pickups.gems, scene.pickups.hearts, scene.enemies.sprites]
    pools += [core for _, core in scene.bullets.pools.values()]  # the player's shots, per weapon
    pools.append(scene.enemy_bullets.core)
    for pool in pools:
        for s in pool.sprites[: pool.shown]:
            c = arcade.BasicSprite(s.texture, scale=s.scale, center_x=s.center_x, center_y=s.center_y)
            bare.append(c)
    ship = scene.player.ship
    bare.append(
        arcade.BasicSprite(ship.texture, scale=ship.scale, center_x=ship.center_x, center_y=ship.center_y)
    )
    return bare


def main(counts: tuple[int, ...] = COUNTS, frames: int = FRAMES) -> None:
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade
    from arcade.types import Color

    from game.app import GameApp
    from game.audio import Audio
    from game.options import LaunchOptions
    from game.sim.config import SCREEN_H, SCREEN_W
    from game.views.arena import MAX_STEPS_PER_FRAME, SIM_BUDGET_S

    window = arcade.Window(SCREEN_W, SCREEN_H, "render bench")
    renderer = window.ctx.info.RENDERER
    app = GameApp(LaunchOptions(mute=True), window, audio=Audio(muted=True))
    app.show_fps = True
    print(f"\n== Render: ms per frame, real scene vs bare SpriteList ({renderer}, {SCREEN_W}x{SCREEN_H}) ==")
    print(
        f"{'enemies':>8} {'sprites':>8} {'bare ms':>8} {'high ms':>8} {'low ms':>8}"
        f" {'ratio high':>10} {'ratio low':>10}"
    )
    for n in counts:
        world = crowd(n)
        arena = app.arena
        arena.start_run(world, None)
        scene = arena.scene
        assert scene is not None
        p = world.player
        for k in range(12):  # kill bursts in view, so "high" has particles to draw
            scene.effects.particles.burst(p.x + 40 * k - 240, p.y + 90, Color(255, 160, 60), 20)
        arena.rig.snap(p.x, p.y)
        app.governor.set("high")
        window.clear()
        arena.draw_world()  # one sync so the pools hold this crowd
        bare = bare_list(scene)
        times: dict[str, list[float]] = {"bare": [], "high": [], "low": []}
        for f in range(frames + WARMUP):
            for mode in ("bare", "high", "low"):
                t0 = time.perf_counter()
                window.clear()
                if mode == "bare":
                    arena.rig.use()
                    bare.draw()
                    window.default_camera.use()
                else:
                    app.governor.set("high" if mode == "high" else "low")
                    arena.draw_world()
                window.ctx.finish()
                if f >= WARMUP:  # the first frames upload textures and build GPU buffers
                    times[mode].append(time.perf_counter() - t0)
        ms = {k: 1000 * float(np.median(v)) for k, v in times.items()}
        print(
            f"{world.enemies.n:>8} {len(bare):>8} {ms['bare']:>8.1f} {ms['high']:>8.1f} {ms['low']:>8.1f}"
            f" {ms['high'] / ms['bare']:>10.2f} {ms['low'] / ms['bare']:>10.2f}"
        )
    print(
        f"frame pacing: up to {MAX_STEPS_PER_FRAME} ticks a frame within {SIM_BUDGET_S * 1000:.0f} ms"
        f" (game time keeps real time down to {60 / MAX_STEPS_PER_FRAME:.1f} FPS); graphics_quality auto"
        " lowers effects once the frame rate stays under 30 FPS"
    )
    window.close()


if __name__ == "__main__":
    main()
