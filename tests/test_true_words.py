"""Words that are true: a wave that ends on its timer with enemies alive is "OVER", not "CLEARED"; the F10
panel drops a "last error" once the director's mode changes."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import pytest
from window_support import force_upgrade, frames, press, render, start_arena

from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.render.ai_panels.director_panel import DirectorPanelOverlay
from game.views.upgrade import UpgradeView, wave_title

pytestmark = pytest.mark.window

K = arcade.key


def test_wave_title_words() -> None:
    assert wave_title(1, 89, 1) == "WAVE 1 OVER"
    assert wave_title(2, 0, 1) == "WAVE 2 CLEARED"
    assert wave_title(3, 5, 2) == "WAVE 3 OVER  -  2 PICKS"


def test_a_wave_ending_on_its_timer_with_enemies_alive_says_over(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    world.spawn_enemy("grunt", world.player.x + 500, world.player.y)
    force_upgrade(app)
    view = app.window.current_view
    assert isinstance(view, UpgradeView) and world.enemies.n > 0
    render(app)
    assert view.title.value == "WAVE 1 OVER"


def test_f10_forgets_the_last_error_when_the_mode_changes(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = make_app(seed=3)
    attach(app, session)
    app.new_run()
    frames(app, 2)
    panel = next(o for o in app.overlays.items if isinstance(o, DirectorPanelOverlay))
    press(app, K.F10)
    session.director.last_error = "plan from local rejected: pressure 'mega' is not allowed"
    render(app)
    assert any("last error" in t for t in panel.texts())
    mode = session.director.mode
    target = next(m for m in session.director.modes() if m != mode)
    session.director.set_mode(target)
    render(app)
    assert not any("last error" in t for t in panel.texts())
