"""The event bus: filtered subscriptions, unsubscribe, bounded history, isolation from bad subscribers."""

from __future__ import annotations

import json
import threading

from coreai.events import EventBus, TaskEvent, ToolCallEvent, ToolCallInfo, sanitize_arguments


def tool_event(status: str = "started", call_id: str = "c1") -> ToolCallEvent:
    return ToolCallEvent(status, ToolCallInfo("tr", "Creator", call_id, "memory", "{}"))  # type: ignore[arg-type]


def test_subscribe_filter_unsubscribe_and_history():
    bus = EventBus(history_size=3)
    tools: list = []
    everything: list = []
    sub = bus.subscribe(tools.append, kinds=(ToolCallEvent,))
    bus.subscribe(everything.append)
    bus.publish(TaskEvent("started", "tr", "Creator"))
    bus.publish(tool_event("started", "a"))
    sub.close()
    bus.publish(tool_event("completed", "b"))
    bus.publish(tool_event("failed", "c"))
    assert [e.info.call_id for e in tools] == ["a"]
    assert len(everything) == 4
    assert [getattr(e, "status", None) for e in bus.history()] == [
        "started",
        "completed",
        "failed",
    ]  # bounded
    assert [e.info.call_id for e in bus.history(ToolCallEvent, limit=1)] == ["c"]  # type: ignore[union-attr]
    bus.clear_history()
    assert bus.history() == []


def test_a_raising_subscriber_does_not_break_publishing_or_others():
    bus = EventBus()
    got: list = []

    def bad(_event) -> None:
        raise RuntimeError("HUD crashed")

    bus.subscribe(bad)
    bus.subscribe(got.append)
    bus.publish(tool_event())
    assert len(got) == 1


def test_publishing_from_many_threads_loses_nothing():
    bus = EventBus(history_size=10_000)
    seen: list = []
    lock = threading.Lock()

    def keep(e) -> None:
        with lock:
            seen.append(e)

    bus.subscribe(keep)

    def publish_many() -> None:
        for _ in range(500):
            bus.publish(tool_event())

    threads = [threading.Thread(target=publish_many) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(seen) == 4000 and len(bus.history()) == 4000


def test_sanitize_arguments_redacts_secrets_and_shortens():
    raw = json.dumps({"api_key": "sk-1", "nested": {"Authorization": "Bearer x", "ok": 1}, "text": "y" * 500})
    clean = json.loads(sanitize_arguments(raw))
    assert clean["api_key"] == "***" and clean["nested"] == {"Authorization": "***", "ok": 1}
    assert clean["text"].startswith("y" * 200) and "+300 chars" in clean["text"]
    assert json.loads(sanitize_arguments("{broken")) == {"unparsed": "{broken"}
    assert sanitize_arguments("") == "{}"
