"""The shielded enemy in the real window: the player's blaster (mouse aim, Space) does nothing to a
Shielder facing it, the shield is drawn as a bright arc on the side facing the player and sparks where it
stops shots; from behind the same shots hurt it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from arcade import key as K
from window_support import H, frames, render, send, start_arena

from game.app import GameApp
from game.render.enemies import SHIELD
from game.sim.spawner import NullSpawner
from game.sim.weapons import HeldWeapon

pytestmark = pytest.mark.window


def setup(make_app: Callable[..., GameApp]) -> tuple[GameApp, float]:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    world.spawner = NullSpawner()
    world.enemies.clear()
    world.wave_time_left = 1e6
    world.arsenal.held = [HeldWeapon("blaster", 1)]
    p = world.player
    world.spawn_enemy("shielder", p.x + 240, p.y)
    world.enemies.view("speed")[:] = 0.0
    return app, float(world.enemies.view("max_hp")[0])


def aim_and_shoot(app: GameApp, wx: float, wy: float) -> None:
    sx, sy = app.arena.rig.camera.project((wx, wy))
    send(app, "on_mouse_motion", int(sx), int(sy), 0, 0)
    send(app, "on_key_press", K.SPACE, 0)


def shield_pixels(app: GameApp, wx: float, wy: float, side: float) -> int:
    """Shield-coloured pixels in a box on one side (-1 left, +1 right) of the enemy at (wx, wy)."""
    img = render(app)
    arr = np.asarray(img).astype(int)
    sx, sy = app.arena.rig.camera.project((wx + side * 22, wy))
    cx, cy = int(sx), H - 1 - int(sy)
    patch = arr[cy - 24 : cy + 24, cx - 8 : cx + 8].reshape(-1, 3)
    return int((np.abs(patch - np.array(SHIELD[:3])).max(axis=1) < 50).sum())


def test_a_shielder_facing_the_player_shrugs_off_the_blaster_and_shows_its_shield(
    make_app: Callable[..., GameApp],
) -> None:
    app, hp0 = setup(make_app)
    world = app.world
    assert world is not None
    ex, ey = float(world.enemies.view("x")[0]), float(world.enemies.view("y")[0])
    aim_and_shoot(app, ex, ey)
    frames(app, 90)
    assert world.stats.shots > 5
    assert float(world.enemies.view("hp")[0]) == hp0
    assert world.stats.hits == 0
    facing_player = shield_pixels(app, ex, ey, -1.0)
    away = shield_pixels(app, ex, ey, +1.0)
    assert facing_player > 20 and facing_player > 4 * away


def test_from_behind_the_same_shots_hurt_it(make_app: Callable[..., GameApp]) -> None:
    app, hp0 = setup(make_app)
    world = app.world
    assert world is not None
    e = world.enemies
    p = world.player
    frames(app, 2)  # it faces the player (to its left)
    p.x = float(e.view("x")[0]) + 200  # the player is suddenly behind it; its shield turns slowly
    aim_and_shoot(app, float(e.view("x")[0]), float(e.view("y")[0]))
    frames(app, 30)
    assert float(e.view("hp")[0]) < hp0
