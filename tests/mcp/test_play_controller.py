"""Agent play in process (fast): the real ``AiSession`` (stub LLM), the headless play loop on a thread as the
game's main thread, and the ``sim_control`` / ``player_input`` tools called as any caller calls them (through
the main-loop queue). Exactness of steps, sequences, Lua conditions, and the refusals with their reasons."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from play_glue import headless_loop

from coreai.tools.base import ToolContext
from game.ai.session import AiSession
from game.errors import PlayRefused
from game.options import LaunchOptions
from game.sim.config import PLAYER_BASE, TICK_HZ

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def played(saves_dir: Any) -> Iterator[AiSession]:
    from coreai.settings import Settings

    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    options = LaunchOptions(headless=True, frozen=True, seed=5)
    session = AiSession(options, settings=settings, configure_logs=False)
    session.play.runs.record_inputs = True  # as with --mcp: runs can be replayed and forked
    with headless_loop(session, options, 5) as running:
        yield running


def use(session: AiSession, tool: str, **args: Any) -> dict[str, Any]:
    t = session.runtime.orchestrator.tools[tool]
    ctx = ToolContext(trace_id="t", role="test", main=session.runtime.mainloop)
    result: dict[str, Any] = t.invoke(t.args_model.model_validate(args), ctx)
    return result


def refusal(session: AiSession, tool: str, **args: Any) -> str:
    with pytest.raises(PlayRefused) as caught:
        use(session, tool, **args)
    return caught.value.reason


def test_steps_are_exact_and_a_frozen_game_stays_put(played: AiSession) -> None:
    first = use(played, "sim_control", action="state")
    assert first["tick"] == 0 and first["frozen"]
    assert use(played, "sim_control", action="state")["tick"] == 0
    a = use(played, "sim_control", action="step", ticks=7)
    assert (a["tick"], a["stopped"], a["stepped"]) == (7, "ticks", 7)
    b = use(played, "sim_control", action="step", seconds=0.5)
    assert b["tick"] == 37 and b["time"] == pytest.approx(37 / TICK_HZ, abs=1e-3)
    assert b["events"]["list"] == []  # the wave start was reported once, by the first step
    assert a["events"]["list"][0]["type"] == "wave_start"


def test_a_sequence_presses_and_releases_on_its_ticks(played: AiSession) -> None:
    start = use(played, "sim_control", action="state")
    x0, y0 = start["pos"]
    steps = [
        {"at": 0, "op": "press", "key": "move_right"},
        {"at": 30, "op": "release", "key": "move_right"},
        {"at": 30, "op": "press", "key": "move_up"},
        {"at": 45, "op": "release", "key": "move_up"},
    ]
    done = use(played, "player_input", action="sequence", steps=steps, ticks=60)
    per_tick = PLAYER_BASE.speed / TICK_HZ
    assert done["stepped"] == 60 and "held" not in done
    assert done["pos"][0] - x0 == pytest.approx(30 * per_tick, abs=0.11)
    assert done["pos"][1] - y0 == pytest.approx(15 * per_tick, abs=0.11)


def test_press_holds_across_steps_until_release(played: AiSession) -> None:
    pressed = use(played, "player_input", action="press", key="move_left")
    assert pressed["applied_at_tick"] == pressed["tick"] + 1 and pressed["held"] == ["move_left"]
    x0 = pressed["pos"][0]
    use(played, "sim_control", action="step", ticks=10)
    moved = use(played, "sim_control", action="step", ticks=10)
    assert moved["pos"][0] - x0 == pytest.approx(-20 * PLAYER_BASE.speed / TICK_HZ, abs=0.11)
    released = use(played, "player_input", action="release", key="move_left")
    assert "held" not in released
    still = use(played, "sim_control", action="step", ticks=10)
    assert still["pos"] == released["pos"]


def test_step_until_a_lua_condition_and_its_errors(played: AiSession) -> None:
    hit = use(played, "sim_control", action="step_until", until_lua="game.state().tick >= 42")
    assert (hit["tick"], hit["stopped"]) == (42, "condition")
    capped = use(played, "sim_control", action="step_until", until_lua="false", max_ticks=5)
    assert (capped["tick"], capped["stopped"]) == (47, "tick_limit")
    assert "until_lua does not run" in refusal(played, "sim_control", action="step_until", until_lua="1 +")


def test_refusals_name_the_reason(played: AiSession) -> None:
    assert "between" in refusal(played, "sim_control", action="set_speed", speed=0.1)
    assert "one-shot" in refusal(played, "player_input", action="release", key="next_wave")
    assert "not between waves" in refusal(played, "player_input", action="tap", key="next_wave")
    assert "no upgrade pick" in refusal(played, "player_input", action="tap", key="pick_3")
    # a dead player takes no input and no steps
    played.runtime.mainloop.call(_kill_player(played))
    assert "dead" in refusal(played, "player_input", action="press", key="shoot")
    assert "dead" in refusal(played, "sim_control", action="step", ticks=1)


def _kill_player(session: AiSession) -> Any:
    from coreai.commands import CallOnMain

    def kill() -> None:
        world = session.handle.require()
        world.player.iframes = 0.0
        world.hurt_player(10_000.0, "test")
        world.step()

    return CallOnMain(fn=kill, label="test:kill")


def test_set_speed_runs_a_thawed_game_headless(played: AiSession) -> None:
    use(played, "sim_control", action="set_speed", speed=0)  # as fast as possible
    thawed = use(played, "sim_control", action="thaw")
    assert not thawed["frozen"]
    import time

    time.sleep(0.3)
    frozen = use(played, "sim_control", action="freeze")
    assert frozen["frozen"] and frozen["tick"] > thawed["tick"] + 30
    assert use(played, "sim_control", action="state")["tick"] == frozen["tick"]


def test_replay_and_fork_a_recorded_run(played: AiSession) -> None:
    use(played, "player_input", action="hold", key="move_right", ticks=40)
    use(played, "player_input", action="press", key="shoot")
    use(played, "player_input", action="aim", x=1500, y=1500)
    use(played, "player_input", action="hold", key="move_up", ticks=30)
    recorded = use(played, "sim_control", action="step", ticks=400)
    assert played.play.runs.current is not None
    run = played.play.runs.current.stem

    replayed = use(played, "sim_control", action="replay", run=run)
    assert replayed["identical"], replayed.get("diverged")
    assert replayed["forked_from"] == run and replayed["tick"] == recorded["tick"] == 470
    assert replayed["pos"] == recorded["pos"] and replayed["kills"] == recorded["kills"]
    assert played.play.runs.current.stem != run  # a new run, recorded on its own

    forked = use(played, "sim_control", action="fork", run=run, tick=100, director="static")
    assert forked["identical"] and forked["tick"] == 100 and forked["director"] == "static"
    assert played.director.mode == "static" and forked["frozen"]
    on = use(played, "sim_control", action="step", ticks=10)
    assert on["tick"] == 110

    assert "unknown run" in refusal(played, "sim_control", action="fork", run="nope", tick=5)
    assert "ticks 1-" in refusal(played, "sim_control", action="fork", run=run, tick=30_000)
