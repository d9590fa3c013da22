"""The in-game AI and mod UI in a real window with a real ``AiSession`` (every role on the offline stub, real
lupa, real task queue): the F10 director panel, F6 cycling, the backtick console (Lua, errors, /ask,
/backend), F9 Programmer self-heal, the F7 mods panel (toggle, reload, quarantine), notice toasts and the HUD
line. Worker-thread answers are awaited by pumping frames with a deadline, so a hang fails fast."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import arcade
import numpy as np
import pytest
import window_support as ws
from window_support import frames, press, render, send

from coreai.commands import Spawn
from coreai.lua import ModState
from game.ai.backends import OFFLINE_LINE
from game.ai.session import AiSession
from game.ai.wiring import attach
from game.app import GameApp
from game.director.pacing import PacingState
from game.director.read import IntensitySample
from game.render import palette
from game.render.ai_panels import AiPanels, install
from game.render.ai_panels.console_model import exec_lines
from game.render.ai_panels.director_panel import VALUE_CHARS, status_rows, value_chars, wrap_value
from game.render.ai_panels.graph import pacing_segments, window_start
from game.sim import events as ev
from game.sim.world import World

pytestmark = pytest.mark.window

K = arcade.key
WAIT_S = 30.0  # wall-clock limit for a worker-thread answer
MANIFEST = (
    'name = "crashy"\nversion = "1.0"\nauthor = "t"\ndescription = "d"\napi_version = 1\nentry = "main.lua"'
)
CRASHY = {  # a mod that errors on every tick
    "mod.toml": MANIFEST,
    "main.lua": "function on_tick(dt) error('tick broke') end",
}


def attached(make: Callable[..., GameApp], session: AiSession, **options: object) -> tuple[GameApp, AiPanels]:
    """A running arena with the session attached the way the game does it (``wiring.attach``)."""
    app = make(seed=3, **options)
    attach(app, session)
    panels = panels_of(app)
    app.new_run()
    frames(app, 2)
    return app, panels


@pytest.fixture
def game(make_app: Callable[..., GameApp], session: AiSession) -> tuple[GameApp, AiPanels]:
    """The strong bot plays (a player standing still dies within seconds)."""
    return attached(make_app, session, bot="strong")


@pytest.fixture
def human_game(make_app: Callable[..., GameApp], session: AiSession) -> tuple[GameApp, AiPanels]:
    """Keyboard-driven: for the tests about keys reaching (or not reaching) the player."""
    return attached(make_app, session)


def panels_of(app: GameApp) -> AiPanels:
    hook = next(h for h in app.chrome_hooks if getattr(h, "__name__", "") == "chrome_hook")
    owner = getattr(hook, "__self__", None)
    assert isinstance(owner, AiPanels)
    return owner


def wait_for(app: GameApp, done: Callable[[], bool], limit_s: float = WAIT_S) -> None:
    """Pump game frames until ``done()`` (worker answers land through the frame hooks)."""
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {limit_s}s")
        frames(app, 1)
        time.sleep(0.002)


def type_line(app: GameApp, text: str, *, enter: bool = True) -> None:
    """Type like a keyboard: a key press per character (the console must swallow it), then the text event."""
    for ch in text:
        sym = ord(ch.lower()) if ch.isalnum() else K.SPACE if ch == " " else K.MINUS  # some key, anyway
        send(app, "on_key_press", sym, 0)
        send(app, "on_text", ch)
        send(app, "on_key_release", sym, 0)
    if enter:
        press(app, K.ENTER)


def spy_toasts(app: GameApp) -> list[tuple[str, tuple[int, ...]]]:
    seen: list[tuple[str, tuple[int, ...]]] = []
    original = app.toasts.show

    def show(text: str, seconds: float = 3.0, color: arcade.types.Color = palette.TEXT) -> None:
        seen.append((text, tuple(color)))
        original(text, seconds, color)

    app.toasts.show = show  # type: ignore[method-assign]
    return seen


def test_f10_director_panel_draws_live_data_over_the_arena(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    frames(app, 60 * 12)  # 12 s of play: history, and the rules director has decided at least once
    session = panels.session
    assert session.director.accepted >= 1
    app.show_fps = False
    before = np.asarray(render(app)).astype(int)
    press(app, K.F10)
    assert panels.director.visible
    after = np.asarray(render(app)).astype(int)
    left, bottom, width, height = panels.director.rect  # docked: the whole right strip
    assert (left + width, bottom, height) == (ws.W, 0, ws.H) and 280 <= width <= 400
    region = (slice(100, 500), slice(int(left) + 10, ws.W - 10))  # rows from the top: the panel's area
    changed = np.abs(after[region] - before[region]).sum(axis=2) > 30
    assert changed.mean() > 0.5, "the panel does not cover its area"
    assert app.play_width() == ws.W - width  # the arena and the HUD lay out left of it
    hud = app.arena.hud
    assert hud is not None and hud.score.text.x == app.play_width() - hud.MARGIN
    shown = panels.director.texts()
    data = panels.director.last
    assert data is not None and data.trace_id is not None
    assert "mode: rules" in shown
    assert data.trace_id in shown
    assert any(t.startswith(f"{data.accepted} ok ") for t in shown)
    assert data.last_reason in shown
    assert any(t.startswith("INTENSITY") for t in shown)
    # director (#11): the skill estimate, its signals and the saturated knobs are on the panel
    assert data.skill_text() in shown
    assert data.skill_text().split()[1] in ("novice", "weak", "average", "strong")
    assert data.signals_text() in shown and data.signals_text().startswith("kill ")
    # the reflexes in force and the multipliers the act stage applies (act.py), the spawner's limits
    assert re.search(r"hits x\d+\.\d\d  speed x\d+\.\d\d  drops x\d+\.\d\d$", data.acting), data.acting
    assert data.limits.startswith("crowd ") and "floor" in data.limits, data.limits
    assert "saturated" in shown, "every STATUS row fits a 720 px window (the graph shrinks first)"
    rows = status_rows(data, value_chars(width))  # long values wrap over rows inside the panel
    assert all(len(v) <= value_chars(width) for _, v in rows), "no value runs off the panel's right edge"
    names = [name for name, _ in rows]
    at, lim = names.index("saturated"), names.index("limits")
    acting = " ".join(v for _, v in rows[names.index("acting") : lim])
    assert acting.split() == data.acting.split()  # the acting row, wrapped
    assert " ".join(v for _, v in rows[at:]) == data.saturation_text()
    assert " ".join(v for _, v in rows[lim : names.index("spawns")]) == data.limits
    spawns = " ".join(v for _, v in rows[names.index("spawns") : names.index("skill")])
    assert spawns == f"30s: {data.spawns}" and "bank " in spawns  # why enemies appeared, by cause
    assert all(v in shown for _, v in rows if v), "every STATUS row is drawn"
    # the graph is cached: redrawing without a new sample does not rebuild it, a new sample does
    rebuilds = panels.director.graph.shapes.rebuilds
    render(app)
    assert panels.director.graph.shapes.rebuilds == rebuilds
    frames(app, 30)
    render(app)
    assert panels.director.graph.shapes.rebuilds == rebuilds + 1
    press(app, K.F10)
    assert not panels.director.visible
    render(app)
    assert app.play_width() == ws.W and hud.score.text.x == ws.W - hud.MARGIN


def test_director_panel_without_a_run_says_so(make_app: Callable[..., GameApp], session: AiSession) -> None:
    app = make_app(seed=1)
    panels = install(app, session)  # on the title screen: no world yet
    panels.director.visible = True
    render(app)
    assert panels.director.last is None
    assert "No run in progress" in panels.director.empty.value


def test_pacing_segments_and_window() -> None:
    b, p, r = PacingState.BUILD_UP, PacingState.SUSTAIN_PEAK, PacingState.RELAX
    hist = [IntensitySample(t * 0.25, 0.1, s) for t, s in enumerate([b, b, p, p, p, r])]
    assert pacing_segments(hist) == [(0.0, 0.5, b), (0.5, 1.25, p), (1.25, 1.25, r)]
    assert window_start(hist) == 0.0
    assert window_start([IntensitySample(200.0, 0.0, b)]) == 80.0
    assert pacing_segments([]) == []


def test_f6_cycles_the_director_and_says_so(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    ai = dict(app.hotkeys.groups())["AI & mods"]  # the help no longer says "coming" for the AI keys
    assert {e.keys[0] for e in ai} >= {K.F6, K.F7, K.F9, K.F10, K.GRAVE}
    assert all(e.available and e.status == "" for e in ai), [(e.label, e.status) for e in ai]
    toasts = spy_toasts(app)
    assert panels.session.director.mode == "rules"
    press(app, K.F6)
    assert panels.session.director.mode == "stub"
    assert any(t == "director: stub" for t, _ in toasts), toasts  # shown at once, not a frame later
    hud_line = app.arena.activity_source
    assert hud_line is not None and "director: stub" in hud_line()
    press(app, K.F6)
    press(app, K.F6)
    assert panels.session.director.mode == "rules"
    press(app, K.F6)
    assert panels.session.director.mode == "stub"
    frames(app, 60 * 3)  # the stub backend's plan arrives through the real task queue
    assert "AI:" in panels.activity_line() and "backend" in panels.activity_line()


def test_notices_become_toasts_coloured_by_kind(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    toasts = spy_toasts(app)
    panels.session.notify("warn", "mod x was quarantined")
    panels.session.notify("good", "well played")
    frames(app, 1)
    colours = dict(toasts)
    assert colours["mod x was quarantined"] == tuple(palette.WARN)
    assert colours["well played"] == tuple(palette.GOOD)
    assert "[warn] mod x was quarantined" in panels.console.texts()


def test_console_runs_lua_shows_errors_and_keeps_keys_from_the_game(
    human_game: tuple[GameApp, AiPanels],
) -> None:
    app, panels = human_game
    world = app.world
    assert world is not None
    press(app, K.GRAVE)
    assert panels.console.visible
    assert panels.console.model.input == ""  # the backtick itself is not typed
    start = (world.player.x, world.player.y)
    type_line(app, "wasd dddd", enter=False)
    send(app, "on_key_press", K.D, 0)  # held down while typing
    frames(app, 30)
    assert app.arena.input.held == set()
    assert (world.player.x, world.player.y) == start, "typing moved the player"
    send(app, "on_key_release", K.D, 0)
    for _ in range(9):
        press(app, K.BACKSPACE)
    assert panels.console.model.input == ""
    type_line(app, "return 1+1")
    assert "=> 2" in panels.console.texts()
    type_line(app, "local t = nil; return t.x")
    err = [t for t in panels.console.texts() if t.startswith("error")]
    assert err and "line 1" in err[-1] and "attempt to index a nil value" in err[-1], err
    type_line(app, "print('hi') error('boom')")
    assert "print: hi" in panels.console.texts()
    assert any("boom" in t and "line 1" in t for t in panels.console.texts())
    # history: Up recalls the last line
    press(app, K.UP)
    assert panels.console.model.input == "print('hi') error('boom')"
    press(app, K.DOWN)
    assert panels.console.model.input == ""
    # P (pause) and M (mute) are typed, not obeyed; the game keeps running
    type_line(app, "pm", enter=False)
    assert not app.arena.paused and panels.console.model.input == "pm"
    top = np.asarray(render(app)).astype(int)[40:300, 40:1200]
    assert (top.sum(axis=2) < 60).mean() > 0.5  # the dark console covers the top of the screen
    press(app, K.F10)  # function keys still reach the hotkeys
    assert panels.console.visible and panels.director.visible
    press(app, K.ESCAPE)
    assert not panels.console.visible and not app.arena.paused  # Esc closed the console only


def test_console_ask_appends_the_agents_answer(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    press(app, K.GRAVE)
    type_line(app, "/ask Chat hi")
    texts = panels.console.texts
    assert any(t.startswith("asked Chat") for t in texts())
    wait_for(app, lambda: any(OFFLINE_LINE[:30] in t for t in texts()))
    assert any(t.startswith("Chat: ") for t in texts())
    type_line(app, "/ask Nobody hi")
    assert any("unknown role 'Nobody'" in t for t in texts())
    type_line(app, "/nonsense")
    assert any("unknown command /nonsense" in t for t in texts())
    type_line(app, "/help")
    assert any(t.startswith("/ask <Role> <text>") for t in texts())


def test_console_backend_switch_is_probed_and_reported(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    session = panels.session
    press(app, K.GRAVE)
    type_line(app, "/backend chat openai")  # not configured: refused, Chat stays on stub
    wait_for(app, lambda: any("'openai' is not available" in t for t in panels.console.texts()))
    assert session.runtime.router.backend_for("Chat") == "stub"
    type_line(app, "/backend chat stub")
    wait_for(app, lambda: "Chat now uses stub" in panels.console.texts())


def test_console_answers_arrive_while_paused(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    panels.console.visible = True
    app.arena.set_paused(True)  # frame hooks stop; the UI lane still drains every frame
    worker = threading.Thread(target=panels.console.model.append_later, args=("late answer",))
    worker.start()
    worker.join(5)
    assert "late answer" not in panels.console.texts(), "a worker thread never touches the console itself"
    frames(app, 1)
    assert "late answer" in panels.console.texts()
    ws.render(app)


def test_notices_and_answers_share_the_ui_lane_in_order_while_paused(game: tuple[GameApp, AiPanels]) -> None:
    """One hand-off: a session notice and a console answer from worker threads arrive through the main-loop
    queue's UI lane, on the main thread, in order, while world commands wait for the game to resume."""
    app, panels = game
    session = panels.session
    toasts = spy_toasts(app)
    app.arena.set_paused(True)
    main = threading.current_thread().name
    ran_on: list[str] = []

    def work() -> None:
        session.notify("warn", "from a worker")
        panels.console.model.append_later("answer from a worker")
        session.runtime.mainloop.post_ui(lambda: ran_on.append(threading.current_thread().name), "probe")

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(5)
    spawned = session.runtime.mainloop.post(Spawn(prefab="grunt", x=0.0, y=0.0, agent="test"))
    frames(app, 2)
    assert ran_on == [main]
    texts = panels.console.texts()
    assert texts.index("[warn] from a worker") < texts.index("answer from a worker")
    assert any(t == "from a worker" for t, _ in toasts)
    assert not spawned.done(), "world commands wait while the game is paused"
    app.arena.set_paused(False)
    frames(app, 2)
    assert spawned.done() and len(spawned.result(0)) == 1


