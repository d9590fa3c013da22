"""The chat panel, the Merchant's shop and the game-over analysis in a real window (ARCADE_HEADLESS=1)
with a real ``AiSession``: keys and clicks go through the window's event dispatch, the screen is read back
as pixels and as the text the panels draw. A slow scripted backend streams word by word, so partial text
and Stop can be watched; everything else (task queue, tool loop, main-loop queue, shop) is the real thing."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import arcade
import pytest
import window_support as ws
from chat_support import SlowStreamer
from window_support import frames, press, render, send

from coreai.settings import Settings, TalkDecoding
from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.options import LaunchOptions
from game.render.ai_panels import AiPanels
from game.render.ai_panels.chat_panel import STOP_RED, ChatPanel
from game.views.gameover import GameOverView
from game.views.shop import COIN, ShopView

pytestmark = pytest.mark.window

K = arcade.key
REPLY = "The arena remembers every step you take and every shot you miss, champion, so mind your footing."
ANALYSIS = "Hurt most: the brutes up close. Accuracy: about half your shots hit. Next: kite wider circles."


def make_session(**game: Any) -> AiSession:
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}, "game": game})
    return AiSession(LaunchOptions(), settings=settings, configure_logs=False)


@pytest.fixture
def session(saves_dir: Path) -> Iterator[AiSession]:
    s = make_session()
    yield s
    s.close()


def start(make: Callable[..., GameApp], session: AiSession) -> tuple[GameApp, AiPanels, ChatPanel]:
    app = make(seed=3)
    attach(app, session)
    hook = next(h for h in app.chrome_hooks if getattr(h, "__name__", "") == "chrome_hook")
    panels = hook.__self__  # type: ignore[attr-defined]
    assert isinstance(panels, AiPanels) and panels.chat is not None
    app.new_run()
    frames(app, 2)
    return app, panels, panels.chat


def route(session: AiSession, role: str, client: SlowStreamer) -> None:
    session.runtime.router.register(client.name, client)  # type: ignore[arg-type]
    session.runtime.router.set_backend(role, client.name)


def wait_for(app: GameApp, done: Callable[[], bool], limit_s: float = 20.0, draw: bool = False) -> None:
    deadline = time.monotonic() + limit_s
    while not done():
        assert time.monotonic() < deadline, f"condition not met within {limit_s}s"
        frames(app, 1)
        if draw:
            render(app)
        time.sleep(0.003)


def shown(panel: ChatPanel) -> str:
    return " ".join(panel.texts())


def type_text(app: GameApp, text: str) -> None:
    send(app, "on_text", text)


def test_t_opens_the_chat_and_a_slow_reply_shows_partial_text_before_it_ends(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app, _, chat = start(make_app, session)
    session.settings.talk.show_template_first = False  # the model's phrasing streams as it comes
    session.settings.talk.roles["Chat"] = TalkDecoding(deadline_s=30.0)  # past the 2.8 s a player waits
    slow = SlowStreamer(REPLY, pause_s=0.2)  # slow enough to look at it mid-reply on a busy machine
    route(session, "Chat", slow)
    press(app, K.T)
    type_text(app, "t")  # the T key's own text event must not land in the input line
    assert chat.visible and chat.model.input == "" and chat.model.role == "Chat"
    type_text(app, "hello there")
    press(app, K.ENTER)
    wait_for(app, lambda: len(chat.model.live_text().split()) >= 3)
    img = render(app)
    partial = chat.model.live_text()
    assert chat.model.busy and partial != REPLY and REPLY.startswith(partial)
    on_screen = shown(chat)
    assert "you: hello there" in on_screen and partial.split()[1] in on_screen
    assert "Chat is typing" in on_screen and "Stop" in chat.texts()
    bl, bb, _, _ = chat.button_rect()
    assert ws.close(ws.px(img, bl + 6, bb + 6), tuple(STOP_RED)[:3]), "the Stop button is drawn red"  # type: ignore[arg-type]
    wait_for(app, lambda: not chat.model.busy)
    render(app)
    assert "champion, so mind your footing." in shown(chat) and "Send" in chat.texts()
    assert len(slow.requests) == 1 and slow.requests[0].role == "Chat"


def test_esc_and_the_stop_button_stop_a_reply_within_half_a_second(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app, _, chat = start(make_app, session)
    session.settings.talk.show_template_first = False  # stop the model's phrasing as it streams
    slow = SlowStreamer(REPLY, pause_s=0.25)
    route(session, "Chat", slow)
    press(app, K.ENTER)
    type_text(app, "talk to me")
    press(app, K.ENTER)
    wait_for(app, lambda: chat.model.live_text() != "")
    turn = chat.model.turn
    assert turn is not None
    t0 = time.perf_counter()
    press(app, K.ESCAPE)
    assert turn.wait(0.5) and time.perf_counter() - t0 < 0.5, "the task ended within 0.5 s of Esc"
    assert slow.cancelled.wait(1.0) and slow.sent < len(REPLY.split())
    render(app)
    assert chat.visible, "Esc while a reply comes stops it; it does not close the panel"
    assert "stopped" in chat.texts()
    # the Stop button, clicked
    slow.cancelled.clear()
    type_text(app, "again")
    press(app, K.ENTER)
    wait_for(app, lambda: chat.model.live_text() != "", draw=True)
    turn = chat.model.turn
    assert turn is not None
    bl, bb, bw, bh = chat.button_rect()
    t0 = time.perf_counter()
    send(app, "on_mouse_press", int(bl + bw / 2), int(bb + bh / 2), arcade.MOUSE_BUTTON_LEFT, 0)
    assert turn.wait(0.5) and time.perf_counter() - t0 < 0.5 and turn.state == "stopped"
    press(app, K.ESCAPE)
    assert not chat.visible, "Esc with nothing coming closes the panel"


def test_the_game_holds_while_the_chat_is_open(make_app: Callable[..., GameApp], session: AiSession) -> None:
    app, _, chat = start(make_app, session)
    world = app.arena.world
    assert world is not None and not chat.visible
    frames(app, 10)
    t = world.time
    assert t > 0
    press(app, K.T)
    frames(app, 30)
    assert world.time == t, "no simulation while the chat is open"
    render(app)
    assert app.arena.held_by == "chat"
    press(app, K.ESCAPE)
    frames(app, 10)
    assert world.time > t


def reach_the_shop(app: GameApp) -> ShopView:
    world = app.arena.world
    assert world is not None
    world.wave_time_left = 0.0
    frames(app, 3)
    assert world.phase == "upgrade" and app.window.current_view is app.upgrade
    press(app, K.KEY_1)
    view = app.window.current_view
    assert isinstance(view, ShopView) and view.shop.open
    return view


def edge_is_gold(img: Any, rect: tuple[float, float, float, float]) -> bool:
    """Whether the card's left edge is drawn in the coin colour (an item the player can afford)."""
    pixels = ws.region(img, rect[0], rect[1] + rect[3] / 2, 2)
    return any(ws.close(tuple(p), tuple(COIN)[:3]) for p in pixels)  # type: ignore[arg-type]


