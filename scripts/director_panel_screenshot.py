"""Render the F10 director panel during real play to a PNG (``docs/director_panel.png`` by default).

The strong bot plays a real run in a real arcade window (headless through Mesa EGL unless ``--show``) with an
``AiSession`` attached (the ``rules`` director; every agent role on the offline stub, so no model is needed),
the F10 panel open. After ``--seconds`` of game time, the first frame where the director has just accepted a
plan (mid-wave, so the wave banner is gone) with the whole pacing loop in its graph is saved, announcer toast
and all. Nothing is staged.

    python scripts/director_panel_screenshot.py                    # docs/director_panel.png
    python scripts/director_panel_screenshot.py --seconds 60 --seed 3 --out /tmp/panel.png
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
    p.add_argument("--out", type=Path, default=REPO / "docs" / "director_panel.png")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot", choices=["weak", "average", "strong"], default="strong")
    p.add_argument("--director", default="rules", help="director mode (static, rules, stub)")
    p.add_argument("--seconds", type=float, default=100.0, help="game time before the frame is taken")
    p.add_argument("--min-states", type=int, default=4, help="pacing states the graph must show")
    p.add_argument("--max-seconds", type=float, default=170.0, help="take the frame at this game time anyway")
    p.add_argument("--show", action="store_true", help="use a visible window instead of headless rendering")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not args.show:
        os.environ.setdefault("ARCADE_HEADLESS", "1")
    # the run's saves (trajectory, director memory, high scores) go to a scratch folder
    os.environ.setdefault("ARENA_SAVES_DIR", tempfile.mkdtemp(prefix="arena-panel-shot-"))
    sys.path.insert(0, str(REPO))

    import arcade

    from coreai.settings import Settings
    from game.ai.session import AiSession
    from game.ai.wiring import attach
    from game.app import GameApp
    from game.audio import Audio
    from game.options import LaunchOptions
    from game.render.ai_panels.director_panel import DirectorPanelOverlay
    from game.sim.config import DT, SCREEN_H, SCREEN_W, wave_duration

    window = arcade.Window(SCREEN_W, SCREEN_H, "Arena Director - director panel")
    options = LaunchOptions.model_validate({"bot": args.bot, "seed": args.seed, "mute": True})
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    session = AiSession(options, settings=settings, configure_logs=False)
    app = GameApp(options, window, audio=Audio(muted=True))
    app.show_fps = False  # a software renderer's frame rate says nothing about the game
    attach(app, session)
    panel = next(o for o in app.overlays.items if isinstance(o, DirectorPanelOverlay))
    panel.visible = True  # what F10 does
    app.new_run()
    session.director.set_mode(args.director, app.world)
    last_accepted = 0
    while True:
        view = window.current_view
        assert view is not None
        view.on_update(DT)
        world = app.world
        assert world is not None
        if world.phase == "dead" and view is not app.arena and view is not app.upgrade:
            app.new_run()  # the bot died early: go again
            continue
        if view is not app.arena or world.phase != "playing":
            continue
        accepted = session.director.accepted
        fresh = accepted != last_accepted
        last_accepted = accepted
        mid_wave = wave_duration(world.wave) - world.wave_time_left > 4.0  # the wave banner has gone
        ready = world.time >= args.seconds and fresh and mid_wave
        if ready:  # the whole pacing loop in the graph (build up, peak, fade, relax)
            states = {s.pacing for s in session.director.history.samples()}
            ready = len(states) >= args.min_states
        if ready or world.time >= args.max_seconds:
            break
    for _ in range(20):  # let the plan's toast fade in
        view = window.current_view
        assert view is not None
        view.on_update(DT)
    view = window.current_view
    assert view is not None
    view.on_draw()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    path = app.save_screenshot(args.out)
    d = session.director
    print(
        f"saved {path} (seed {args.seed}, t={world.time:.1f}s, wave {world.wave}, mode {d.mode}, "
        f"accepted {d.accepted}, rejected {d.rejected}, failed {d.failed})"
    )
    session.close()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
