"""End to end through CoreAiRuntime: a stub agent's world_command lands in the (fake) game via the
main-loop queue; an unknown prefab is refused back to the model and the game loop keeps running."""

from __future__ import annotations

import json
from pathlib import Path

from coreai_fakes import FakeWorld, LoopThread

from coreai.events import TaskEvent, ToolCallEvent
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import LlmRequest
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings

WAIT = 10.0
ALL_STUB = {"default_backend": "stub", "backends": {}}  # every role on the scripted stub


def make_runtime(script) -> tuple[CoreAiRuntime, FakeWorld, StubLlmClient]:
    world = FakeWorld(prefabs=("grunt", "runner", "tank", "spitter", "boss"), bounds=(0, 0, 1600, 900))
    stub = StubLlmClient(script)
    runtime = CoreAiRuntime(Settings.model_validate({"llm": ALL_STUB}), backends={"stub": stub})
    runtime.bindings.register_world(world)
    runtime.bindings.register_state(world)
    return runtime, world, stub


def test_a_stub_agent_spawn_appears_in_the_world(saves_dir: Path):
    runtime, world, stub = make_runtime(
        [
            tool_reply(
                ("world_command", {"action": "spawn", "prefab": "runner", "x": 1500, "y": 5000, "count": 3})
            ),
            "Sent three runners from the east.",
        ]
    )
    loop = LoopThread(runtime.mainloop, hz=60).start()
    try:
        result = runtime.submit(AiTaskRequest(role="Creator", hint="player is cruising")).result(WAIT)
    finally:
        loop.stop()
        runtime.close()
    assert result.content == "Sent three runners from the east." and result.stop_reason == "answered"
    runners = [e for e in world.entities.values() if e["prefab"] == "runner"]
    assert len(runners) == 3 and all(e["y"] == 900 for e in runners)  # clamped into the arena
    assert world.call_threads == {loop.thread.ident}  # applied on the loop's thread, not the agent's
    spawned = result.tool_calls[0].result["spawned"]
    assert sorted(spawned) == sorted(e["id"] for e in runners)
    # the Creator's prompt carried a live world state read through the queue
    world_sections = [m.content for m in stub.requests[0].messages if m.content.startswith("## World State")]
    assert world_sections and json.loads(world_sections[0].split("\n", 1)[1])["player"]["hp"] == 80


def test_unknown_prefab_is_refused_to_the_model_and_the_game_keeps_running(saves_dir: Path):
    runtime, world, stub = make_runtime(
        [
            tool_reply(("world_command", {"action": "spawn", "prefab": "dragon", "x": 10, "y": 10})),
            tool_reply(("world_command", {"action": "spawn", "prefab": "tank", "x": 10, "y": 10})),
            "No dragons here; sent a tank instead.",
        ]
    )
    loop = LoopThread(runtime.mainloop, hz=60).start()
    try:
        result = runtime.submit(AiTaskRequest(role="Creator", hint="surprise them")).result(WAIT)
        ticks_before = loop.drained
        state = runtime.mainloop.call(runtime_state_command(), timeout=WAIT)  # the loop still answers
    finally:
        loop.stop()
        runtime.close()
    refusal = json.loads(next(m.content for m in stub.requests[1].messages if m.role == "tool"))
    assert refusal["ok"] is False and "unknown prefab 'dragon'" in refusal["error"]
    assert "boss, grunt, runner, spitter, tank" in refusal["error"]
    assert [e["prefab"] for e in world.entities.values()] == ["tank"]
    assert result.content.startswith("No dragons here") and state["enemies"] == 1
    assert loop.drained >= ticks_before
    activity = runtime.activity()
    assert activity.last_tool == "world_command" and activity.last_tool_status == "completed"
    assert activity.backend == "stub" and "last tool: world_command (completed)" in activity.line()
    statuses = [e.status for e in runtime.events.history(ToolCallEvent) if isinstance(e, ToolCallEvent)]
    assert statuses == ["started", "failed", "started", "completed"]