def test_the_shop_sells_refuses_and_spends_coins(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app, _, chat = start(make_app, session)
    shop = reach_the_shop(app)
    world = app.arena.world
    assert world is not None and world.wave == 2
    purse = shop.shop.purse
    purse.balance = 20
    world.player.hp = 20.0
    img = render(app)
    rects = shop.card_rects()
    medkit, hollow = rects[0], rects[4]  # 6 coins (affordable), 24 coins (not)
    assert edge_is_gold(img, medkit) and not edge_is_gold(img, hollow)
    press(app, K.KEY_1)  # a purchase
    assert purse.balance == 14 and purse.spent == 6 and world.player.hp == 60.0
    assert shop.message.startswith("Bought Medkit") and shop.message_ok
    press(app, K.KEY_5)  # not enough coins
    assert not shop.message_ok and shop.message == "Hollow Points costs 24 coins; you have 14"
    assert purse.balance == 14
    purse.balance = 100
    press(app, K.KEY_1)
    press(app, K.KEY_1)
    press(app, K.KEY_1)  # out of stock
    assert shop.message == "Medkit is sold out" and purse.balance == 100 - 12
    render(app)
    # the Merchant in the chat: a purchase (the same BuyItem command, made at once, answered from the
    # receipt) and an unknown item (no, and the closest thing on the shelf)
    radius = world.stacks.get("pickup_radius", 0)  # the wave-1 pick may have been a Magnet already
    press(app, K.T)
    type_text(app, "t")
    assert chat.visible and chat.model.role == "Merchant"
    type_text(app, "buy a magnet")
    press(app, K.ENTER)
    wait_for(app, lambda: not chat.model.busy, draw=True)
    render(app)
    said = " ".join(shown(chat).split())  # the panel wraps lines
    assert "Here is your Magnet" in said and "You have 79 coins left" in said
    assert purse.balance == 88 - 9
    assert world.stacks["pickup_radius"] == radius + 1
    type_text(app, "buy a rocket launcher")
    press(app, K.ENTER)
    wait_for(app, lambda: not chat.model.busy, draw=True)
    render(app)
    said = " ".join(shown(chat).split())  # the panel wraps lines
    assert "No, I don't sell a rocket launcher" in said and "The closest is the Hollow Points" in said
    assert purse.balance == 79
    press(app, K.ESCAPE)
    press(app, K.ENTER)  # leave: the next wave starts
    assert app.window.current_view is app.arena and not shop.shop.open
    t = world.time
    frames(app, 5)
    assert world.time > t


def test_a_bot_buys_one_thing_and_leaves_the_shop(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    app = make_app(seed=3, bot="strong")
    attach(app, session)
    app.new_run()
    frames(app, 2)
    world = app.arena.world
    assert world is not None
    world.wave_time_left = 0.0
    wait_for(app, lambda: isinstance(app.window.current_view, ShopView), limit_s=10)
    view = app.window.current_view
    assert isinstance(view, ShopView)
    view.shop.purse.balance = 50
    world.player.hp = world.player.stats.max_hp  # not hurt: the dearest affordable upgrade
    frames(app, 70)
    assert [r.name for r in view.shop.sales] == ["Hollow Points"] and view.shop.purse.balance == 26
    frames(app, 100)
    assert app.window.current_view is app.arena and world.wave == 2


def die(app: GameApp) -> GameOverView:
    world = app.arena.world
    assert world is not None
    frames(app, 30)
    world.player.hp = -1.0
    frames(app, 2)
    assert world.phase == "dead"
    frames(app, 120)  # the death banner, then the game-over screen
    view = app.window.current_view
    assert isinstance(view, GameOverView) and view.analysis is not None
    return view


def test_the_game_over_analysis_is_the_rules_reading_at_once_and_asks_no_model(
    make_app: Callable[..., GameApp], session: AiSession
) -> None:
    """The Analyzer model is not asked (its rewrite never kept the run's numbers true): even routed to a
    model, the game-over screen shows the rules' reading of the run at once and says so."""
    app, _, _ = start(make_app, session)
    streamer = SlowStreamer(ANALYSIS, pause_s=0.02)
    route(session, "Analyzer", streamer)
    view = die(app)
    assert view.analysis is not None and not view.analysis.busy
    img = render(app)
    text = view.analysis_text()
    assert text.startswith("Hurt most:") and "Accuracy:" in text and "Try next:" in text
    assert "rules-based" in view.analysis.status()
    frames(app, 30)
    assert streamer.requests == [], "no model request at game over"
    assert ws.px(img, app.window.width / 2, 150) != ws.px(img, 4, 4), "the analysis box is drawn"
