"""Streaming and stopping an agent turn through the real runtime (task queue, orchestrator, tool loop, the
LLM decorators): pieces arrive as TextDelta events before the reply ends, reasoning never does, a forced
tool is forced once and then answered from, and Stop cancels through the task queue down to the backend."""

from __future__ import annotations

import time

from chat_support import SlowStreamer

from coreai.events import TextDelta
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import LlmRequest
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings
from coreai.tools.base import Tool
from coreai.tools.world_tools import NoArgs
from game.ai.chat import ChatTurn, chat_request

REPLY = "one two three four five six seven eight nine ten eleven twelve"


def runtime_with(client: object, role: str = "Chat") -> CoreAiRuntime:
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    rt = CoreAiRuntime(settings, backends={"slow": client})  # type: ignore[dict-item]
    rt.router.set_backend(role, "slow")
    return rt


def test_pieces_arrive_before_the_reply_ends_and_reasoning_never_does(tmp_path: object) -> None:
    stub = StubLlmClient(["<think>secret plan</think>Hello there, traveller. Fine weather for a fight."])
    rt = runtime_with(stub)
    seen: list[TextDelta] = []
    rt.events.subscribe(lambda e: seen.append(e) if isinstance(e, TextDelta) else None)  # type: ignore[func-returns-value]
    handle = rt.submit(AiTaskRequest(role="Chat", hint="hi", stream=True))
    result = handle.result(10)
    text = "".join(d.text for d in seen)
    assert len(seen) > 1 and text == result.content == "Hello there, traveller. Fine weather for a fight."
    assert "secret" not in text and all(d.trace_id == handle.trace_id for d in seen)
    rt.close()


def test_a_slow_reply_shows_partial_text_first() -> None:
    slow = SlowStreamer(REPLY, pause_s=0.05)
    rt = runtime_with(slow)
    turn = ChatTurn(rt.tasks, rt.events, chat_request("Chat", "count"))
    deadline = time.monotonic() + 10
    while turn.state != "streaming":
        assert time.monotonic() < deadline
        time.sleep(0.005)
    partial = turn.text()
    assert partial and partial != REPLY and REPLY.startswith(partial)
    assert turn.wait(10) and turn.state == "done" and turn.text() == REPLY
    rt.close()


def test_stop_cancels_through_the_queue_down_to_the_backend_within_half_a_second() -> None:
    slow = SlowStreamer(REPLY, pause_s=0.2)
    rt = runtime_with(slow)
    turn = ChatTurn(rt.tasks, rt.events, chat_request("Chat", "count"))
    deadline = time.monotonic() + 10
    while not turn.text():
        assert time.monotonic() < deadline
        time.sleep(0.005)
    t0 = time.perf_counter()
    assert turn.stop() and turn.state == "stopped"
    assert turn.wait(0.5), "the task ended within 0.5 s of Stop"
    assert time.perf_counter() - t0 < 0.5
    assert slow.cancelled.wait(1.0) and slow.sent < len(REPLY.split()), "the backend stopped early"
    assert rt.tasks.statistics().cancelled == 1
    rt.close()


def test_a_forced_tool_is_forced_once_then_the_model_answers_with_tools_off() -> None:
    asked: list[LlmRequest] = []

    def script(request: LlmRequest) -> object:
        asked.append(request)
        return tool_reply(("peek", {})) if len(asked) == 1 else "Wave 1, all calm."

    rt = runtime_with(StubLlmClient(script), role="Analyzer")  # type: ignore[arg-type]
    peek = Tool("peek", "the wave", NoArgs, lambda args, ctx: {"wave": 1})
    rt.orchestrator.add_tool(peek, roles=("Analyzer",))
    result = rt.submit(AiTaskRequest(role="Analyzer", hint="how goes it", force_tool="peek")).result(10)
    assert [t.tool for t in result.tool_calls] == ["peek"] and result.content == "Wave 1, all calm."
    assert asked[0].tool_choice == "peek"
    assert asked[1].tool_choice == "none" and asked[1].tools == ()
    assert 'peek returned: {"ok": true, "result": {"wave": 1}}' in asked[1].messages[-1].content
    assert not any(m.role == "tool" for m in asked[1].messages), "the exchange is folded into context"
    rt.close()