def test_without_a_draining_loop_the_agent_gets_a_named_timeout_not_a_hang(saves_dir: Path):
    settings = Settings.model_validate(
        {"mainloop": {"wait_timeout_s": 0.2}, "prompts": {"world_state_timeout_s": 0.1}, "llm": ALL_STUB}
    )
    stub = StubLlmClient([tool_reply(("world_command", {"action": "list"})), "The game did not answer."])
    runtime = CoreAiRuntime(settings, backends={"stub": stub})
    runtime.bindings.register_world(FakeWorld())
    runtime.bindings.register_state(FakeWorld())
    runtime.mainloop.set_paused(True)
    try:
        result = runtime.submit(AiTaskRequest(role="Creator", hint="anything")).result(WAIT)
    finally:
        runtime.close()
    world_section = next(
        m.content for m in stub.requests[0].messages if m.content.startswith("## World State")
    )
    assert "unavailable" in world_section and "paused" in world_section
    assert "game loop paused" in result.tool_calls[0].error
    assert result.content == "The game did not answer."


def test_routing_switch_and_task_events_through_the_runtime(saves_dir: Path):
    other = StubLlmClient(lambda req: f"other backend answering {req.role}", name="rules")
    runtime, _world, stub = make_runtime(["stub answer"])
    runtime.router.register("rules", other)
    runtime.router.set_backend("Chat", "rules")
    try:
        answer = runtime.submit(AiTaskRequest(role="Chat", hint="hello")).result(WAIT)
    finally:
        runtime.close()
    assert answer.content == "other backend answering Chat" and answer.backend == "rules"
    assert stub.requests == [] and isinstance(other.requests[0], LlmRequest)
    statuses = [e.status for e in runtime.events.history(TaskEvent) if isinstance(e, TaskEvent)]
    assert statuses == ["queued", "started", "completed"]


def runtime_state_command():
    from coreai.commands import GetState

    return GetState(trace_id="e2e")


def test_concurrent_tasks_of_one_role_with_different_backends_do_not_race(saves_dir: Path):
    """Two Creator tasks running at once, each naming its own backend: each one's model calls reach only
    its backend, and the role's shared route is never rewritten."""
    a = StubLlmClient(lambda r: "from a", name="a", delay_s=0.2)
    b = StubLlmClient(lambda r: "from b", name="b", delay_s=0.2)
    runtime = CoreAiRuntime(
        Settings.model_validate({"llm": ALL_STUB, "queue": {"max_concurrent": 2}}),
        backends={"a": a, "b": b},
    )
    try:
        handles = [
            runtime.submit(AiTaskRequest(role="Creator", hint=f"task {i}", backend="ab"[i % 2]))
            for i in range(6)
        ]
        results = [h.result(WAIT) for h in handles]
    finally:
        runtime.close()
    assert [r.content for r in results] == ["from a", "from b"] * 3
    assert [r.backend for r in results] == ["a", "b"] * 3
    assert all(req.backend == "a" for req in a.requests) and len(a.requests) == 3
    assert all(req.backend == "b" for req in b.requests) and len(b.requests) == 3
    assert runtime.router.backend_for("Creator") == "stub"


def test_a_task_may_set_how_long_its_model_calls_take(saves_dir: Path):
    """``AiTaskRequest.timeout_s`` (the director's first decision pays a cold prompt) reaches the model call;
    without it the ``[llm] timeout_s`` setting does."""
    runtime, _, stub = make_runtime(["one", "two"])
    try:
        runtime.submit(AiTaskRequest(role="Chat", hint="hi", timeout_s=60.0)).result(WAIT)
        runtime.submit(AiTaskRequest(role="Chat", hint="hi")).result(WAIT)
    finally:
        runtime.close()
    assert [r.timeout_s for r in stub.requests] == [60.0, runtime.orchestrator.llm_timeout_s]
