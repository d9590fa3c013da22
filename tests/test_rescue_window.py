"""The rescue reflex as a player meets it, in a real window (``ARCADE_HEADLESS``): the HP bar falls fast
under a crowd, the crowd is shoved back, and F10's watch row says RESCUE."""

from __future__ import annotations

import math
from collections.abc import Callable

import arcade
import numpy as np
import pytest
from test_ai_panels import attached
from window_support import frames, press, render

from game.ai.session import AiSession
from game.app import GameApp
from game.director import rescue
from game.render.ai_panels.director_panel import status_rows, value_chars

pytestmark = pytest.mark.window


def test_a_collapse_under_a_crowd_is_rescued_and_shown_in_f10(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app, panels = attached(make_app, session, bot="strong")
    frames(app, 60 * 3)
    world = app.world
    p = world.player
    for i in range(8):
        a = 2 * math.pi * i / 8
        world.spawn_enemy("grunt", p.x + math.cos(a) * 40, p.y + math.sin(a) * 40)
    p.iframes = 0.0
    p.hp = 0.95 * p.stats.max_hp
    world.hurt_player(0.4 * p.stats.max_hp, "contact")
    frames(app, 2)
    assert session.director.watch.rescue.state.rescues == 1
    near = np.hypot(world.enemies.view("x") - p.x, world.enemies.view("y") - p.y) < rescue.RADIUS
    assert int(near.sum()) < 8, "the crowd was shoved back"
    press(app, arcade.key.F10)
    render(app)
    data = panels.director.last
    assert data is not None and data.watch.startswith("RESCUE")
    shown = " ".join(panels.director.texts())
    assert "RESCUE" in shown, "the watch row is drawn"
    rows = status_rows(data, value_chars(panels.director.rect[2]))
    at = [name for name, _ in rows].index("watch")
    assert " ".join(v for _, v in rows[at : at + 2]).startswith(data.watch[:30])
    assert all(len(v) <= value_chars(panels.director.rect[2]) for _, v in rows), "nothing runs off the panel"
