"""Screen flow and plumbing in a real window: upgrade picks by key and click, game over with saves, the fixed
timestep, pause, frame hooks, human input, toasts and the activity line."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import arcade
import pytest
from window_support import (
    H,
    W,
    close,
    force_upgrade,
    frames,
    press,
    px,
    region,
    render,
    send,
    sounds,
    start_arena,
)

from game.app import GameApp
from game.sim.config import DT
from game.views.arena import MAX_STEPS_PER_FRAME
from game.views.gameover import GameOverView
from game.views.upgrade import UpgradeView

pytestmark = pytest.mark.window

# the shared-window fixtures (one window per session, a fresh GameApp per test)


def test_upgrade_view_offers_three_cards_and_a_key_picks(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    force_upgrade(app)
    view = app.window.current_view
    assert isinstance(view, UpgradeView)
    assert len(view.cards) == 3 and [c.key for c in view.cards] == world.choices
    img = render(app)
    for left, bottom, cw, ch in view.card_rects():
        assert close(px(img, left + cw / 2, bottom + 30), (14, 16, 26), 25)  # card body
        assert max(px(img, left + 6, bottom + ch - 5)) > 150  # the coloured stripe on top
    offered = list(world.choices)
    wave = world.wave
    press(app, arcade.key.KEY_2)
    assert world.stacks == {offered[1]: 1}
    assert world.phase == "playing" and world.wave == wave + 1
    assert app.window.current_view is app.arena


def test_upgrade_click_picks_the_card_under_the_mouse(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    world.gain_xp(200)  # several level-ups bank extra picks
    force_upgrade(app)
    view = app.window.current_view
    assert isinstance(view, UpgradeView)
    picks = world.pending_picks
    assert picks > 1
    taken = []
    while world.phase == "upgrade":
        left, bottom, cw, ch = view.card_rects()[2]
        taken.append(world.choices[2])
        send(app, "on_mouse_motion", int(left + cw / 2), int(bottom + ch / 2), 0, 0)
        assert view.hover == 2
        send(app, "on_mouse_press", int(left + cw / 2), int(bottom + ch / 2), arcade.MOUSE_BUTTON_LEFT, 0)
    weapon_levels = sum(h.level for h in world.arsenal.held) - 1  # the starting blaster is level 1
    assert sum(world.stacks.values()) + weapon_levels == picks == len(taken)
    assert app.window.current_view is app.arena


# ---------------------------------------------------------------------- game over and saves
def test_death_shows_game_over_with_summary_and_high_score(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    app = start_arena(make_app, seed=4)
    world = app.world
    assert world is not None
    frames(app, 120)
    world.stats.score = max(world.stats.score, 50)  # a zero score never enters the table
    world.player.iframes = 0.0
    world.hurt_player(10_000.0, "test")
    frames(app, 150)
    view = app.window.current_view
    assert isinstance(view, GameOverView)
    s = view.summary
    assert s.died and s.seed == 4 and s.kills == world.stats.kills and s.final_score == world.stats.score
    assert s.seconds == pytest.approx(world.time, abs=1e-3)
    assert view.rank == 1
    scores = json.loads((saves_dir / "highscores.json").read_text())
    assert scores["entries"][0]["score"] == s.final_score
    img = render(app)
    title = region(img, W / 2, H / 2 + 190 + 60 + 20, 30)
    assert ((title[:, 0] > 170) & (title[:, 1] < 110)).sum() > 30, "red YOU DIED title missing"
    press(app, arcade.key.ENTER)
    assert app.window.current_view is app.arena and app.runs_started == 2
    assert app.world is not None and app.world is not world and app.world.tick == 0


def test_corrupt_high_scores_file_gives_a_visible_warning(
    make_app: Callable[..., GameApp], saves_dir: Path
) -> None:
    (saves_dir / "highscores.json").write_text("{ not json")
    app = make_app(seed=2)
    frames(app, 1)
    assert any("highscores.json" in t for t in app.toasts.texts)
    assert list(saves_dir.glob("highscores.json.corrupt-*"))
    render(app)  # the title still draws


# ---------------------------------------------------------------------- simulation stepping and hooks
def test_fixed_timestep_accumulates_and_caps_catch_up(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    t0 = world.tick
    assert app.arena.step_sim(DT * 0.5) == 0
    assert app.arena.step_sim(DT * 0.6) == 1  # the halves add up to one tick
    assert app.arena.step_sim(1.0) == MAX_STEPS_PER_FRAME  # a hitch: catch up a few ticks, drop the rest
    assert app.arena.step_sim(DT * 0.99) == 0
    assert world.tick == t0 + 1 + MAX_STEPS_PER_FRAME


def test_pause_freezes_the_world_and_hooks(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    calls: list[tuple[int, float]] = []
    app.arena.frame_hooks.append(lambda w, dt: calls.append((w.tick, dt)))
    frames(app, 5)
    assert len(calls) == 5 and calls[-1][0] == world.tick and calls[-1][1] == pytest.approx(DT)
    press(app, arcade.key.P)
    assert app.arena.paused
    tick = world.tick
    frames(app, 30)
    render(app)
    assert world.tick == tick and len(calls) == 5
    press(app, arcade.key.ESCAPE)
    frames(app, 3)
    assert not app.arena.paused and world.tick == tick + 3 and len(calls) == 8


def test_a_failing_hook_is_reported_and_the_game_goes_on(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None

    def broken(w: object, dt: float) -> None:
        raise RuntimeError("mod tick exploded")

    started: list[int] = []
    app.arena.frame_hooks.append(broken)
    app.arena.run_start_hooks.append(lambda w: started.append(w.seed))
    tick = world.tick
    frames(app, 10)
    assert world.tick == tick + 10
    assert any("mod tick exploded" in t for t in app.toasts.texts)
    press(app, arcade.key.F5)
    assert started == [1] and app.world is not world


def test_hooks_keep_running_during_the_upgrade_pick(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    force_upgrade(app)
    assert isinstance(app.window.current_view, UpgradeView)
    picked: list[str] = []

    def agent_picks(w: Any, dt: float) -> None:  # e.g. an MCP command drained on the main thread
        if w.phase == "upgrade":
            picked.append(w.choices[0])
            w.choose_upgrade(w.choices[0])

    app.arena.frame_hooks.append(agent_picks)
    frames(app, 2)
    assert picked and app.window.current_view is app.arena


# ---------------------------------------------------------------------- input, panels, toasts
def test_keyboard_and_mouse_drive_the_player(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    x0, y0 = world.player.x, world.player.y
    send(app, "on_mouse_motion", W - 10, H // 2, 0, 0)
    send(app, "on_key_press", arcade.key.W, 0)
    send(app, "on_key_press", arcade.key.D, 0)
    send(app, "on_mouse_press", W - 10, H // 2, arcade.MOUSE_BUTTON_LEFT, 0)
    frames(app, 30)
    assert world.player.x > x0 + 50 and world.player.y > y0 + 50
    assert world.stats.shots > 0
    assert abs(world.player.aim_angle) < 0.6  # aiming right, toward the mouse
    send(app, "on_key_release", arcade.key.W, 0)
    send(app, "on_key_release", arcade.key.D, 0)
    send(app, "on_mouse_release", W - 10, H // 2, arcade.MOUSE_BUTTON_LEFT, 0)
    shots = world.stats.shots
    x1 = world.player.x
    frames(app, 30)
    assert world.player.x == pytest.approx(x1) and world.stats.shots == shots
    send(app, "on_key_press", arcade.key.LSHIFT, 0)
    frames(app, 12)
    assert world.player.x > x1 + 100  # dashed toward the mouse
    assert "dash" in sounds(app)


def test_toasts_can_be_posted_from_another_thread(make_app: Callable[..., GameApp]) -> None:

    app = start_arena(make_app)
    t = threading.Thread(target=app.show_toast, args=("The director grins.", 2.0))
    t.start()
    t.join(timeout=5)
    frames(app, 1)
    render(app)
    assert app.toasts.active and app.toasts.active[0].text == "The director grins."
    frames(app, int(2.2 / DT))
    assert not any(t.text == "The director grins." for t in app.toasts.active)


def test_activity_line_is_drawn_and_a_broken_source_does_not_crash(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    app.arena.activity_source = lambda: "director: raise pressure (player cruising)"
    render(app)
    assert app.arena.hud is not None and app.arena.hud.activity.value.startswith("director:")

    def broken() -> str:
        raise RuntimeError("no status")

    app.arena.activity_source = broken
    render(app)
    assert "unavailable" in app.arena.hud.activity.value


# ---------------------------------------------------------------------- demo mode and the time limit


def test_a_custom_world_factory_is_used_and_a_broken_one_falls_back(make_app: Callable[..., GameApp]) -> None:
    from game.sim.spawner import NullSpawner
    from game.sim.world import World

    app = make_app(seed=6)
    spawner = NullSpawner()
    app.world_factory = lambda seed: World(seed=seed, spawner=spawner)
    app.new_run()
    assert app.world is not None and app.world.spawner is spawner

    def broken(seed: int) -> World:
        raise RuntimeError("director offline")

    app.world_factory = broken
    press(app, arcade.key.F5)
    frames(app, 1)
    assert app.world is not None and app.world.spawner is not spawner and app.world.seed == 6
    assert any("director offline" in t for t in app.toasts.texts)