def test_f9_programmer_demo_fails_repairs_and_spawns_eight_grunts(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    toasts = spy_toasts(app)
    spawned: list[tuple[ev.EnemySpawned, float, float]] = []  # with the player's position at that tick

    def collect(world: World, events: list[ev.Event]) -> None:
        p = world.player
        new = [e for e in events if isinstance(e, ev.EnemySpawned) and e.source == "mod"]
        spawned.extend((e, p.x, p.y) for e in new)

    app.arena.tick_hooks.append(collect)
    press(app, K.F9)
    assert any("writing Lua for 'spawn a ring of 8 grunts" in t for t, _ in toasts)
    frames(app, 1)
    assert panels.console.visible and app.arena.held_by == "console"  # F9 shows its progress there
    wait_for(app, lambda: panels.programmer.finished >= 1)
    press(app, K.ESCAPE)  # the game held while the console was open; the spawns tick in now
    frames(app, 2)
    texts = panels.console.texts()
    toast_texts = [t for t, _ in toasts]
    failed = [t for t in toast_texts if "attempt 1 failed" in t]
    assert failed and "repairing" in failed[0], toast_texts
    assert any("script ran on attempt 2" in t for t in toast_texts), toast_texts
    assert any("attempt 1 failed" in t and "repairing" in t for t in texts)  # mirrored into the console
    assert any(t.startswith("Programmer: ok after 2 attempt(s)") for t in texts), texts
    assert "=> 8" in " ".join(texts)
    grunts = [(e, px, py) for e, px, py in spawned if e.prefab == "grunt"]
    assert len(grunts) == 8, spawned
    assert all(abs(np.hypot(e.x - px, e.y - py) - 160) < 40 for e, px, py in grunts), "not a ring"


def test_f9_uses_the_task_typed_after_prog(game: tuple[GameApp, AiPanels]) -> None:
    app, panels = game
    toasts = spy_toasts(app)
    press(app, K.GRAVE)
    type_line(app, "/prog make two runners", enter=False)
    press(app, K.F9)
    assert panels.console.model.input == ""
    assert "> /prog make two runners" in panels.console.texts()
    assert any("writing Lua for 'make two runners'" in t for t, _ in toasts)
    wait_for(app, lambda: panels.programmer.finished >= 1)


def test_f7_mods_panel_toggles_reloads_and_shows_quarantine(human_game: tuple[GameApp, AiPanels]) -> None:
    app, panels = human_game
    mods = panels.session.mods
    press(app, K.F7)
    assert panels.mods.visible
    render(app)
    names = [r.name for r in panels.mods.rows]
    assert {"kill_streak", "meteor_shower", "glass_cannon"} <= set(names)
    first = panels.mods.current()
    assert first is not None
    was = first.enabled
    press(app, K.ENTER)
    assert mods.get_status(first.name).enabled is (not was)
    press(app, K.SPACE)
    assert mods.get_status(first.name).enabled is was
    press(app, K.DOWN)
    assert panels.mods.selected == 1
    frames(app, 1)
    send(app, "on_key_press", K.W, 0)  # not a panel key, but the panel holds the game: the ship stays put
    assert K.W not in app.arena.input.held and app.arena.held_by == "mods panel"
    send(app, "on_key_release", K.W, 0)
    # a mod that errors on every tick is quarantined (once the game runs again), and the panel says so
    mods.import_mod(CRASHY)
    press(app, K.F7)
    wait_for(app, lambda: mods.get_status("crashy").state is ModState.QUARANTINED, 10.0)
    press(app, K.F7)
    panels.mods.refresh(force=True)
    panels.mods.selected = [r.name for r in panels.mods.rows].index("crashy")
    panels.mods.refresh(force=True)  # the selected mod's log lines
    render(app)
    shown = panels.mods.text.texts()
    assert "QUARANTINED" in shown
    assert "crashy (user)" in shown and "kill_streak (shipped)" in shown  # F7 marks where a mod comes from
    assert any("crashy is QUARANTINED" in t for t in shown)
    assert any("tick broke" in t for t in shown)
    toasts = spy_toasts(app)
    press(app, K.ENTER)  # on a quarantined mod, Enter starts it again (it stays enabled)
    assert any(t.startswith("mod crashy enabled") for t, _ in toasts), toasts
    assert mods.get_status("crashy").enabled
    assert mods.get_status("crashy").running and mods.get_status("crashy").state is ModState.LOADED
    press(app, K.R)  # reload is reported, whatever the mod does next
    assert any(t.startswith("mod crashy reloaded") for t, _ in toasts), toasts
    press(app, K.ESCAPE)
    assert not panels.mods.visible and not app.arena.paused


def test_exec_lines_render_values_and_errors(session: AiSession) -> None:
    run = session.mods.execute
    ok = [(line.text, line.kind) for line in exec_lines(run("print('x') return 1.0, true, nil"))]
    assert ok == [("print: x", "output"), ("=> 1, true, nil", "value")]
    bad = exec_lines(run("return ("))
    assert bad[-1].kind == "error" and bad[-1].text.startswith("error (syntax, line 1)")


def test_the_screenshot_service_returns_the_rendered_frame(game: tuple[GameApp, AiPanels]) -> None:
    """What MCP's ``screenshot`` tool gets: called from a frame hook (as the command queue does), it must
    read back the drawn arena, not an empty buffer."""
    app, _ = game
    shots: list[bytes] = []
    session = panels_of(app).session
    screenshot = session.screenshot
    assert screenshot is not None
    app.arena.frame_hooks.append(lambda world, dt: shots.append(screenshot(400)))
    frames(app, 2)
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(shots[-1])) as png:
        assert png.format == "PNG" and png.size == (400, 225)
        darkest, brightest = png.convert("L").getextrema()
        assert brightest - darkest > 50, "a real frame, not a blank buffer"


def test_a_long_status_value_wraps_inside_the_panel() -> None:
    """F10's saturated-knob list on a strong player's run ran off the panel's right edge."""
    text = "max pressure, pickup_rate, mix.grunt, mix.runner, mix.tank, elite_chance, tier"
    rows = wrap_value(text, 2, VALUE_CHARS)
    assert len(rows) == 2 and all(len(r) <= VALUE_CHARS for r in rows)
    assert rows[0].startswith("max pressure") and rows[-1].endswith("...")
    assert wrap_value("none", 3) == ["none"]
    assert " ".join(wrap_value(text, 5)) == text
    assert value_chars(340) > value_chars(300) >= 25


def test_f10_says_when_new_enemies_follow_the_players_build() -> None:
    from game.director.act import Acted
    from game.render.ai_panels.director_view import acted_text

    assert "enemy HP x2.40 (your build)" in acted_text(Acted(hp_match=2.4))
    assert "enemy HP" not in acted_text(Acted()), "as designed: nothing to say"
