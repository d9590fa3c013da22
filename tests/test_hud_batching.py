"""The HUD in two draw calls (game.render.widgets: RectBatch, LayeredText), in a real window: the plates and
bars land where the immediate-mode drawing put them, a label shows only in the frames that draw it, and a
shadow stays under its text."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import pytest
import window_support as ws
from arcade.types import Color
from window_support import close, px, render, start_arena

from game.app import GameApp
from game.render.hud import PLATE
from game.render.widgets import LayeredText, RectBatch, ShadowLabel

pytestmark = pytest.mark.window


def test_the_hud_plates_and_bars_are_drawn_by_the_batch(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app, bot="strong")
    hud = app.arena.hud
    assert hud is not None
    img = render(app)
    queued = hud.rects._queued
    assert len(queued) >= 15  # plates, bars, outlines: every one queued, none drawn on its own
    # the HP bar is full at the start: its fill colour in the middle of the bar
    hp_bar = next(r for r in queued if tuple(r[4]) == tuple(hud_hp_colour()))
    left, bottom, _, height, _ = hp_bar
    assert close(px(img, left + 12, bottom + height * 0.3), hud_hp_colour()[:3], tol=30)
    # a plate darkens the floor under the score
    plates = [r for r in queued if tuple(r[4]) == tuple(PLATE)]
    assert len(plates) >= 4
    floor = px(img, ws.W / 2 + 200, ws.H / 2 - 200)
    pl, pb, *_ = plates[2]  # score, time and kills (top right)
    shaded = px(img, pl + 4, pb + 4)
    assert sum(shaded) < sum(floor)


def hud_hp_colour() -> Color:
    from game.render import palette

    return palette.HP


def test_a_layered_label_shows_only_in_frames_that_draw_it_and_its_shadow_stays_under(
    window: arcade.Window,
) -> None:
    layer = LayeredText()
    rects = RectBatch()
    label = ShadowLabel(
        "", 200, 300, offset=3, layer=layer, font_size=40, bold=True, color=Color(255, 255, 0)
    )
    label.set("HUD")

    def frame(draw_label: bool) -> tuple[tuple[int, int, int], int, int]:
        window.clear(color=Color(40, 40, 120))
        window.default_camera.use()
        layer.begin()
        rects.begin()
        rects.add(150, 250, 300, 120, Color(0, 160, 0, 255))
        if draw_label:
            label.draw()
        rects.draw()
        layer.draw()
        img = arcade.get_image().convert("RGB")
        # the brightest pixel inside the label's box: yellow text, or the green rect when it is hidden
        box = [
            px(img, x, y)
            for x in range(200, 200 + int(label.text.content_width), 2)
            for y in range(300, 330, 2)
        ]
        yellow = sum(close(c, (255, 255, 0), tol=60) for c in box)
        dark = sum(max(c) < 60 for c in box)
        return max(box, key=lambda c: c[0] + c[1]), yellow, dark

    brightest, yellow, dark = frame(True)
    assert close(brightest, (255, 255, 0), tol=40)  # the text is drawn over the batch's rect
    assert yellow > 2 * dark > 0  # the shadow shows only along the offset edge: it is under the text
    brightest, yellow, dark = frame(False)
    assert close(brightest, (0, 160, 0), tol=30) and yellow == dark == 0  # not drawn this frame: not shown
    assert not label.text.visible and not label.shadow.text.visible
    assert close(frame(True)[0], (255, 255, 0), tol=40)  # and back


def test_a_long_activity_line_stops_before_the_fps_plate(make_app: Callable[..., GameApp]) -> None:
    """With F10 docked the play area narrows; the agent line ran under the FPS counter."""
    app = start_arena(make_app, bot="strong")
    app.arena.activity_source = lambda: "AI: 1 running, 0 queued | last tool: set_director_plan " * 3
    hud = app.arena.hud
    assert hud is not None
    render(app)
    act, fps = hud.activity.text, hud.fps.text
    assert act.text.endswith("...")
    assert act.x + act.content_width < fps.x - fps.content_width  # fps is anchored at its right edge
