"""QueuedOrchestrator on real worker threads: priority, FIFO ties, the cap, latest-wins, stop_agent,
caller cancellation and statistics."""

from __future__ import annotations

import threading
import time
from collections import defaultdict

import pytest

from coreai.errors import LlmError, LlmErrorCode, TaskCancelled
from coreai.events import EventBus, TaskEvent
from coreai.llm.types import Usage
from coreai.requests import AgentResult, AiTaskRequest
from coreai.taskqueue import QueuedOrchestrator

WAIT = 5.0


class GateRunner:
    """Each task (named by its hint) blocks until its gate opens; it honours its cancel event."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: defaultdict[str, threading.Event] = defaultdict(threading.Event)
        self.cancelled_running: list[str] = []
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self.active = 0
        self.peak = 0

    def run(self, request: AiTaskRequest, cancel: threading.Event) -> AgentResult:
        with self._cond:
            self.started.append(request.hint)
            self.active += 1
            self.peak = max(self.peak, self.active)
            self._cond.notify_all()
            gate = self.gates[request.hint]
        try:
            while not gate.wait(0.005):
                if cancel.is_set():
                    with self._lock:
                        self.cancelled_running.append(request.hint)
                    raise TaskCancelled("stopped", trace_id=request.trace_id)
            if request.hint.startswith("fail"):
                raise LlmError(LlmErrorCode.AUTH, "bad key", backend="stub")
            return AgentResult(
                request.trace_id or "", request.role, request.hint, "answered", (), "stub", 1, Usage(), 0
            )
        finally:
            with self._lock:
                self.active -= 1

    def wait_started(self, n: int) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.started) >= n, WAIT), f"started: {self.started}"

    def open(self, *names: str) -> None:
        for name in names:
            self.gates[name].set()


def req(hint: str, priority: int = 0, scope: str | None = None, role: str = "Creator") -> AiTaskRequest:
    return AiTaskRequest(role=role, hint=hint, priority=priority, cancellation_scope=scope)


@pytest.fixture
def runner():
    return GateRunner()


def test_higher_priority_first_and_fifo_among_equals(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=1)
    blocker = q.submit(req("blocker"))
    runner.wait_started(1)
    names = [("a", 0), ("b", 5), ("c", 0), ("d", 5), ("e", 10), ("f", -3)]
    handles = [q.submit(req(n, p)) for n, p in names]
    runner.open("blocker", *(n for n, _ in names))
    for h in [blocker, *handles]:
        h.result(WAIT)
    assert runner.started == ["blocker", "e", "b", "d", "a", "c", "f"]
    q.shutdown()


def test_concurrency_cap_is_respected(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=2)
    handles = [q.submit(req(f"t{i}")) for i in range(6)]
    runner.wait_started(2)
    time.sleep(0.1)  # give a third task every chance to start if the cap were broken
    assert len(runner.started) == 2
    stats = q.statistics()
    assert (stats.running, stats.queued) == (2, 4)
    runner.open(*(f"t{i}" for i in range(6)))
    for h in handles:
        h.result(WAIT)
    assert runner.peak == 2
    assert q.statistics().done == 6
    q.shutdown()


def test_latest_wins_cancels_older_pending_and_running_of_the_same_scope(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=2)
    old_running = q.submit(req("plan-1", scope="wave_plan"))
    other = q.submit(req("other", scope="merchant"))
    runner.wait_started(2)
    old_pending = q.submit(req("plan-2", scope="wave_plan"))  # waits: both slots busy
    newest = q.submit(req("plan-3", scope="wave_plan"))  # cancels plan-1 (running) and plan-2 (pending)
    with pytest.raises(TaskCancelled):
        old_running.result(WAIT)
    with pytest.raises(TaskCancelled):
        old_pending.result(WAIT)
    runner.open("plan-3", "other")
    assert newest.result(WAIT).content == "plan-3"
    assert other.result(WAIT).content == "other"
    assert "plan-2" not in runner.started  # a cancelled pending task never starts
    assert runner.cancelled_running == ["plan-1"]
    stats = q.statistics()
    assert (stats.done, stats.cancelled, stats.failed) == (2, 2, 0)
    q.shutdown()


def test_stop_agent_cancels_only_that_role(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=1)
    running = q.submit(req("c1", role="Creator"))
    runner.wait_started(1)
    pending_creator = q.submit(req("c2", role="Creator"))
    pending_chat = q.submit(req("chat", role="Chat"))
    assert q.stop_agent("Creator") == 2
    with pytest.raises(TaskCancelled):
        running.result(WAIT)
    with pytest.raises(TaskCancelled):
        pending_creator.result(WAIT)
    runner.open("chat")
    assert pending_chat.result(WAIT).role == "Chat"
    assert "c2" not in runner.started
    q.shutdown()


def test_cancel_tasks_by_scope(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=1)
    first = q.submit(req("x1", scope="npc:merchant"))
    runner.wait_started(1)
    keep = q.submit(req("y1", scope="other"))
    assert q.cancel_tasks("npc:merchant") == 1
    with pytest.raises(TaskCancelled):
        first.result(WAIT)
    runner.open("y1")
    assert keep.result(WAIT).content == "y1"
    q.shutdown()


def test_caller_cancellation_of_a_pending_task_means_it_never_starts(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=1)
    blocker = q.submit(req("blocker"))
    runner.wait_started(1)
    victim = q.submit(req("victim", priority=100))
    victim2 = q.submit(req("victim2"))
    after = q.submit(req("after"))
    assert victim.cancel()
    assert victim2.future.cancel()  # cancelling the raw future works the same way
    assert q.statistics().queued == 1
    runner.open("blocker", "victim", "victim2", "after")
    blocker.result(WAIT)
    after.result(WAIT)
    with pytest.raises(TaskCancelled):
        victim.result(WAIT)
    with pytest.raises(TaskCancelled):
        victim2.result(WAIT)
    assert runner.started == ["blocker", "after"]
    q.shutdown()


def test_statistics_count_failures_and_events_are_published(runner: GateRunner):
    bus = EventBus()
    q = QueuedOrchestrator(runner, max_concurrent=2, events=bus)
    ok = q.submit(req("fine"))
    bad = q.submit(req("fail-auth"))
    runner.open("fine", "fail-auth")
    ok.result(WAIT)
    with pytest.raises(LlmError):
        bad.result(WAIT)
    stats = q.statistics()
    assert (stats.queued, stats.running, stats.done, stats.failed, stats.cancelled) == (0, 0, 1, 1, 0)
    queued = [e for e in bus.history(TaskEvent) if isinstance(e, TaskEvent) and e.status == "queued"]
    assert {e.trace_id for e in queued} == {ok.trace_id, bad.trace_id} and all(
        len(e.trace_id) == 12 for e in queued
    )
    q.shutdown()


def test_queue_full_and_shutdown(runner: GateRunner):
    q = QueuedOrchestrator(runner, max_concurrent=1, max_pending=1)
    running = q.submit(req("r"))
    runner.wait_started(1)
    waiting = q.submit(req("w"))
    overflow = q.submit(req("o"))
    with pytest.raises(TaskCancelled, match="queue full"):
        overflow.result(WAIT)
    q.shutdown(wait=True)  # cancels the pending one, tells the running one to stop, joins the workers
    with pytest.raises(TaskCancelled):
        running.result(WAIT)
    with pytest.raises(TaskCancelled):
        waiting.result(WAIT)
    with pytest.raises(TaskCancelled, match="shut down"):
        q.submit(req("late")).result(WAIT)
