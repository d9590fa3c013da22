"""Main-loop queue: validation, whitelist, clamping, caps, rate limits, cancellation, timeouts, close."""

from __future__ import annotations

import threading

import pytest
from coreai_fakes import FakeWorld, LoopThread
from pydantic import ValidationError

from coreai.commands import CallOnMain, Destroy, GetState, ListEntities, Move, Spawn
from coreai.errors import (
    CommandRateLimited,
    CommandRejected,
    MainLoopTimeout,
    TaskCancelled,
    UnknownPrefabError,
)
from coreai.mainloop import MainLoopQueue
from coreai.settings import MainLoopSettings
from coreai.world import CoreAiBindings


def test_commands_run_only_when_drained_and_on_the_draining_thread(mainloop: MainLoopQueue, world: FakeWorld):
    fut = mainloop.post(Spawn(prefab="grunt", x=10, y=20))
    assert not fut.done() and world.calls == []
    t = threading.Thread(target=mainloop.drain)
    t.start()
    t.join(5)
    assert fut.result(0) == [1]
    assert world.call_threads == {t.ident}
    assert world.entities[1]["prefab"] == "grunt"


def test_unknown_prefab_is_rejected_naming_the_allowed_ones(mainloop: MainLoopQueue, world: FakeWorld):
    fut = mainloop.post(Spawn(prefab="dragon", x=1, y=1, trace_id="t-1"))
    assert mainloop.drain() == 1
    with pytest.raises(UnknownPrefabError) as info:
        fut.result(0)
    assert info.value.allowed == ["archer", "brute", "grunt"]
    assert "archer, brute, grunt" in str(info.value) and info.value.trace_id == "t-1"
    assert world.entities == {}
    # the queue keeps working after a rejection
    ok = mainloop.post(Spawn(prefab="brute", x=1, y=1))
    mainloop.drain()
    assert ok.result(0) == [1]


def test_positions_are_clamped_to_the_arena(mainloop: MainLoopQueue, world: FakeWorld):
    spawned = mainloop.post(Spawn(prefab="grunt", x=-50, y=9999))
    mainloop.drain()
    (eid,) = spawned.result(0)
    assert (world.entities[eid]["x"], world.entities[eid]["y"]) == (0.0, 600.0)
    moved = mainloop.post(Move(entity_id=eid, x=1e6, y=-3))
    mainloop.drain()
    assert moved.result(0) is True
    assert (world.entities[eid]["x"], world.entities[eid]["y"]) == (800.0, 0.0)


def test_spawn_count_is_capped_per_command(bindings: CoreAiBindings, world: FakeWorld):
    q = MainLoopQueue(bindings, MainLoopSettings(max_spawn_per_command=3, rate_per_s=0))
    fut = q.post(Spawn(prefab="archer", x=5, y=5, count=50))
    q.drain()
    assert len(fut.result(0)) == 3 and len(world.entities) == 3


def test_invalid_commands_fail_validation():
    with pytest.raises(ValidationError):
        Spawn(prefab="grunt", x=float("nan"), y=0)
    with pytest.raises(ValidationError):
        Spawn(prefab="grunt", x=0, y=0, count=0)
    with pytest.raises(ValidationError):
        Move(entity_id=-1, x=0, y=0)
    with pytest.raises(ValidationError):
        ListEntities(limit=100_000)
    with pytest.raises(ValidationError):
        Destroy(entity_id=1, surprise=True)  # type: ignore[call-arg]


def test_rate_limit_is_per_agent(bindings: CoreAiBindings):
    q = MainLoopQueue(bindings, MainLoopSettings(rate_per_s=0.001, rate_burst=3))
    a = [q.post(Move(entity_id=1, x=0, y=0, agent="Creator")) for _ in range(5)]
    b = q.post(Move(entity_id=1, x=0, y=0, agent="Analyzer"))
    game = q.post(Move(entity_id=1, x=0, y=0))  # no agent: the game itself is never limited
    reads = q.post(ListEntities(agent="Creator"))  # reads cost nothing
    for fut in a[3:]:
        with pytest.raises(CommandRateLimited) as info:
            fut.result(0)
        assert info.value.agent == "Creator"
    q.drain()
    assert [f.result(0) for f in a[:3]] == [False, False, False]  # applied (entity 1 does not exist)
    assert b.result(0) is False and game.result(0) is False and reads.result(0) == []


def test_cancelled_pending_command_is_never_executed(mainloop: MainLoopQueue, world: FakeWorld):
    first = mainloop.post(Spawn(prefab="grunt", x=1, y=1))
    second = mainloop.post(Spawn(prefab="grunt", x=2, y=2))
    assert second.cancel() and second.cancelled()
    assert mainloop.drain() == 1
    assert first.result(0) == [1]
    with pytest.raises(TaskCancelled):
        second.result(0)
    assert [c[0] for c in world.calls] == ["spawn"]
    assert mainloop.stats().skipped_cancelled == 1


