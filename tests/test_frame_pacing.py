"""Frame pacing on slow machines, in a real window: game time keeps up with real time down to the documented
catch-up cap (8 ticks a frame, 7.5 FPS) and no further (no spiral of death), the graphics-quality setting
turns particles, glow and the vignette off, and ``auto`` lowers them once the frame rate stays under 30."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import window_support as ws
from arcade.types import Color
from window_support import frames, render, start_arena

from game.app import GameApp
from game.render.quality import AUTO_GRACE_S, AUTO_WINDOW_S, HIGH, LOW
from game.sim.config import DT
from game.views.arena import MAX_STEPS_PER_FRAME, SIM_BUDGET_S

pytestmark = pytest.mark.window


def played(app: GameApp, fps: float, seconds: float) -> float:
    """Game seconds that pass in ``seconds`` of real time at ``fps`` frames a second."""
    world = app.world
    assert world is not None
    t0 = world.time
    frames(app, round(seconds * fps), 1.0 / fps)
    return world.time - t0


def test_game_time_keeps_up_with_real_time_at_10_fps(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    assert played(app, 10.0, 3.0) == pytest.approx(3.0, abs=2 * DT)  # was 2.0 s with 4 ticks a frame


def test_below_the_cap_the_game_slows_down_instead_of_spiralling(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    assert pytest.approx(1 / 7.5) == MAX_STEPS_PER_FRAME * DT
    got = played(app, 4.0, 2.0)  # 4 FPS: 8 ticks a frame at most
    assert got == pytest.approx(8 * MAX_STEPS_PER_FRAME * DT, abs=DT)
    assert app.arena._acc < DT  # the backlog was dropped, not carried into the next frame


def test_a_slow_simulation_stops_stepping_at_the_frame_budget(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    world = app.world
    assert world is not None
    step = world.step

    def slow_step(inp: object) -> list[object]:
        time.sleep(SIM_BUDGET_S * 0.6)
        return step(inp)  # type: ignore[arg-type]

    world.step = slow_step  # type: ignore[method-assign,assignment]
    steps = app.arena.step_sim(0.12)  # 7 ticks owed
    assert 1 <= steps <= 3 and app.arena._acc == 0.0


def test_low_quality_draws_no_particles_glow_or_vignette(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    scene = app.arena.scene
    assert world is not None and scene is not None
    for i in range(20):
        world.spawn_enemy("grunt", world.player.x + 80 + 10 * i, world.player.y + 60)
    scene.effects.particles.burst(world.player.x, world.player.y, Color(255, 0, 0), 40)
    scene.effects.damage_flash = 1.0
    app.governor.set("high")
    edge_high = ws.px(render(app), 4, ws.H / 2)
    assert scene.quality == HIGH
    assert scene.effects.particles.pool.shown > 0 and scene.enemies.shadows.shown > 0
    app.governor.set("low")
    edge_low = ws.px(render(app), 4, ws.H / 2)
    assert edge_high[0] > edge_low[0] + 40, (edge_high, edge_low)  # the red damage vignette is gone
    assert scene.quality == LOW
    assert scene.effects.particles.pool.shown == 0 and scene.enemies.shadows.shown == 0
    assert scene.enemies.sprites.shown >= 20  # what carries play is still drawn


def test_auto_lowers_effects_once_the_frame_rate_stays_under_30(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    assert app.governor.setting == "auto" and app.governor.quality == HIGH
    played(app, 60.0, AUTO_GRACE_S + AUTO_WINDOW_S + 1)  # smooth: stays high
    assert app.governor.quality == HIGH
    played(app, 20.0, AUTO_WINDOW_S + 0.5)  # 20 FPS for longer than the window
    assert app.governor.quality == LOW and app.governor.auto_lowered
    assert "Effects lowered to keep the game smooth" in app.toasts.texts
    render(app)
    assert app.arena.scene is not None and app.arena.scene.quality == LOW


def test_a_short_hitch_does_not_lower_effects_and_high_never_lowers(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    played(app, 60.0, AUTO_GRACE_S + 0.5)
    played(app, 10.0, 1.0)  # one second of hitching
    played(app, 60.0, AUTO_WINDOW_S)
    assert app.governor.quality == HIGH
    app.governor.set("high")
    played(app, 10.0, AUTO_GRACE_S + AUTO_WINDOW_S + 1)
    assert app.governor.quality == HIGH
