"""The AI session joined to the real headless game: agents, Lua, the director's LLM path and MCP services,
all through the real command queue, with scripted stub backends (no model calls)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from coreai.errors import CommandRejected
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.lua import PROGRAMMER_DEMO_TASK
from coreai.settings import Settings
from game.ai.backends import BackendSetup, offline_stub
from game.ai.mcp_services import director_state, set_director_plan
from game.ai.session import AiSession
from game.bot import Bot
from game.options import LaunchOptions
from game.sim.config import DT
from game.sim.world import World

ALL_STUB = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})


def make_session(stub: StubLlmClient | None = None, **opts: object) -> tuple[AiSession, World]:
    client = stub or offline_stub()
    setup = BackendSetup(registry={"stub": client}, routes={})
    session = AiSession(LaunchOptions(**opts), settings=ALL_STUB, setup=setup, configure_logs=False)
    world = session.world_factory(7)
    session.on_run_start(world)
    return session, world


def play_until(session: AiSession, world: World, done: Callable[[], bool], max_s: float = 20.0) -> None:
    """Step the game on this thread (the 'main thread') until ``done()`` or a wall-clock limit."""
    bot = Bot("strong", seed=1)
    deadline = time.monotonic() + max_s
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        if world.phase == "upgrade":
            world.choose_upgrade(world.choices[0])
        events = world.step(bot.act(world))
        session.on_tick(world, events)
        session.on_frame(world, DT)


@pytest.fixture
def closing() -> list[AiSession]:
    sessions: list[AiSession] = []
    yield sessions
    for s in sessions:
        s.close()


def test_an_agents_world_command_spawn_appears_in_the_simulation(saves_dir: Path, closing: list) -> None:
    stub = StubLlmClient(
        [
            tool_reply(
                ("world_command", {"action": "spawn", "prefab": "tank", "x": 100, "y": 100, "count": 2})
            ),
            "Two tanks are on their way.",
        ]
    )
    session, world = make_session(stub)
    closing.append(session)
    tanks_before = world.game_state()["enemies_by_prefab"].get("tank", 0)
    handle = session.ask("Creator", "send two tanks")
    play_until(session, world, handle.done)
    assert handle.result(0).content == "Two tanks are on their way."
    spawned = [e for e in world.list_enemies(500) if e["prefab"] == "tank"]
    assert len(spawned) - tanks_before >= 2


def test_an_unknown_prefab_is_refused_and_the_game_keeps_running(saves_dir: Path, closing: list) -> None:
    stub = StubLlmClient(
        [
            tool_reply(("world_command", {"action": "spawn", "prefab": "dragon", "x": 1, "y": 1})),
            "No dragons then.",
        ]
    )
    session, world = make_session(stub)
    closing.append(session)
    handle = session.ask("Creator", "spawn a dragon")
    play_until(session, world, handle.done)
    result = handle.result(0)
    assert result.tool_calls and not result.tool_calls[0].ok
    assert (
        "allowed: boss, charger, exploder, grunt, runner, shielder, spitter, splitling, splitter, tank"
        in (result.tool_calls[0].error)
    )
    tick = world.tick
    play_until(session, world, lambda: world.tick >= tick + 30)


def test_programmer_demo_repairs_its_mistake_and_spawns_a_ring(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    noticed: list[tuple[str, str]] = []
    session.on_notice = lambda kind, text: noticed.append((kind, text))  # what the panels make toasts
    seen: list[str] = []
    grunts_before = sum(1 for e in world.list_enemies(500) if e["prefab"] == "grunt")
    handle = session.programmer_task(PROGRAMMER_DEMO_TASK, on_done=seen.append)
    play_until(session, world, lambda: bool(seen))
    assert seen[0].startswith("Programmer: ok after 2 attempt(s)"), seen
    session.runtime.mainloop.drain_ui()
    notices = [text for _, text in noticed]
    assert any("attempt 1 failed" in n and "repairing" in n for n in notices), notices
    assert any("script ran on attempt 2" in n for n in notices), notices
    grunts = sum(1 for e in world.list_enemies(500) if e["prefab"] == "grunt")
    assert grunts >= grunts_before + 8 - world.stats.kills  # the ring landed (some may already be dead)
    assert handle.result(0).rounds == 2


def test_the_director_can_run_on_an_llm_backend(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    assert "stub" in session.director.modes()
    session.director.set_mode("stub", world)
    play_until(session, world, lambda: session.director.accepted >= 1)
    assert session.director.backend == "stub"
    assert session.director.last_plan is not None and session.director.last_plan.pressure == "hold"


def test_a_players_creator_backend_survives_director_requests(saves_dir: Path, closing: list) -> None:
    """The director's stub mode sends its requests to 'stub' per request; the player's ``/backend Creator
    other`` route stays, and the other backend never sees a director request."""
    stub, other = offline_stub(), StubLlmClient(lambda r: "other here", name="other")
    setup = BackendSetup(registry={"stub": stub, "other": other}, routes={})
    session = AiSession(LaunchOptions(), settings=ALL_STUB, setup=setup, configure_logs=False)
    closing.append(session)
    world = session.world_factory(7)
    session.on_run_start(world)
    assert session.switch_backend("Creator", "other") == "Creator now uses other"
    session.director.set_mode("stub", world)
    play_until(session, world, lambda: session.director.accepted >= 2)
    assert session.runtime.router.backend_for("Creator") == "other"
    assert not any(any(t.name == "set_director_plan" for t in r.tools) for r in other.requests)
    assert any(r.backend == "stub" for r in stub.requests)
    handle = session.ask("Creator", "hello")
    play_until(session, world, handle.done)
    assert handle.result(0).content == "other here" and handle.result(0).backend == "other"


def test_external_plans_take_the_same_validation(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    play_until(session, world, lambda: world.tick > 10)
    ok = set_director_plan(
        session.director, session.handle, {"pressure": "hold", "mix": {"runner": 4.0}, "reason": "mcp test"}
    )
    assert ok["ok"] is True
    knobs = session.director.knobs
    with pytest.raises(CommandRejected, match="dragon"):
        set_director_plan(
            session.director,
            session.handle,
            {"pressure": "raise", "mix": {"dragon": 4.0}, "reason": "hallucinated"},
        )
    assert session.director.knobs == knobs, "the previous plan keeps running"
    assert session.director.rejected >= 1
    state = director_state(session.director, session.handle)
    assert state["last_reason"] == "mcp test"


def test_mods_get_game_events_and_act_through_the_whitelist(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    names = {s.name for s in session.mods.status() if s.running}
    assert {"kill_streak", "meteor_shower"} <= names and "glass_cannon" not in names
    play_until(session, world, lambda: world.stats.kills >= 6, max_s=60)
    logs = [e.message for e in session.mods.logs("kill_streak", limit=50)]
    assert any("Kill streak 5" in m for m in logs), logs
    result = session.mods.execute("return coreai_world_spawn('dragon', 10, 10)")
    assert not result.ok and "allowed:" in (result.error or "")


def test_f6_cycles_modes_and_probes_llm_backends_first(saves_dir: Path, closing: list) -> None:
    stub = offline_stub()
    # a "local" backend whose model file is missing: the probe must fail and F6 must skip it
    broken = Settings.model_validate(
        {"llm": {"default_backend": "stub", "backends": {}, "local": {"model_path": "/nonexistent.gguf"}}}
    )
    setup = BackendSetup(registry={"stub": stub, "local": stub}, routes={})
    session = AiSession(LaunchOptions(), settings=broken, setup=setup, configure_logs=False)
    closing.append(session)
    world = session.world_factory(2)
    session.on_run_start(world)
    noticed: list[str] = []
    session.on_notice = lambda kind, text: noticed.append(text)
    assert session.director.modes() == ("static", "rules", "stub", "local")
    assert session.cycle_director() == "stub"
    assert session.director.mode == "stub"
    assert session.cycle_director() == "stub", "local is probed first; the mode does not change yet"
    play_until(session, world, lambda: session.director.mode != "stub")
    assert session.director.mode == "static", "the failed probe skipped local"
    session.runtime.mainloop.drain_ui()
    assert "local failed its health probe" in " ".join(noticed)


def test_a_mod_offers_the_director_an_event_that_plans_can_fire(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    assert "meteor_storm" in session.director.events.names(), "meteor_shower registered its event on load"
    schema = session.runtime.orchestrator.tools["set_director_plan"].schema()
    assert "meteor_storm" in schema["properties"]["event"]["enum"], "the LLM's plan schema lists it"
    play_until(session, world, lambda: world.tick > 30)
    runners = world.game_state()["enemies_by_prefab"].get("runner", 0)
    plan = {"pressure": "hold", "event": "meteor_storm", "reason": "test the mod event"}
    assert set_director_plan(session.director, session.handle, plan)["ok"] is True
    logs = lambda: [e.message for e in session.mods.logs("meteor_shower", limit=50)]  # noqa: E731
    play_until(session, world, lambda: any("meteors" in m for m in logs()), max_s=30)
    assert any("director calls down a meteor storm" in m for m in logs())
    assert world.game_state()["enemies_by_prefab"].get("runner", 0) > runners or world.stats.kills > 0
    with pytest.raises(CommandRejected, match="built-in"):
        session.register_mod_event("swarm", "mine now", 10, "mod:evil")
    with pytest.raises(CommandRejected, match="belongs to"):
        session.register_mod_event("meteor_storm", "mine now", 10, "mod:evil")
    # a new run's director still knows the mod's event
    session.world_factory(8)
    assert "meteor_storm" in session.director.events.names()


def test_chat_offers_no_tools_so_local_replies_stream(saves_dir: Path, closing: list) -> None:
    """A tool menu makes the local backend answer in a buffered JSON choice; Chat must stream its text."""
    session, _ = make_session()
    closing.append(session)
    roles = session.runtime.orchestrator
    assert roles.role_config("Chat").tools == ()
    assert "execute_lua" in roles.role_config("Programmer").tools
