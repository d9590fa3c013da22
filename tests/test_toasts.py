"""Toasts in a real window: one queue, repeats merged ("Kill streak 15!  x3"), at most three on screen with
the rest waiting their turn, drawn in the bottom right corner (not over the player, not over the console
text), and developer notices kept to the log and the console."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import numpy as np
import pytest
from window_support import H, W, frames, press, render, start_arena

from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.render.ai_panels.console import ConsoleOverlay
from game.render.toasts import ENTER_GAP_S, MAX_SHOWN, merge_key
from game.sim.config import DT

pytestmark = pytest.mark.window

K = arcade.key


def test_merge_key_ignores_numbers() -> None:
    assert merge_key("Kill streak 5! Score x1.25") == merge_key("Kill streak  10! Score x1.50")
    assert merge_key("Level 3!") != merge_key("Kill streak 3!")


def test_repeats_merge_into_one_toast_with_a_count(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    for n in (5, 10, 15):
        app.show_toast(f"[kill_streak] Kill streak {n}! Score x{1 + n / 20:.2f}")
        frames(app, 3)
    shown = [t.shown for t in app.toasts.active]
    assert shown == ["[kill_streak] Kill streak 15! Score x1.75  \u00d73"], shown
    img = render(app)
    assert img.size == (W, H)


def test_a_burst_is_rate_limited_and_nothing_is_lost_or_stacked(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    for i in range(6):
        app.show_toast(f"notice {'abcdef'[i]}", 2.0)
    frames(app, 1)
    assert len(app.toasts.active) == 1 and len(app.toasts.waiting) == 5  # one enters at a time
    most = 0
    seen: set[str] = set()
    for _ in range(int(12 / DT)):
        frames(app, 1)
        most = max(most, len(app.toasts.active))
        seen |= {t.text for t in app.toasts.active}
    assert most == MAX_SHOWN
    assert seen == {f"notice {c}" for c in "abcdef"}  # every one was shown, in turn
    assert not app.toasts.waiting and not app.toasts.active
    assert ENTER_GAP_S > 0


def test_toasts_sit_in_the_bottom_right_corner_away_from_the_player(make_app: Callable[..., GameApp]) -> None:
    app = start_arena(make_app)
    for word in ("alpha", "beta", "gamma"):
        app.show_toast(f"{word} notice")
        frames(app, int(ENTER_GAP_S / DT) + 2)
    render(app)
    rects = app.toasts.rects(W)
    assert len(rects) == 3
    for left, bottom, w, h in rects:
        assert left > W / 2 and left + w <= W  # right half
        assert bottom + h < H / 3  # bottom third: the player is in the middle of the screen
    img = np.asarray(render(app)).astype(int)
    left, bottom, w, h = rects[-1]
    patch = img[H - int(bottom + h) : H - int(bottom), int(left) : int(left + w)]
    assert patch.mean() < 90  # the dark backing is drawn behind the text


def test_toasts_never_cover_the_console_text(make_app: Callable[..., GameApp], session: AiSession) -> None:
    app = make_app(seed=3)
    attach(app, session)
    app.new_run()
    press(app, K.GRAVE)
    app.show_toast("a notice while typing")
    frames(app, 2)
    render(app)
    console_bottom = H - max(160.0, H * 0.46) - 8
    for _, bottom, _, h in app.toasts.rects(W):
        assert bottom + h < console_bottom


def test_developer_notices_go_to_the_console_not_to_toasts(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = make_app(seed=3)
    attach(app, session)
    app.new_run()
    session._loading(1.0, "ready in 2.21s (n_ctx=4096, threads=1)")
    frames(app, 3)
    console = next(o for o in app.overlays.items if isinstance(o, ConsoleOverlay))
    assert any("ready in 2.21s" in t for t in console.texts())
    assert not any("n_ctx" in t or "ready in" in t for t in app.toasts.texts)
    assert "AI model ready" in app.toasts.texts  # the player's words
