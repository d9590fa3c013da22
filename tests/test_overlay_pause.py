"""Modal panels hold the arena ([game] pause_on_overlay): in a real window, with the real AI panels (console,
F7, F9) and the help, the world does not step while one is open, keys typed there never move the player,
and the HUD says why the game stands still."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import arcade
import numpy as np
import pytest
import window_support as ws
from window_support import force_upgrade, frames, press, render, start_arena

from coreai.settings import Settings
from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.options import LaunchOptions
from game.render.ai_panels.console import ConsoleOverlay
from game.render.ai_panels.director_panel import DirectorPanelOverlay
from game.views.upgrade import UpgradeView

pytestmark = pytest.mark.window

K = arcade.key


def ai_game(make: Callable[..., GameApp], session: AiSession) -> GameApp:
    app = make(seed=3)
    attach(app, session)
    app.new_run()
    frames(app, 2)
    return app


def held_ticks(app: GameApp, n: int = 20) -> int:
    """How many ticks the world advanced over ``n`` frames (drawing each, like the window does)."""
    world = app.world
    assert world is not None
    before = world.tick
    for _ in range(n):
        frames(app, 1)
        render(app)
    return world.tick - before


@pytest.mark.parametrize(("key", "name"), [(K.GRAVE, "console"), (K.F7, "mods panel"), (K.F1, "help")])
def test_a_modal_panel_holds_the_world_until_it_closes(
    make_app: Callable[..., GameApp], session: AiSession, key: int, name: str
) -> None:
    app = ai_game(make_app, session)
    calls: list[float] = []
    app.arena.frame_hooks.append(lambda w, dt: calls.append(dt))
    assert held_ticks(app, 5) == 5
    press(app, key)
    assert app.holding_overlay() is not None
    assert held_ticks(app) == 0
    assert app.arena.held_by == name
    assert len(calls) == 25  # frame hooks still run: agents' answers land while the game is held
    press(app, K.ESCAPE)  # every modal panel closes on Esc, and Esc does not also pause the game
    assert app.holding_overlay() is None and not app.arena.paused
    assert held_ticks(app, 3) == 3


def test_typing_wasd_in_the_console_never_moves_the_player_or_the_clock(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = ai_game(make_app, session)
    world = app.world
    assert world is not None
    ws.send(app, "on_key_press", K.D, 0)  # the player holds D, then opens the console
    press(app, K.GRAVE)
    start = (world.player.x, world.player.y, world.time)
    for ch in "wasd":
        ws.send(app, "on_key_press", ord(ch), 0)
        ws.send(app, "on_text", ch)
    assert held_ticks(app, 30) == 0
    assert (world.player.x, world.player.y, world.time) == start
    press(app, K.GRAVE)
    frames(app, 10)
    assert world.player.x == pytest.approx(start[0], abs=1e-6)  # the D held before was released on open


def test_f9_opens_the_console_and_the_game_holds_while_the_programmer_works(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = ai_game(make_app, session)
    press(app, K.F9)
    console = next(o for o in app.overlays.items if isinstance(o, ConsoleOverlay))
    assert console.visible
    assert held_ticks(app, 10) == 0
    assert app.arena.held_by == "console"
    assert any("writing Lua" in t for t in console.texts())


def test_the_hud_says_what_holds_the_game(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    press(app, K.F1)
    frames(app, 1)
    render(app)
    assert app.arena.held_by == "help"
    assert app.arena.banner.held.value == "PAUSED  -  help open"


def test_the_setting_off_lets_the_game_run_under_a_panel(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    app.pause_on_overlay = False
    press(app, K.F1)
    assert app.help.visible and held_ticks(app, 4) == 4


def test_the_setting_is_read_from_the_settings_file(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    settings = Settings.model_validate(
        {"game": {"pause_on_overlay": False}, "llm": {"default_backend": "stub", "backends": {}}}
    )
    s = AiSession(LaunchOptions(), settings=settings, configure_logs=False)
    try:
        app = ai_game(make_app, s)
        assert app.pause_on_overlay is False
        press(app, K.GRAVE)
        assert held_ticks(app, 3) == 3
    finally:
        s.close()


def test_a_panel_also_holds_the_bot_during_the_upgrade_pick(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    force_upgrade(app)
    world = app.world
    assert world is not None and world.phase == "upgrade"
    press(app, K.F1)
    frames(app, 200)  # far past the bot's pick delay
    assert world.phase == "upgrade"
    press(app, K.ESCAPE)
    frames(app, 200)
    assert world.phase == "playing"


def test_f10_docks_beside_the_upgrade_cards_and_the_boss_bar(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    """F10 open during the upgrade pick with a boss alive: cards, title and boss bar all sit left of it."""
    app = ai_game(make_app, session)
    world = app.world
    assert world is not None
    world.spawn_enemy("boss", world.player.x + 300, world.player.y)
    press(app, K.F10)
    force_upgrade(app)
    view = app.window.current_view
    assert isinstance(view, UpgradeView)
    img = np.asarray(render(app)).astype(int)
    panel = next(o for o in app.overlays.items if isinstance(o, DirectorPanelOverlay))
    dock_left = panel.rect[0]
    assert panel.visible and dock_left < ws.W
    cards = view.card_rects()
    assert len(cards) == 3
    for left, bottom, w, h in cards:
        assert left >= 0 and left + w <= dock_left - 8, (cards, dock_left)
        # the card is drawn there (its panel colour), not hidden under the dock
        mid = img[ws.H - int(bottom + h / 2), int(left + w / 2)]
        assert np.abs(mid - np.array([14, 16, 26])).sum() < 60, mid
    assert view.title.text.x == pytest.approx(app.play_width() / 2)
    hud = app.arena.hud
    assert hud is not None and hud.boss.value.startswith("ELITE BOSS")
    assert hud.boss.text.x == pytest.approx(app.play_width() / 2)  # the boss bar is centred in the play area
    assert app.play_width() / 2 + min(560.0, app.play_width() * 0.5) / 2 <= dock_left
    title = view.title.text  # the upgrade title sits under the boss bar, not over it
    assert title.y + title.font_size <= hud.boss_bar_y(ws.H)  # baseline + cap height (< font size)
    press(app, K.KEY_1)  # picking with F10 open works
    assert world.phase == "playing"


def test_modal_panels_open_beside_the_f10_dock(make_app: Callable[..., GameApp], session: AiSession) -> None:
    app = ai_game(make_app, session)
    press(app, K.F10)
    press(app, K.GRAVE)
    render(app)
    panel = next(o for o in app.overlays.items if isinstance(o, DirectorPanelOverlay))
    console = next(o for o in app.overlays.items if isinstance(o, ConsoleOverlay))
    dock_left = panel.rect[0]
    assert console.visible and panel.visible
    assert console.hint.text.x < dock_left  # the console's right edge stays left of the dock
    assert "DIRECTOR" in panel.texts()  # and the dock is still drawn
