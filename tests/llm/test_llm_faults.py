"""Fault injection: the openai backend against a misbehaving loopback server.

Every fault ends as an ``LlmError`` with the right stable code, or as a result that the plan/tool validation
downstream rejects; nothing else escapes and the next request still works. The director that keeps its
previous plan is stood in for by ``_director_step`` (the real one is issue 6).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from llm_fault_server import HUGE_REPLY_CHARS, FaultServer
from llm_testkit import DirectorPlan, free_port

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.config import OpenAILlmConfig
from coreai.llm.openai_backend import OpenAIBackend
from coreai.llm.openai_formats import forget_formats, remembered_format
from coreai.llm.replies import parse_structured
from coreai.llm.types import ChatMessage, LlmRequest, ToolSpec

pytestmark = pytest.mark.real_llm  # loopback HTTP calls go through the real-call guard

PLAN_REQUEST = LlmRequest(
    (ChatMessage("system", "You direct."), ChatMessage("user", "wave 3")),
    response_schema=DirectorPlan.model_json_schema(),
    trace_id="t-fault",
)
SPAWN = ToolSpec("spawn", "Spawn enemies", {"type": "object", "properties": {"prefab": {"type": "string"}}})
SET_PRESSURE = ToolSpec("set_pressure", "Set pressure", {"type": "object", "properties": {}})


def _director_step(backend: OpenAIBackend, previous: DirectorPlan) -> tuple[DirectorPlan, LlmError | None]:
    """What the director does with a reply: validate it, or keep the previous plan."""
    try:
        return parse_structured(backend.complete(PLAN_REQUEST), DirectorPlan), None
    except LlmError as exc:
        return previous, exc


PREVIOUS = DirectorPlan(
    pressure="ease_off", spawn_per_wave=1, elite_percent=0, prefabs=["grunt"], reason="calm"
)


@pytest.mark.parametrize(
    "scenario, code",
    [
        ("rate-limited", LlmErrorCode.RATE_LIMITED),
        ("quota", LlmErrorCode.QUOTA_EXCEEDED),
        ("auth", LlmErrorCode.AUTH),
        ("forbidden", LlmErrorCode.AUTH),
        ("server-error", LlmErrorCode.UNAVAILABLE),
        ("hang", LlmErrorCode.TIMEOUT),
        ("malformed-sse", LlmErrorCode.MALFORMED_OUTPUT),
        ("malformed-json", LlmErrorCode.MALFORMED_OUTPUT),
        ("truncated", LlmErrorCode.UNAVAILABLE),
        ("empty", LlmErrorCode.EMPTY_RESPONSE),
        ("huge", LlmErrorCode.MALFORMED_OUTPUT),
    ],
)
def test_fault_gives_its_code_and_the_director_keeps_its_plan(
    fault_backend: OpenAIBackend, fault_server: FaultServer, scenario: str, code: LlmErrorCode
) -> None:
    fault_backend.model = scenario
    before = fault_server.count(scenario)
    plan, error = _director_step(fault_backend, PREVIOUS)
    assert error is not None and error.code is code, error
    assert error.trace_id == "t-fault" and error.backend == "openai"
    assert plan is PREVIOUS
    assert fault_server.count(scenario) == before + 1  # max_retries=0: retrying is the decorators' job
    fault_backend.model = "plan"  # the backend is still usable afterwards
    assert _director_step(fault_backend, PREVIOUS)[0].reason == "steady pace"


def test_hang_fails_at_the_read_timeout(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "hang"
    t0 = time.monotonic()
    with pytest.raises(LlmError) as info:
        fault_backend.complete(LlmRequest((ChatMessage("user", "hi"),)))
    assert info.value.code is LlmErrorCode.TIMEOUT and info.value.retryable
    assert time.monotonic() - t0 < 2.5  # read timeout 0.5 s, the server hangs for 3 s


def test_huge_reply_is_refused_not_kept(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "huge"
    with pytest.raises(LlmError) as info:
        list(fault_backend.stream(LlmRequest((ChatMessage("user", "hi"),), max_tokens=64)))
    assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT and f"{64 * 32 + 1024}" in str(info.value)
    assert HUGE_REPLY_CHARS > 64 * 32 + 1024


def test_hallucinated_prefab_passes_the_backend_but_not_plan_validation(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "fake-prefab"
    result = fault_backend.complete(PLAN_REQUEST)  # well-formed JSON: the backend's part is done
    assert "dragon_king" in result.content
    plan, error = _director_step(fault_backend, PREVIOUS)
    assert error is not None and error.code is LlmErrorCode.MALFORMED_OUTPUT and "prefabs" in str(error)
    assert plan is PREVIOUS


def test_unknown_tool_is_rejected_by_the_backend(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "unknown-tool"
    with pytest.raises(LlmError) as info:
        fault_backend.complete(LlmRequest((ChatMessage("user", "go"),), tools=(SPAWN,)))
    assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT and "summon_meteor" in str(info.value)


def test_tool_calls_without_index_or_id_are_merged(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "tools-without-index"
    request = LlmRequest((ChatMessage("user", "go"),), tools=(SPAWN, SET_PRESSURE))
    streamed = [c.tool_call for c in fault_backend.stream(request) if c.tool_call is not None]
    result = fault_backend.complete(request)
    assert [c.name for c in result.tool_calls] == [c.name for c in streamed] == ["spawn", "set_pressure"]
    assert result.tool_calls[0].arguments == '{"prefab": "grunt", "count": 2}'
    assert result.finish_reason == "tool_calls"


def test_think_spans_and_reasoning_content_stay_out_of_content(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "think"
    chunks = list(fault_backend.stream(LlmRequest((ChatMessage("user", "go"),))))
    assert "".join(c.content for c in chunks) == "Two grunts."
    result = fault_backend.complete(LlmRequest((ChatMessage("user", "go"),)))
    assert result.content == "Two grunts." and result.reasoning == "plan the wavethey are weak"


def test_server_ignoring_stream_is_read_as_one_reply(fault_backend: OpenAIBackend) -> None:
    fault_backend.model = "whole-json"
    result = fault_backend.complete(LlmRequest((ChatMessage("user", "go"),)))
    assert result.content == "Plain body." and result.usage.completion_tokens == 3


@pytest.mark.parametrize(
    ("server", "shapes_sent"),
    [
        ("lmstudio-like", ["json_schema"]),
        ("llamacpp-like", ["json_schema", "json_object_schema"]),
        ("schema-rejected", ["json_schema"]),
        ("no-response-format", ["json_schema", "json_object_schema", "json_object", "none"]),
    ],
)
def test_structured_output_finds_the_shape_each_server_takes_and_remembers_it(
    fault_backend: OpenAIBackend, fault_server: FaultServer, server: str, shapes_sent: list[str]
) -> None:
    forget_formats()
    fault_backend.model = server
    before = len(fault_server.requests)
    plan = parse_structured(fault_backend.complete(PLAN_REQUEST), DirectorPlan)
    assert plan.pressure == "hold"
    sent = [_shape(body) for body in fault_server.requests[before:]]
    assert sent == shapes_sent
    if len(shapes_sent) > 1:
        assert remembered_format(fault_backend.base_url) == shapes_sent[-1]
    again = len(fault_server.requests)
    fault_backend.complete(PLAN_REQUEST)  # remembered: one request in the shape that worked
    assert [_shape(body) for body in fault_server.requests[again:]] == shapes_sent[-1:]
    first = fault_server.requests[before]
    if "json_schema" in (first.get("response_format") or {}):
        spec = first["response_format"]["json_schema"]
        assert spec["name"] == "DirectorPlan" and spec["schema"]["type"] == "object"
        assert isinstance(spec["strict"], bool)
    forget_formats()


def _shape(body: dict[str, Any]) -> str:
    fmt = body.get("response_format")
    if not fmt:
        return "none"
    return "json_object_schema" if fmt.get("type") == "json_object" and "schema" in fmt else fmt["type"]


def test_cancel_stops_the_stream_between_chunks(
    fault_backend: OpenAIBackend, fault_server: FaultServer
) -> None:
    fault_backend.model = "slow"
    request = LlmRequest((ChatMessage("user", "go"),), timeout_s=10)
    got: list[str] = []
    errors: list[LlmError] = []

    def consume() -> None:
        try:
            for c in fault_backend.stream(request):
                got.append(c.content)
                if len(got) == 3:
                    request.cancel.set()
        except LlmError as exc:
            errors.append(exc)

    worker = threading.Thread(target=consume)
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    assert [e.code for e in errors] == [LlmErrorCode.CANCELLED] and len(got) == 3
    deadline = time.monotonic() + 5
    while not fault_server.slow_sent and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fault_server.slow_sent and fault_server.slow_sent[-1] < 40  # the server saw the hang-up


def test_unreachable_server_is_unavailable() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    dead = OpenAIBackend(OpenAILlmConfig(base_url=url, connect_timeout_s=0.5))
    with pytest.raises(LlmError) as info:
        dead.complete(LlmRequest((ChatMessage("user", "hi"),)))
    assert info.value.code is LlmErrorCode.UNAVAILABLE and "cannot reach" in str(info.value)
