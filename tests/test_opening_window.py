"""The first seconds of a first-time player, in the real window (ARCADE_HEADLESS=1): a player who starts a
run and touches nothing (reading the controls) is not dead at 0:20 under the default director, and the
enemies hit (nearly) in full again the moment they move (``game/director/watch.py``)."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import pytest
from window_support import frames, send

from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.director.watch import GRACE_DAMAGE
from game.sim.config import TICK_HZ

pytestmark = pytest.mark.window


def test_a_player_who_touches_nothing_survives_20s_then_moving_ends_the_grace(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = make_app(seed=21)  # the seed a playtest died on at 0:11 with nothing pressed
    attach(app, session)  # the game's own wiring: the default (rules) director runs the world
    app.new_run()
    frames(app, 2)
    world = app.world
    assert world is not None and session.director.mode == "rules"
    frames(app, 20 * TICK_HZ)
    assert world.time >= 19.9 and world.phase == "playing" and world.player.hp > 0
    assert world.stats.damage_taken > 0, "enemies did reach the idle player"
    assert world.params.get("enemy_damage_mult") == pytest.approx(GRACE_DAMAGE)
    send(app, "on_key_press", arcade.key.D, 0)
    frames(app, 10)
    send(app, "on_key_release", arcade.key.D, 0)
    watch = session.director.watch.state
    assert not watch.grace and watch.damage_factor > GRACE_DAMAGE  # 1.0, or 0.6 for a hurt low-rated player
    assert world.params.get("enemy_damage_mult") == pytest.approx(watch.damage_factor)
