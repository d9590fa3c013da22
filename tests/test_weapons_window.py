"""Every weapon fires its own pattern in the real window (pixels read back), and an evolution triggers from
a real upgrade pick (key press on the upgrade screen)."""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import pytest
from arcade import key as K
from PIL import Image
from window_support import H, force_upgrade, frames, press, render, send, start_arena

from game.app import GameApp
from game.sim.spawner import NullSpawner
from game.sim.weapons import HeldWeapon
from game.sim.world import World

pytestmark = pytest.mark.window

SHOTS = os.environ.get("ARENA_WEAPON_SHOTS")  # a folder: keep each test's frame there to look at


def armed(make_app: Callable[..., GameApp], key: str, level: int = 1) -> tuple[GameApp, World]:
    """A quiet arena with only ``key`` held, the mouse aiming right of the player and Space held."""
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    world.spawner = NullSpawner()
    world.enemies.clear()
    world.wave_time_left = 1e6
    world.arsenal.held = [HeldWeapon(key, level)]
    sx, sy = screen(app, world.player.x, world.player.y)
    send(app, "on_mouse_motion", int(sx + 320), int(sy), 0, 0)
    send(app, "on_key_press", K.SPACE, 0)
    return app, world


def screen(app: GameApp, x: float, y: float) -> tuple[float, float]:
    sx, sy = app.arena.rig.camera.project((x, y))
    return float(sx), float(sy)


def tinted(
    img: Image.Image, app: GameApp, xs: np.ndarray, ys: np.ndarray, rgb: tuple[int, ...], half: int = 6
) -> int:
    """How many of the world points (xs, ys) have a pixel near ``rgb`` (or white-hot) within ``half`` px."""
    arr = np.asarray(img).astype(int)
    found = 0
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        sx, sy = screen(app, x, y)
        cx, cy = int(sx), H - 1 - int(sy)
        patch = arr[max(0, cy - half) : cy + half, max(0, cx - half) : cx + half].reshape(-1, 3)
        near = (np.abs(patch - np.array(rgb)).max(axis=1) < 60) | (patch.min(axis=1) > 225)
        found += bool(near.any())
    return found


def keep(img: Image.Image, name: str) -> None:
    if SHOTS:
        img.save(os.path.join(SHOTS, f"{name}.png"))


def test_blaster_spread_and_missiles_fire_their_own_projectiles(make_app: Callable[..., GameApp]) -> None:
    for key, at_least in (("blaster", 1), ("spread", 5), ("missile", 2)):
        app, world = armed(make_app, key)
        p = world.player
        world.spawn_enemy("tank", p.x + 200, p.y + 260)  # off the aim line: missiles must turn to it
        world.enemies.view("hp")[:] = 1e9
        frames(app, 1)
        b = world.bullets
        w = world.arsenal.cat.index[key]
        assert (b.view("weapon") == w).sum() >= at_least, key
        angles = np.arctan2(b.view("vy"), b.view("vx"))
        if key == "spread":
            assert np.ptp(angles) > 0.6, "the pellets fan out"
        frames(app, 20)
        img = render(app)
        keep(img, key)
        b = world.bullets
        mine = b.view("weapon") == w
        assert mine.any()
        spec = world.arsenal.cat.get(key)
        seen = tinted(img, app, b.view("x")[mine], b.view("y")[mine], spec.color)
        assert seen >= max(1, int(mine.sum() * 0.6)), f"{key}: {seen} of {int(mine.sum())} drawn"
        if key == "missile":
            heading = np.arctan2(b.view("vy")[mine], b.view("vx")[mine])
            assert (heading > 0.2).any(), "missiles turned toward the enemy above the aim line"
        else:
            assert world.stats.shots > 0


