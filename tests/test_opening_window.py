"""The first seconds of a first-time player, in the real window (ARCADE_HEADLESS=1): a player who starts a
run and touches nothing (reading the controls) gets a short grace under the default director (the grace
reflex, ``game/director/reflexes.py``: hits at ``[danger] grace_factor`` for at most ``grace_max_s``), and the
enemies hit as the plan's danger says again the moment they move (``game/director/act.py``)."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import pytest
from window_support import frames, send

from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.director.act import hp_limit
from game.director.tuning import TUNING
from game.sim.config import TICK_HZ

pytestmark = pytest.mark.window


def test_a_player_who_touches_nothing_gets_a_grace_then_moving_ends_it(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = make_app(seed=21)  # the seed a playtest died on at 0:11 with nothing pressed
    attach(app, session)  # the game's own wiring: the default (rules) director runs the world
    app.new_run()
    frames(app, 2)
    world = app.world
    assert world is not None and session.director.mode == "rules"
    graced_s = TUNING.danger.grace_max_s - 1.0
    frames(app, round(graced_s * TICK_HZ))
    assert world.time >= graced_s - 0.1 and world.phase == "playing" and world.player.hp > 0
    director = session.director
    hp = world.player.hp / world.player.stats.max_hp
    full = director.knobs.danger * hp_limit(hp, TUNING)  # what the plan's danger allows at this HP
    graced = world.params.get("enemy_damage_mult")
    want = world.params.clamp("enemy_damage_mult", full * TUNING.danger.grace_factor)  # the param's floor
    assert director.grace.on and graced == pytest.approx(want, abs=1e-3)
    send(app, "on_key_press", arcade.key.D, 0)
    frames(app, 10)
    send(app, "on_key_release", arcade.key.D, 0)
    hp = world.player.hp / world.player.stats.max_hp
    full = director.knobs.danger * hp_limit(hp, TUNING)
    assert not director.grace.on and director.actuator.state.danger == pytest.approx(full, abs=1e-3)
    assert world.params.get("enemy_damage_mult") == pytest.approx(full, abs=1e-3) and full > graced
