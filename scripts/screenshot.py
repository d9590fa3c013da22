"""Render a real mid-fight frame of the game to a PNG (the README's screenshot, ``docs/screenshot.png``).

The strong bot plays the real game in a real arcade window (headless through Mesa EGL unless ``--show``) until
a busy moment: at least ``--min-wave``, a boss on screen (when ``--boss``), a crowd and enemy fire. That frame
is drawn and saved. Nothing is staged: the frame is whatever the run looks like at that moment.

    python scripts/screenshot.py                     # docs/screenshot.png
    python scripts/screenshot.py --seed 7 --out /tmp/shot.png --min-wave 3 --no-boss
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=REPO / "docs" / "screenshot.png")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--bot", choices=["weak", "average", "strong"], default="strong")
    p.add_argument("--min-wave", type=int, default=5)
    p.add_argument("--min-enemies", type=int, default=16, help="enemies on screen")
    p.add_argument("--min-weapons", type=int, default=3, help="weapons the player holds (a late-run build)")
    p.add_argument("--no-boss", dest="boss", action="store_false", help="do not wait for a boss on screen")
    p.add_argument("--max-seconds", type=float, default=600.0, help="take the frame at this game time anyway")
    p.add_argument("--show", action="store_true", help="use a visible window instead of headless rendering")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not args.show:
        os.environ.setdefault("ARCADE_HEADLESS", "1")
    # runs recorded by a death during the hunt go to a scratch folder, not the player's saves
    os.environ.setdefault("ARENA_SAVES_DIR", tempfile.mkdtemp(prefix="arena-shot-"))
    sys.path.insert(0, str(REPO))

    import arcade

    from game.app import GameApp
    from game.audio import Audio
    from game.options import LaunchOptions
    from game.sim.config import DT, SCREEN_H, SCREEN_W

    window = arcade.Window(SCREEN_W, SCREEN_H, "Arena Director - screenshot")
    seed = args.seed
    options = LaunchOptions.model_validate({"bot": args.bot, "seed": seed, "mute": True})
    app = GameApp(options, window, audio=Audio(muted=True))
    app.show_fps = False  # a software renderer's frame rate says nothing about the game
    app.new_run()
    tick = 0
    while True:
        view = window.current_view
        assert view is not None
        view.on_update(DT)
        tick += 1
        world = app.world
        assert world is not None
        if view is not app.arena or world.phase != "playing":
            if world.phase == "dead" and view is not app.arena and view is not app.upgrade:
                seed += 1  # the bot died before the moment came: next seed
                app.options = app.options.model_copy(update={"seed": seed})
                app.new_run()
            continue
        if tick % 15:
            continue
        left, bottom, right, top = app.arena.rig.view_rect()
        x, y = world.enemies.view("x"), world.enemies.view("y")
        on_screen = int(((x > left) & (x < right) & (y > bottom) & (y < top)).sum())
        bosses = world.enemies.view("kind") == world.prefabs.index("boss")
        inner = (x > left + 260) & (x < right - 260) & (y > bottom + 170) & (y < top - 210)
        boss = bool((bosses & inner).any())  # well inside the frame, clear of the HUD
        beams = any(world.arsenal.cat.get(h.key).pattern in ("lance", "chain") for h in world.arsenal.held)
        ready = (
            world.wave >= args.min_wave
            and len(world.arsenal.held) >= args.min_weapons
            and (bool(world.fx) if beams else world.bullets.n > 0)  # weapons visibly firing (a beam if held)
            and on_screen >= args.min_enemies
            and (boss or not args.boss)
            and world.enemy_bullets.n >= 8
            and world.player.hp_fraction > 0.35
        )
        if ready or world.time >= args.max_seconds:
            break
    view = window.current_view
    assert view is not None
    view.on_draw()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    path = app.save_screenshot(args.out)
    print(
        f"saved {path} (seed {seed}, wave {world.wave}, t={world.time:.1f}s, {world.enemies.n} enemies, "
        f"{world.enemy_bullets.n} enemy bullets, score {world.stats.score}, "
        f"weapons {', '.join(f'{h.key} {h.level}' for h in world.arsenal.held)})"
    )
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
