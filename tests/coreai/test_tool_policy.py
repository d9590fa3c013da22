"""Every rule of the tool execution policy, through the real tool loop and real worker threads."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from coreai.errors import ToolError
from coreai.events import EventBus, ToolCallEvent
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import ChatMessage, LlmRequest, LlmResult, ToolCall
from coreai.tools.base import Tool, ToolContext
from coreai.tools.loop import FINAL_TURN_INSTRUCTION, ToolLoop
from coreai.tools.policy import ToolCallPolicy, ToolPolicyConfig
from coreai.tools.trim import trim_tool_history


class NArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(ge=0, le=100)
    api_key: str = ""


class Recorder:
    """Tools that record calls and measure how many run at the same time."""

    def __init__(self, hold_s: float = 0.0) -> None:
        self.hold_s = hold_s
        self.calls: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.active = {"all": 0, "mut": 0}
        self.peak = {"all": 0, "mut": 0}

    def tool(self, name: str, *, mutating: bool = False, fail: bool = False) -> Tool:
        def invoke(args: NArgs, ctx: ToolContext) -> Any:
            with self.lock:
                self.calls.append((name, args.n))
                self.active["all"] += 1
                self.peak["all"] = max(self.peak["all"], self.active["all"])
                if mutating:
                    self.active["mut"] += 1
                    self.peak["mut"] = max(self.peak["mut"], self.active["mut"])
            try:
                time.sleep(self.hold_s)
                if fail:
                    raise ToolError(name, f"{name} is broken today")
                return {"echo": args.n}
            finally:
                with self.lock:
                    self.active["all"] -= 1
                    if mutating:
                        self.active["mut"] -= 1

        return Tool(name=name, description=f"{name} tool", args_model=NArgs, invoke=invoke, mutating=mutating)


def run_loop(
    script, tools: list[Tool], config: ToolPolicyConfig | None = None, events: EventBus | None = None
):
    stub = StubLlmClient(script)
    loop = ToolLoop(stub, config or ToolPolicyConfig(), events)
    messages = [ChatMessage(role="system", content="sys"), ChatMessage(role="user", content="go")]
    by_name = {t.name: t for t in tools}
    outcome = loop.run(messages, by_name, set(by_name), ToolContext(trace_id="tr-1", role="Creator"))
    return outcome, stub


def tool_messages(request: LlmRequest) -> list[dict]:
    return [json.loads(m.content) for m in request.messages if m.role == "tool"]


def test_repeat_of_a_successful_call_is_refused_but_same_turn_duplicates_run():
    rec = Recorder()
    script = [
        tool_reply(("probe", {"n": 1}), ("probe", {"n": 1})),  # same turn: both run
        tool_reply(("probe", {"n": 1}), ("probe", {"n": 2})),  # n=1 again: refused; n=2 runs
        "done",
    ]
    outcome, stub = run_loop(script, [rec.tool("probe")])
    assert rec.calls == [("probe", 1), ("probe", 1), ("probe", 2)]
    second_turn = tool_messages(stub.requests[2])[-2:]
    assert second_turn[0]["ok"] is False and "duplicate" in second_turn[0]["error"]
    assert second_turn[1] == {"ok": True, "result": {"echo": 2}}
    assert outcome.stop_reason == "answered" and outcome.content == "done"


def test_a_failed_call_may_be_retried_with_the_same_arguments():
    flaky = {"left": 1}

    def invoke(args: NArgs, ctx: ToolContext) -> Any:
        if flaky["left"]:
            flaky["left"] -= 1
            raise ToolError("flaky", "try again")
        return "fine"

    tool = Tool("flaky", "sometimes fails", NArgs, invoke)
    script = [tool_reply(("flaky", {"n": 3})), tool_reply(("flaky", {"n": 3})), "ok"]
    outcome, _stub = run_loop(script, [tool])
    assert [o.ok for o in outcome.tool_calls] == [False, True]
    assert flaky["left"] == 0 and outcome.content == "ok"


def test_three_consecutive_all_failed_turns_abort_with_a_final_summary_turn():
    rec = Recorder()
    tools = [rec.tool("broken", fail=True), rec.tool("fine")]
    script = [
        tool_reply(("broken", {"n": 1})),
        tool_reply(("broken", {"n": 2}), ("fine", {"n": 2})),  # a partial success resets the count
        tool_reply(("broken", {"n": 3})),
        tool_reply(("nonexistent", {})),
        tool_reply(("broken", {"n": 5})),  # third all-failed turn in a row: abort
        "I could not finish: the broken tool keeps failing.",
        tool_reply(("fine", {"n": 99})),  # never reached
    ]
    outcome, stub = run_loop(script, tools, ToolPolicyConfig(max_roundtrips=10))
    assert outcome.stop_reason == "tool_errors"
    assert outcome.content.startswith("I could not finish")
    assert len(stub.requests) == 6
    final = stub.requests[-1]
    assert final.tools == () and final.tool_choice == "none"
    assert final.messages[-1].content == FINAL_TURN_INSTRUCTION
    assert ("fine", 99) not in rec.calls


def test_roundtrip_cap_then_exactly_one_turn_with_tools_disabled():
    rec = Recorder()
    calls = iter(range(100))

    def always_tools(request: LlmRequest):
        if not request.tools:
            return "Summary: I spawned things until the budget ran out."
        return tool_reply(("probe", {"n": next(calls)}))

    outcome, stub = run_loop(always_tools, [rec.tool("probe")], ToolPolicyConfig(max_roundtrips=4))
    assert outcome.stop_reason == "roundtrip_cap" and outcome.rounds == 5
    assert [bool(r.tools) for r in stub.requests] == [True, True, True, True, False]
    assert len(rec.calls) == 4
    assert outcome.content.startswith("Summary:")


def test_tool_calls_in_the_final_turn_are_ignored():
    rec = Recorder()
    script = [tool_reply(("probe", {"n": 1})), tool_reply(("probe", {"n": 2}), content="Wrapping up.")]
    outcome, _ = run_loop(script, [rec.tool("probe")], ToolPolicyConfig(max_roundtrips=1))
    assert rec.calls == [("probe", 1)] and outcome.content == "Wrapping up."


def test_bounded_parallelism_with_mutating_tools_serialised_in_order():
    rec = Recorder(hold_s=0.05)
    reader, writer = rec.tool("reader"), rec.tool("writer", mutating=True)
    ctx = ToolContext(trace_id="tr-p", role="Creator")
    policy = ToolCallPolicy(
        {"reader": reader, "writer": writer}, {"reader", "writer"}, ctx, ToolPolicyConfig()
    )
    calls = [ToolCall(f"r{i}", "reader", json.dumps({"n": i})) for i in range(8)]
    calls += [ToolCall(f"w{i}", "writer", json.dumps({"n": i})) for i in range(3)]
    started = time.perf_counter()
    outcomes = policy.run_turn(calls)
    elapsed = time.perf_counter() - started
    assert [o.call_id for o in outcomes] == [c.id for c in calls]  # results keep call order
    assert all(o.ok for o in outcomes)
    assert rec.peak["all"] == 4  # bounded at max_parallel
    assert rec.peak["mut"] == 1  # mutating calls never overlap
    assert [n for name, n in rec.calls if name == "writer"] == [0, 1, 2]
    assert elapsed < 11 * 0.05  # really ran in parallel, not one after another


def test_max_parallel_one_runs_strictly_in_sequence():
    rec = Recorder(hold_s=0.01)
    reader = rec.tool("reader")
    policy = ToolCallPolicy(
        {"reader": reader}, {"reader"}, ToolContext("t", "Creator"), ToolPolicyConfig(max_parallel=1)
    )
    policy.run_turn([ToolCall(f"r{i}", "reader", json.dumps({"n": i})) for i in range(4)])
    assert rec.peak["all"] == 1 and [n for _, n in rec.calls] == [0, 1, 2, 3]


def test_unknown_tools_and_bad_arguments_go_back_to_the_model_as_errors():
    rec = Recorder()
    script = [
        tool_reply(
            ("teleport", {"n": 1}),
            ("probe", {"n": "lots"}),
            ("probe", {"n": 1, "extra": True}),
            ("probe", {"n": 500}),
        ),
        LlmResult(content="", tool_calls=(ToolCall("raw", "probe", "{not json"),)),
        "ok, giving up",
    ]
    outcome, stub = run_loop(script, [rec.tool("probe")])
    first = tool_messages(stub.requests[1])
    assert "unknown tool 'teleport'" in first[0]["error"] and "probe" in first[0]["error"]
    assert "invalid arguments" in first[1]["error"] and "n:" in first[1]["error"]
    assert "extra" in first[2]["error"]
    assert "less than or equal to 100" in first[3]["error"]
    second = tool_messages(stub.requests[2])[-1]
    assert "not valid JSON" in second["error"]
    assert rec.calls == [] and outcome.content == "ok, giving up"


def test_tools_filtered_out_of_the_request_are_refused():
    rec = Recorder()
    stub = StubLlmClient([tool_reply(("writer", {"n": 1})), "fine"])
    tools = {"reader": rec.tool("reader"), "writer": rec.tool("writer", mutating=True)}
    outcome = ToolLoop(stub).run(
        [ChatMessage(role="user", content="go")], tools, {"reader"}, ToolContext("t", "Creator")
    )
    assert [t.name for t in stub.requests[0].tools] == ["reader"]
    assert "not available for this request" in outcome.tool_calls[0].error and rec.calls == []


def test_old_tool_exchanges_are_trimmed_without_orphans():
    rec = Recorder()
    n = iter(range(1000))

    def chatty(request: LlmRequest):
        if not request.tools:
            return "done"
        return tool_reply(("probe", {"n": next(n)}), ("probe", {"n": next(n)}))  # 3 messages per unit

    _outcome, stub = run_loop(chatty, [rec.tool("probe")], ToolPolicyConfig(max_roundtrips=15))
    for request in stub.requests:
        msgs = request.messages
        assert msgs[0].content == "sys" and msgs[1].content == "go"  # system + original user kept
        tool_related = [m for m in msgs if m.role == "tool" or m.tool_calls]
        assert len(tool_related) <= 20
        for i, m in enumerate(msgs):
            if m.role == "tool":  # every tool result follows the assistant message that asked for it
                owner = next(p for p in reversed(msgs[:i]) if p.role == "assistant")
                assert m.tool_call_id in {c.id for c in owner.tool_calls}
    assert len(stub.requests[-2].messages) < 2 + 15 * 3  # trimming really happened


def test_trim_keeps_the_newest_unit_even_when_it_alone_is_too_big():
    big = ChatMessage(role="assistant", tool_calls=tuple(ToolCall(f"c{i}", "t", "{}") for i in range(5)))
    results = [ChatMessage(role="tool", content="r", tool_call_id=f"c{i}") for i in range(5)]
    old = [
        ChatMessage(role="assistant", tool_calls=(ToolCall("o", "t", "{}"),)),
        ChatMessage(role="tool", tool_call_id="o"),
    ]
    msgs = [
        ChatMessage(role="system", content="s"),
        ChatMessage(role="user", content="u"),
        *old,
        big,
        *results,
    ]
    trimmed = trim_tool_history(msgs, 4)
    assert trimmed == [msgs[0], msgs[1], big, *results]
    assert trim_tool_history(msgs, 0) == msgs


def test_lifecycle_events_carry_trace_role_call_id_and_sanitised_arguments():
    rec = Recorder()
    bus = EventBus()
    seen: list[ToolCallEvent] = []
    sub = bus.subscribe(lambda e: seen.append(e), kinds=(ToolCallEvent,))  # type: ignore[arg-type]
    script = [
        tool_reply(("probe", {"n": 4, "api_key": "sk-SECRET"}, "call-A"), ("broken", {"n": 1}, "call-B")),
        "ok",
    ]
    run_loop(script, [rec.tool("probe"), rec.tool("broken", fail=True)], events=bus)
    sub.close()
    statuses = [(e.info.call_id, e.status) for e in seen]
    assert ("call-A", "started") in statuses and ("call-A", "completed") in statuses
    assert ("call-B", "started") in statuses and ("call-B", "failed") in statuses
    for e in seen:
        assert e.info.trace_id == "tr-1" and e.info.role == "Creator"
        assert "SECRET" not in e.info.arguments
    probe = next(e for e in seen if e.info.call_id == "call-A")
    assert json.loads(probe.info.arguments) == {"api_key": "***", "n": 4}
    failed = next(e for e in seen if e.status == "failed")
    assert "broken is broken today" in failed.error


def test_a_tool_raising_a_plain_exception_never_escapes():
    def explode(args: NArgs, ctx: ToolContext) -> Any:
        raise RuntimeError("segfault-ish")

    outcome, stub = run_loop(
        [tool_reply(("bomb", {"n": 1})), "still alive"], [Tool("bomb", "b", NArgs, explode)]
    )
    assert outcome.content == "still alive"
    assert "RuntimeError: segfault-ish" in tool_messages(stub.requests[1])[0]["error"]


@pytest.mark.parametrize("content", ["", "   "])
def test_empty_arguments_mean_an_empty_object(content: str):
    class Empty(BaseModel):
        model_config = ConfigDict(extra="forbid")

    tool = Tool("ping", "p", Empty, lambda a, c: "pong")
    policy = ToolCallPolicy({"ping": tool}, {"ping"}, ToolContext("t", "Chat"))
    (out,) = policy.run_turn([ToolCall("c", "ping", content)])
    assert out.ok and out.result == "pong"


def test_a_successful_terminal_tool_ends_the_task_without_another_turn():
    rec = Recorder()
    final = rec.tool("submit", mutating=True)
    terminal = Tool(final.name, final.description, final.args_model, final.invoke, True, terminal=True)
    failing = rec.tool("broken", fail=True)
    script = [
        tool_reply(("broken", {"n": 1})),  # a failed call does not end the task
        tool_reply(("submit", {"n": 2}), content="submitting"),
        "never asked",
    ]
    outcome, stub = run_loop(script, [terminal, failing])
    assert outcome.stop_reason == "answered" and outcome.content == "submitting"
    assert outcome.rounds == 2 and len(stub.requests) == 2
    assert rec.calls == [("broken", 1), ("submit", 2)]


def test_a_forced_tool_is_requested_by_name():
    rec = Recorder()
    submit = rec.tool("submit", mutating=True)
    terminal = Tool(submit.name, submit.description, submit.args_model, submit.invoke, True, terminal=True)
    other = rec.tool("other")
    stub = StubLlmClient([tool_reply(("submit", {"n": 3}))])
    loop = ToolLoop(stub, ToolPolicyConfig())
    messages = [ChatMessage(role="user", content="go")]
    tools = {t.name: t for t in (terminal, other)}
    outcome = loop.run(messages, tools, set(tools), ToolContext("tr-2", "Creator"), force_tool="submit")
    assert stub.requests[0].tool_choice == "submit"
    assert outcome.rounds == 1 and rec.calls == [("submit", 3)]
    unknown = ToolLoop(StubLlmClient(["fine"]), ToolPolicyConfig())
    unknown.run(messages, tools, {"other"}, ToolContext("tr-3", "Creator"), force_tool="submit")
    assert unknown.llm.requests[0].tool_choice == "auto", "a tool outside this request's set is not forced"
