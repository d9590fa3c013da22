"""The rescue reflex (``game/director/reflexes.py``, ``Rescue``) as a player meets it, in a real window
(``ARCADE_HEADLESS``): the HP bar falls fast under a crowd, the crowd is shoved back out of reach, the
shockwave is drawn round the player, health packs land beside them, F10's acting row says SECOND WIND, and
the HUD shows how many second winds are left."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import arcade
import numpy as np
import pytest
from arcade.types import Color
from PIL import Image
from test_ai_panels import attached
from window_support import H, frames, press, render

from game.ai.session import AiSession
from game.app import GameApp
from game.director.tuning import TUNING
from game.render import palette
from game.render.ai_panels import AiPanels
from game.render.ai_panels.director_panel import status_rows, value_chars
from game.sim.combat import HEALTH
from game.sim.config import TICK_HZ
from game.sim.world import World

pytestmark = pytest.mark.window
CROWD = 8


def health_packs(world: World) -> int:
    return int((world.pickups.view("kind") == HEALTH).sum())


def collapse(app: GameApp) -> World:
    """A crowd of ``CROWD`` grunts on the player and 0.4 of a bar gone at once (past ``[read] fall_bars``),
    leaving the player under ``[rescue] hp`` (a second wind is due) but alive."""
    world = app.world
    assert world is not None
    p = world.player
    for i in range(CROWD):
        a = 2 * math.pi * i / CROWD
        world.spawn_enemy("grunt", p.x + math.cos(a) * 40, p.y + math.sin(a) * 40)
    left = TUNING.rescue.hp - 0.05
    assert left > 0
    p.iframes = 0.0
    p.hp = (left + 0.4) * p.stats.max_hp
    world.hurt_player(0.4 * p.stats.max_hp, "contact")
    return world


def watch_row(app: GameApp, panels: AiPanels) -> str:
    """What F10's acting row says in the frame drawn now."""
    render(app)
    data = panels.director.last
    assert data is not None
    return data.acting


@dataclass(frozen=True)
class Collapsed:
    app: GameApp
    panels: AiPanels
    world: World
    rescues: int  # rescues before the collapse
    packs: int  # health packs on the ground right after it


@pytest.fixture
def collapsed(make_app: Callable[..., GameApp], session: AiSession) -> Collapsed:
    """Three seconds of the strong bot's run with F10 open, then ``collapse``: the director has not read it
    yet (the next frame does)."""
    app, panels = attached(make_app, session, bot="strong")
    frames(app, 60 * 3)
    press(app, arcade.key.F10)
    rescues = session.director.rescue.count
    world = collapse(app)
    return Collapsed(app, panels, world, rescues, health_packs(world))


def test_a_collapse_under_a_crowd_is_rescued_in_sight_and_shown_in_f10(
    collapsed: Collapsed, session: AiSession
) -> None:
    app, panels, world = collapsed.app, collapsed.panels, collapsed.world
    scene = app.arena.scene
    assert scene is not None
    p = world.player
    frames(app, 1)  # the director reads the falling bar and the rescue fires in the same tick
    assert session.director.rescue.count == collapsed.rescues + 1
    near = np.hypot(world.enemies.view("x") - p.x, world.enemies.view("y") - p.y) < TUNING.rescue.radius
    assert int(near.sum()) < CROWD, "the crowd was shoved back"
    assert health_packs(world) >= collapsed.packs + TUNING.events.supply_packs, (
        "supply landed beside the player"
    )
    watch = watch_row(app, panels)  # the frame the player sees right after the rescue
    assert watch.startswith("SECOND WIND")
    assert "SECOND WIND" in " ".join(panels.director.texts()), "the acting row is drawn"
    rows = status_rows(panels.director.last, value_chars(panels.director.rect[2]))  # type: ignore[arg-type]
    at = [name for name, _ in rows].index("acting")
    assert " ".join(v for _, v in rows[at : at + 2]).startswith(watch[:30])
    assert all(len(v) <= value_chars(panels.director.rect[2]) for _, v in rows), "nothing runs off the panel"
    frames(app, 1)  # the rescue's event (emitted after the step) reaches the effects with the next tick
    render(app)
    fx = scene.effects.particles
    heal = int((fx.rgb[: fx.n] == (palette.HEAL.r, palette.HEAL.g, palette.HEAL.b)).all(axis=1).sum())
    assert heal >= 40 and fx.pool.shown >= heal, "the shockwave's ring is drawn round the player"


def test_f10_shows_the_rescue_long_enough_to_read(collapsed: Collapsed, session: AiSession) -> None:
    shown = []
    for _ in range(TICK_HZ):  # one second of frames, each drawn as the window does
        frames(collapsed.app, 1)
        shown.append("SECOND WIND" in watch_row(collapsed.app, collapsed.panels))
    assert session.director.rescue.count == collapsed.rescues + 1
    assert all(shown[1:]), f"SECOND WIND shown in {sum(shown)} of {len(shown)} frames"


def _drawn(img: Image.Image, app: GameApp, color: Color) -> int:
    """Pixels of ``color`` inside the HUD's second-wind label as drawn (window coordinates)."""
    hud = app.arena.hud
    assert hud is not None
    scale, t = app.prefs.settings.ui_scale, hud.winds.text
    x0, x1 = t.x * scale, (t.x + t.content_width) * scale
    y0, y1 = (t.y - t.content_height / 2) * scale, (t.y + t.content_height / 2) * scale
    arr = np.asarray(img)[H - 1 - int(y1) : H - 1 - int(y0), int(x0) : int(x1)].reshape(-1, 3).astype(int)
    return int((np.abs(arr - np.array([color.r, color.g, color.b])).max(axis=1) <= 40).sum())


def test_the_hud_shows_the_second_winds_left(collapsed: Collapsed, session: AiSession) -> None:
    """Once every second wind is spent a collapse is the player's own to survive, so the player must see
    how many are left: under the HP bar, green while one is left, red with none."""
    app, hud = collapsed.app, collapsed.app.arena.hud
    assert hud is not None
    before = session.director.rescue.charges
    render(app)
    assert hud.winds.drawn and hud.winds.value == f"SECOND WIND x{before}"
    assert _drawn(render(app), app, palette.GOOD) > 20
    frames(app, 1)  # the rescue spends one
    assert session.director.rescue.charges == before - 1
    render(app)
    assert hud.winds.value == f"SECOND WIND x{before - 1}"
    session.director.rescue.charges = 0
    img = render(app)
    assert hud.winds.value == "NO SECOND WIND" and _drawn(img, app, palette.HP_LOW) > 20
    assert _drawn(img, app, palette.GOOD) == 0
    session.director.set_mode("static", app.world)
    render(app)
    assert not hud.winds.drawn, "static gives no second wind: none shown"
