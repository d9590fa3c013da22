"""The options screen in a real window (ARCADE_HEADLESS): reached from the title and the pause screen,
rebinding a key moves the player with the new key, options persist in the settings file across a restart,
and the arena stays paused underneath; focus loss pauses a run."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import arcade
import pytest
import window_support as ws
from window_support import frames, press, px, render, send

from coreai.settings import GameSettings
from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.director.tuning import preset_names
from game.views.options import OptionsView

pytestmark = pytest.mark.window

K = arcade.key


def open_options_from_title(app: GameApp) -> OptionsView:
    press(app, K.O)
    view = app.window.current_view
    assert isinstance(view, OptionsView)
    return view


def select(app: GameApp, view: OptionsView, label: str) -> None:
    target = next(i for i, r in enumerate(view.menu.rows) if r.label == label)
    while view.menu.selected != target:
        press(app, K.DOWN)


def saved(saves_dir: Path) -> dict:
    return tomllib.loads((saves_dir / "settings.toml").read_text(encoding="utf-8"))


def walk(app: GameApp, key: int, n: int = 30) -> float:
    world = app.world
    assert world is not None
    y0 = world.player.y
    send(app, "on_key_press", key, 0)
    frames(app, n)
    send(app, "on_key_release", key, 0)
    frames(app, 2)
    return world.player.y - y0


def test_rebinding_move_up_to_z_moves_the_player_with_z(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    app = make_app(seed=2)
    view = open_options_from_title(app)
    img = render(app)
    assert max(px(img, ws.W / 2, ws.H / 2)) < 90  # the dimmed panel is drawn over the title
    select(app, view, "Move up")
    press(app, K.ENTER)
    assert view.menu.waiting_for == "move_up"
    press(app, K.Z)  # AZERTY: Z sits where W is
    assert view.menu.waiting_for is None and "saved" in view.menu.message
    assert saved(saves_dir)["game"]["keys"]["move_up"] == ["Z", "UP"]
    render(app)
    press(app, K.ESCAPE)
    assert app.window.current_view is app.title
    press(app, K.ENTER)
    frames(app, 2)
    assert app.window.current_view is app.arena
    assert walk(app, K.Z) > 20, "Z now moves the player up"
    assert abs(walk(app, K.W)) < 1e-6, "W no longer does"
    assert walk(app, K.UP) > 20, "the arrow key stays bound"


def test_volume_persists_across_a_restart(make_app: Callable[..., GameApp], saves_dir: Path) -> None:
    (saves_dir / "settings.toml").write_text("# mine\n[game]\nanalysis_timeout_s = 30.0  # keep\n", "utf-8")
    app = make_app()
    view = open_options_from_title(app)
    select(app, view, "Master volume")
    press(app, K.LEFT)
    press(app, K.LEFT)
    select(app, view, "Sound effects")
    press(app, K.LEFT)
    assert app.audio.master_volume == pytest.approx(0.8) and app.audio.sfx_volume == pytest.approx(0.9)
    press(app, K.ESCAPE)
    text = (saves_dir / "settings.toml").read_text(encoding="utf-8")
    assert "# mine" in text and "# keep" in text, "the user's comments survive"
    assert saved(saves_dir)["game"] == {"analysis_timeout_s": 30.0, "master_volume": 0.8, "sfx_volume": 0.9}

    restarted = make_app()  # a new game reads the saved options
    assert restarted.prefs.settings.master_volume == pytest.approx(0.8)
    played: list[float] = []
    restarted.audio.player = lambda name, volume: played.append(volume)
    assert restarted.audio.play("ui")
    assert played == [pytest.approx(0.3 * 0.8 * 0.9)]  # cue volume x master x sfx


def test_options_from_pause_keep_the_arena_paused(make_app: Callable[..., GameApp]) -> None:
    app = ws.start_arena(make_app)
    world = app.world
    assert world is not None
    press(app, K.P)
    assert app.arena.paused
    press(app, K.O)
    view = app.window.current_view
    assert isinstance(view, OptionsView) and view.back is app.arena
    t = world.time
    frames(app, 30)
    render(app)
    assert world.time == t, "the world does not move while the options are open"
    select(app, view, "Screen shake")
    press(app, K.ENTER)
    assert app.prefs.settings.screen_shake is False
    press(app, K.ESCAPE)
    assert app.window.current_view is app.arena and app.arena.paused
    press(app, K.P)
    frames(app, 5)
    assert world.time > t


def test_graphics_quality_row_drives_the_frame_governor(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    app = make_app()
    view = open_options_from_title(app)
    select(app, view, "Graphics quality")
    press(app, K.RIGHT)
    assert app.prefs.settings.graphics_quality == "high" and app.governor.setting == "high"
    assert saved(saves_dir)["game"]["graphics_quality"] == "high"
    assert make_app().governor.setting == "high", "kept for the next start"


def test_focus_loss_pauses_the_run(make_app: Callable[..., GameApp]) -> None:
    app = ws.start_arena(make_app)
    assert not app.arena.paused
    send(app, "on_deactivate")
    assert app.arena.paused


def test_rebinding_pause_moves_the_pause_hotkey(make_app: Callable[..., GameApp]) -> None:
    app = make_app()
    view = open_options_from_title(app)
    select(app, view, "Pause")
    press(app, K.ENTER)
    press(app, K.TAB)
    press(app, K.ESCAPE)
    press(app, K.ENTER)
    frames(app, 2)
    press(app, K.P)
    assert not app.arena.paused, "P is free now"
    press(app, K.TAB)
    assert app.arena.paused
    press(app, K.ESCAPE)
    assert not app.arena.paused, "Esc always pauses and resumes"


def test_difficulty_row_walks_the_tuning_presets_and_the_director_follows(
    make_app: Callable[..., GameApp], session: AiSession, saves_dir: Path
) -> None:
    presets = preset_names()  # the presets are tuning.toml's overlays, with their labels, in file order
    assert list(presets) == list(get_args(GameSettings.model_fields["difficulty"].annotation))
    app = make_app()
    attach(app, session)
    view = open_options_from_title(app)
    select(app, view, "Difficulty")
    row = view.menu.rows[view.menu.selected]
    names = list(presets)
    start = names.index(app.prefs.settings.difficulty)
    for step in range(1, len(names) + 1):
        press(app, K.RIGHT)
        name = names[(start + step) % len(names)]
        assert app.prefs.settings.difficulty == name and row.value() == presets[name]
        assert session.difficulty == name and session.director.tuning.label == presets[name]
    press(app, K.LEFT)
    assert saved(saves_dir)["game"]["difficulty"] == names[(start - 1) % len(names)]
