"""The windowed game in a real arcade window (ARCADE_HEADLESS=1, Mesa EGL): rendered frames and their pixels,
screenshots, panels, demo mode, the time limit, and ``run_window`` itself in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import arcade
import numpy as np
import pytest
from PIL import Image
from window_support import (
    FINISHED,
    H,
    W,
    close,
    force_upgrade,
    frames,
    press,
    px,
    region,
    render,
    sounds,
    start_arena,
)

from game.app import GameApp
from game.render import palette
from game.sim.config import DT
from game.views.gameover import GameOverView
from game.views.upgrade import UpgradeView

pytestmark = pytest.mark.window

# the shared-window fixtures (one window per session, a fresh GameApp per test)


def test_arena_frame_shows_player_hud_and_floor(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    img = render(app)
    # the player's ship (orange) is drawn where the camera projects the player
    sx, sy = app.arena.rig.camera.project((world.player.x, world.player.y))
    ship = region(img, sx, sy, 14)
    orange = (ship[:, 0] > 180) & (ship[:, 1] < 170) & (ship[:, 2] < 120)
    assert orange.sum() > 20, "no ship pixels around the player's screen position"
    # far from the player and the HUD: only floor colours
    floor = px(img, 40, 300)
    assert max(floor) < 90 and floor != (0, 0, 0)
    # the HP bar (full HP): the lower half of the bar has the HP colour
    bar = px(img, 20 + 30 + 40, H - 20 - 22 + 5)  # left of the "100 / 100" text
    assert close(bar, (palette.HP.r, palette.HP.g, palette.HP.b)), bar


def test_hp_bar_drains_when_the_player_is_hurt(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    world.hurt_player(60.0, "test")
    frames(app, 200)  # long enough for the lagging "recent damage" bar to catch up
    img = render(app)
    left, bar_w, y = 20 + 30, 300, H - 20 - 22 + 5
    assert close(px(img, left + bar_w * 0.2, y), (palette.HP.r, palette.HP.g, palette.HP.b), 60)
    assert not close(px(img, left + bar_w * 0.8, y), (palette.HP.r, palette.HP.g, palette.HP.b), 60)


def test_enemies_render_from_pool_slots_and_off_screen_ones_are_culled(
    make_app: Callable[..., GameApp],
) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    world.enemies.clear()
    p = world.player
    world.spawn_enemy("tank", p.x + 300, p.y + 120)
    world.spawn_enemy("spitter", p.x - 300, p.y - 150, elite=True)
    world.spawn_enemy("grunt", 40, 40)  # across the arena: off screen
    world.spawn_enemy("grunt", world.prefabs.get("grunt").radius, 2300)
    before = render(app)
    assert app.arena.scene is not None
    assert app.arena.scene.enemies.sprites.shown == 2
    assert app.arena.scene.enemies.auras.shown == 1  # the elite's aura
    sx, sy = app.arena.rig.camera.project((p.x + 300, p.y + 120))
    tank = region(before, sx, sy, 12)
    assert (np.abs(tank - np.array([25, 28, 40])).sum(axis=1) > 60).mean() > 0.5, "tank not drawn"
    # a thousand enemies on screen all get a sprite, in one batched list
    rng = np.random.default_rng(0)
    for _ in range(1000):
        world.spawn_enemy("grunt", p.x + rng.uniform(-600, 600), p.y + rng.uniform(-340, 340))
    render(app)
    assert app.arena.scene.enemies.sprites.shown >= 1000
    assert len(app.arena.scene.enemies.sprites.list) >= 1000


def test_f2_saves_a_screenshot_png(make_app: Callable[..., GameApp], saves_dir: Path) -> None:
    app = start_arena(make_app)
    press(app, arcade.key.F2)
    render(app)
    shots = list((saves_dir / "screenshots").glob("arena-*.png"))
    assert len(shots) == 1
    with Image.open(shots[0]) as img:
        assert img.size == (W, H)
        assert len(set(img.convert("RGB").resize((64, 36)).getdata())) > 20  # a real frame, not a blank one
    frames(app, 1)
    assert any("screenshot saved" in t for t in app.toasts.texts)


# ---------------------------------------------------------------------- upgrade pick
def test_help_overlay_and_registered_panels(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)

    class Panel:
        def __init__(self) -> None:
            self.visible = False
            self.draws = 0
            self.keys: list[int] = []

        def draw(self, width: float, height: float) -> None:
            self.draws += 1
            arcade.draw_lbwh_rectangle_filled(0, 0, 40, 40, (0, 255, 0))

        def on_key(self, symbol: int, modifiers: int) -> bool:
            self.keys.append(symbol)
            return symbol == arcade.key.X

    assert app.hotkeys.find(arcade.key.F10).status == "coming"  # type: ignore[union-attr]
    panel = Panel()
    app.add_panel(panel, arcade.key.F10, "Director panel")
    assert app.hotkeys.find(arcade.key.F10).status == ""  # type: ignore[union-attr]
    press(app, arcade.key.F10)
    img = render(app)
    assert panel.visible and panel.draws == 1
    assert px(img, 10, 10) == (0, 255, 0)
    press(app, arcade.key.X)  # a visible panel gets keys first
    assert panel.keys[-1] == arcade.key.X
    press(app, arcade.key.F1)
    assert app.help.visible
    img = render(app)
    centre = px(img, W / 2, H / 2)
    assert close(centre, (14, 16, 26), 30)  # the help panel covers the middle of the screen
    press(app, arcade.key.ESCAPE)  # closes help, does not pause
    assert not app.help.visible and not app.arena.paused


def test_bot_demo_plays_and_picks_upgrades_by_itself(make_app: Callable[..., GameApp]) -> None:
    app = make_app(bot="strong", seed=3)
    frames(app, int(1.6 / DT))  # the title starts the demo by itself
    assert app.window.current_view is app.arena
    world = app.world
    assert world is not None
    for i in range(300):
        frames(app, 1)
        if i % 25 == 0:
            render(app)
    assert world.tick >= 299 and world.stats.shots > 0
    force_upgrade(app)
    assert isinstance(app.window.current_view, UpgradeView)
    frames(app, int(1.0 / DT))
    assert isinstance(app.window.current_view, UpgradeView)  # the pick is shown before it is taken
    frames(app, int(0.7 / DT))
    picked = sum(world.stacks.values()) + sum(h.level for h in world.arsenal.held) - 1
    assert app.window.current_view is app.arena and picked >= 1
    assert "shoot" in sounds(app)


def test_seconds_limit_ends_the_run_and_records_it(make_app: Callable[..., GameApp], saves_dir: Path) -> None:
    app = make_app(bot="average", seed=9, seconds=1.5)
    app.new_run()
    frames(app, 200)
    assert app.finished and [app] == FINISHED
    summary = app.result()
    assert summary is not None and summary.seconds == pytest.approx(1.5, abs=DT) and summary.ticks == 90
    runs = json.loads((saves_dir / "runs.json").read_text())["runs"]
    assert len(runs) == 1 and runs[0]["summary"]["ticks"] == 90


def test_death_ends_a_timed_session_early(make_app: Callable[..., GameApp], saves_dir: Path) -> None:
    app = make_app(seed=9, seconds=60.0)
    app.new_run()
    frames(app, 30)
    world = app.world
    assert world is not None
    world.player.iframes = 0.0
    world.hurt_player(10_000.0, "test")
    frames(app, 150)
    assert app.finished and [app] == FINISHED
    summary = app.result()
    assert summary is not None and summary.died and summary.seconds < 2.0
    assert not isinstance(app.window.current_view, GameOverView)


def test_run_window_returns_the_summary(saves_dir: Path) -> None:
    """The real entry point, in its own process: opens the window, plays 1 s with a bot, closes, returns."""
    code = (
        "import json\n"
        "from game.app import run_window\n"
        "from game.options import LaunchOptions\n"
        "s = run_window(LaunchOptions(bot='strong', seed=5, seconds=1.0, mute=True))\n"
        "print('SUMMARY', s.model_dump_json())\n"
    )
    env = dict(os.environ, ARCADE_HEADLESS="1", ARENA_SAVES_DIR=str(saves_dir))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=100)
    assert out.returncode == 0, out.stderr[-2000:]
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("SUMMARY "))
    summary = json.loads(line.removeprefix("SUMMARY "))
    assert summary["seed"] == 5 and summary["ticks"] == 60 and summary["bot"] == "strong"