def test_orbit_blades_circle_and_cut(make_app: Callable[..., GameApp]) -> None:
    app, world = armed(make_app, "orbit")
    p = world.player
    spec = world.arsenal.cat.get("orbit")
    world.spawn_enemy("tank", p.x + spec.radius, p.y)
    world.enemies.view("hp")[:] = 1e6
    frames(app, 40)
    assert world.enemies.view("hp")[0] < 1e6, "a blade cut the enemy on its circle"
    img = render(app)
    keep(img, "orbit")
    from game.sim.weapons import blades

    ((_, xs, ys),) = blades(world)
    assert len(xs) == spec.count
    assert tinted(img, app, xs, ys, spec.color, half=14) == spec.count
    phase = world.arsenal.held[0].phase
    frames(app, 5)
    assert world.arsenal.held[0].phase != phase, "the blades move"


def test_lance_pierces_a_whole_line_and_draws_a_beam(make_app: Callable[..., GameApp]) -> None:
    app, world = armed(make_app, "lance")
    p = world.player
    for dx in (120, 240, 360):
        world.spawn_enemy("tank", p.x + dx, p.y)
    world.spawn_enemy("tank", p.x, p.y + 250)  # off the line
    world.enemies.view("hp")[:] = 1e6
    frames(app, 2)
    hp = world.enemies.view("hp")
    assert (hp[:3] < 1e6).all(), "every enemy on the line is hit"
    assert hp[3] == 1e6, "nothing off the line"
    beams = [f for f in world.fx if f.kind == "lance"]
    assert beams
    img = render(app)
    keep(img, "lance")
    xs = np.linspace(p.x + 60, p.x + 450, 8)
    assert tinted(img, app, xs, np.full(8, p.y), world.arsenal.cat.get("lance").color) >= 7


def test_chain_lightning_jumps_between_enemies(make_app: Callable[..., GameApp]) -> None:
    app, world = armed(make_app, "chain")
    p = world.player
    pts = [(150, 40), (260, 120), (330, 10), (420, -90)]
    for dx, dy in pts:
        world.spawn_enemy("tank", p.x + dx, p.y + dy)
    world.enemies.view("hp")[:] = 1e6
    frames(app, 2)
    arcs = [f for f in world.fx if f.kind == "chain"]
    assert len(arcs) == 4, "one arc to the first enemy, then a jump to each next one"
    assert (world.enemies.view("hp") < 1e6).all()
    img = render(app)
    keep(img, "chain")
    mids = np.array([((a.x0 + a.x1) / 2, (a.y0 + a.y1) / 2) for a in arcs])
    # the zig-zag leaves the exact midpoint; sample the arcs' ends instead
    ends = np.array([(a.x1, a.y1) for a in arcs])
    assert mids.shape == ends.shape
    assert tinted(img, app, ends[:, 0], ends[:, 1], world.arsenal.cat.get("chain").color) >= 3


def test_a_pick_evolves_a_maxed_weapon_with_its_passive(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    world = app.world
    assert world is not None
    spec = world.arsenal.cat.get("blaster")
    world.arsenal.held[0].level = spec.max_level
    force_upgrade(app)
    assert app.window.current_view is app.upgrade
    world.choices = ["fire_rate", "max_hp", "weapon:spread"]
    frames(app, 1)
    img = render(app)
    keep(img, "evolve_card")
    label = next(c for c in app.upgrade.cards if c.key == "fire_rate").owned
    assert "EVOLVES Blaster -> Gatling Storm" in label.text.text
    while world.pending_picks > 1:
        world.pending_picks -= 1
    press(app, K.KEY_1)
    frames(app, 2)
    assert world.arsenal.keys == ["gatling"]
    assert world.evolutions == ["gatling"]
    sx, sy = screen(app, world.player.x, world.player.y)
    send(app, "on_mouse_motion", int(sx + 320), int(sy), 0, 0)
    send(app, "on_key_press", K.SPACE, 0)
    frames(app, 12)
    img = render(app)
    keep(img, "gatling")
    b = world.bullets
    gat = b.view("weapon") == world.arsenal.cat.index["gatling"]
    assert gat.sum() >= 4, "the evolved weapon fires"
    assert (b.view("pierce")[gat] >= 2).all()