def test_budget_stops_a_drain_and_the_rest_waits_for_the_next_frame(mainloop: MainLoopQueue):
    def slow() -> int:
        import time

        time.sleep(0.004)
        return 1

    futs = [mainloop.post(CallOnMain(fn=slow)) for _ in range(5)]
    assert mainloop.drain(budget_s=0.002) == 1  # the first command alone spends the budget
    assert mainloop.pending() == 4
    assert mainloop.drain(budget_s=0.0) == 1  # even a spent budget makes progress: one command
    assert mainloop.drain(budget_s=1.0) == 3
    last = mainloop.last_slice
    assert last is not None and last.count == 3 and last.elapsed_s >= 0.012
    assert all(f.result(0) == 1 for f in futs)


def test_wait_times_out_naming_not_draining(mainloop: MainLoopQueue, world: FakeWorld):
    fut = mainloop.post(GetState(trace_id="t-9"))
    with pytest.raises(MainLoopTimeout) as info:
        mainloop.wait(fut, timeout=0.05)
    assert info.value.cause == "not draining" and "not draining" in str(info.value)
    assert info.value.trace_id == "t-9"
    mainloop.drain()  # the timed-out command was cancelled: it never runs later
    assert world.calls == []


def test_wait_times_out_naming_paused(mainloop: MainLoopQueue):
    mainloop.drain()
    mainloop.set_paused(True)
    with pytest.raises(MainLoopTimeout) as info:
        mainloop.call(GetState(), timeout=0.05)
    assert info.value.cause == "paused"


def test_answers_come_back_through_a_running_loop(mainloop: MainLoopQueue, loop_thread: LoopThread):
    state = mainloop.call(GetState(), timeout=2)
    assert state["player"]["hp"] == 80
    assert mainloop.call(CallOnMain(fn=lambda: threading.get_ident()), timeout=2) == loop_thread.thread.ident


def test_a_game_exception_becomes_a_rejection_and_the_loop_continues(mainloop: MainLoopQueue):
    def boom() -> None:
        raise ZeroDivisionError("kaput")

    bad = mainloop.post(CallOnMain(fn=boom, label="screenshot"))
    good = mainloop.post(CallOnMain(fn=lambda: 42))
    assert mainloop.drain(budget_s=1.0) == 2
    with pytest.raises(CommandRejected, match="ZeroDivisionError: kaput"):
        bad.result(0)
    assert good.result(0) == 42


def test_no_world_registered_is_a_clear_rejection():
    q = MainLoopQueue(CoreAiBindings())
    fut = q.post(Spawn(prefab="grunt", x=0, y=0))
    q.drain()
    with pytest.raises(CommandRejected, match="no world is registered"):
        fut.result(0)


def test_close_resolves_everything_queued_and_refuses_new_posts(mainloop: MainLoopQueue, world: FakeWorld):
    futs = [mainloop.post(Spawn(prefab="grunt", x=0, y=0)) for _ in range(3)]
    mainloop.close()
    for fut in futs:
        with pytest.raises(CommandRejected, match="closed"):
            fut.result(0)
    with pytest.raises(CommandRejected, match="closed"):
        mainloop.post(GetState()).result(0)
    assert world.calls == []


def test_queue_full_is_rejected(bindings: CoreAiBindings):
    q = MainLoopQueue(bindings, MainLoopSettings(max_pending=2))
    futs = [q.post(GetState()) for _ in range(3)]
    with pytest.raises(CommandRejected, match="queue full"):
        futs[2].result(0)
    q.drain()
    assert futs[0].result(0)["tick"] == 0


def test_applied_and_rejected_commands_are_logged_with_trace_id(mainloop: MainLoopQueue, log_records):
    mainloop.post(Spawn(prefab="grunt", x=0, y=0, trace_id="tr-ok"))
    mainloop.post(Spawn(prefab="wyrm", x=0, y=0, trace_id="tr-bad"))
    mainloop.drain(budget_s=1.0)
    world_logs = [r for r in log_records if r["extra"].get("feature") == "world"]
    applied = [r for r in world_logs if r["extra"].get("trace_id") == "tr-ok"]
    rejected = [r for r in world_logs if r["extra"].get("trace_id") == "tr-bad"]
    assert applied and applied[0]["message"].startswith("applied spawn")
    assert rejected and rejected[0]["level"].name == "WARNING" and "wyrm" in rejected[0]["message"]
