"""LLM pipeline: timeout, retry with backoff, logging lines, routing per role, the scripted stub."""

from __future__ import annotations

import threading
import time

import pytest

from coreai.errors import LlmError, LlmErrorCode, SettingsError
from coreai.llm.decorators import (
    LoggingClient,
    RetryClient,
    TimeoutClient,
    backend_for,
    build_pipeline,
    unwrap,
)
from coreai.llm.routing import RoutingClient
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest


def request(role: str = "Creator", trace_id: str = "tr-llm", **kw) -> LlmRequest:
    return LlmRequest(messages=(ChatMessage(role="user", content="hi"),), role=role, trace_id=trace_id, **kw)


def test_stub_is_an_llm_client_and_splits_reasoning():
    stub = StubLlmClient(["<think>hmm</think>Hello", tool_reply(("memory", {"action": "clear"}))])
    assert isinstance(stub, LlmClient)
    first = stub.complete(request())
    assert (first.content, first.reasoning, first.backend) == ("Hello", "hmm", "stub")
    second = stub.complete(request())
    assert second.tool_calls[0].name == "memory" and second.finish_reason == "tool_calls"
    with pytest.raises(LlmError) as info:
        stub.complete(request())
    assert info.value.code is LlmErrorCode.EMPTY_RESPONSE


def test_timeout_fails_fast_and_tells_the_inner_call_to_stop():
    slow = StubLlmClient(["late"], delay_s=10)
    client = TimeoutClient(slow, default_timeout_s=0.1)
    started = time.perf_counter()
    with pytest.raises(LlmError) as info:
        client.complete(request())
    assert info.value.code is LlmErrorCode.TIMEOUT and info.value.trace_id == "tr-llm"
    assert time.perf_counter() - started < 2
    deadline = time.monotonic() + 5
    while not slow.requests or not slow.requests[0].cancel.is_set():
        assert time.monotonic() < deadline, "inner request never saw the cancel"
        time.sleep(0.01)


def test_per_request_timeout_overrides_the_default():
    client = TimeoutClient(StubLlmClient(["x"], delay_s=0.3), default_timeout_s=0.05)
    assert client.complete(request(timeout_s=3.0)).content == "x"


def test_caller_cancel_stops_a_pending_call():
    client = TimeoutClient(StubLlmClient(["x"], delay_s=10), default_timeout_s=30)
    req = request()
    threading.Timer(0.05, req.cancel.set).start()
    with pytest.raises(LlmError) as info:
        client.complete(req)
    assert info.value.code is LlmErrorCode.CANCELLED


def test_retry_backs_off_on_retryable_codes_only():
    flaky = StubLlmClient(
        [
            LlmError(LlmErrorCode.RATE_LIMITED, "slow down", backend="stub"),
            LlmError(LlmErrorCode.UNAVAILABLE, "502", backend="stub"),
            "third time lucky",
        ]
    )
    assert RetryClient(flaky, attempts=2, base_delay_s=0.01).complete(request()).content == "third time lucky"
    assert len(flaky.requests) == 3
    auth = StubLlmClient([LlmError(LlmErrorCode.AUTH, "bad key", backend="stub"), "never"])
    with pytest.raises(LlmError) as info:
        RetryClient(auth, attempts=5, base_delay_s=0.01).complete(request())
    assert info.value.code is LlmErrorCode.AUTH and len(auth.requests) == 1
    exhausted = StubLlmClient([LlmError(LlmErrorCode.TIMEOUT, "t", backend="stub")] * 5)
    with pytest.raises(LlmError):
        RetryClient(exhausted, attempts=1, base_delay_s=0.01).complete(request())
    assert len(exhausted.requests) == 2


def test_retry_backoff_ends_early_on_cancel():
    client = RetryClient(StubLlmClient([LlmError(LlmErrorCode.UNAVAILABLE, "down", backend="stub"), "x"]),
                         attempts=3, base_delay_s=10)  # fmt: skip
    req = request()
    threading.Timer(0.05, req.cancel.set).start()
    started = time.perf_counter()
    with pytest.raises(LlmError) as info:
        client.complete(req)
    assert info.value.code is LlmErrorCode.CANCELLED and time.perf_counter() - started < 2


def test_logging_lines_carry_trace_role_backend_tokens_and_latency(log_records):
    backends = {"stub": StubLlmClient(["fine"]), "slow": StubLlmClient(["x"], delay_s=10, name="slow")}
    router = RoutingClient(backends, {"Creator": "stub", "Chat": "slow"})
    pipeline = build_pipeline(router, timeout_s=0.1, retry_attempts=0)
    pipeline.complete(request("Creator", "tr-ok"))
    with pytest.raises(LlmError):
        pipeline.complete(request("Chat", "tr-slow"))
    llm = [r for r in log_records if r["extra"].get("feature") == "llm"]
    sent = [r["message"] for r in llm if r["message"].startswith("LLM ▶")]
    got = [r for r in llm if r["message"].startswith("LLM ◀")]
    timed = [r for r in llm if r["message"].startswith("LLM ⏱")]
    assert "role=Creator backend=stub" in sent[0] and "role=Chat backend=slow" in sent[1]
    assert len(got) == 1 and got[0]["extra"]["trace_id"] == "tr-ok"
    assert "tokens=" in got[0]["message"] and "latency=" in got[0]["message"]
    assert (
        len(timed) == 1
        and timed[0]["extra"]["trace_id"] == "tr-slow"
        and "backend=slow" in timed[0]["message"]
    )


def test_routing_per_role_and_switching_at_run_time():
    a, b = StubLlmClient(["from a"] * 3, name="a"), StubLlmClient(["from b"] * 3, name="b")
    router = RoutingClient({"a": a, "b": b}, {"Creator": "a"}, default="b")
    assert router.complete(request("Creator")).content == "from a"
    assert router.complete(request("Chat")).content == "from b"
    router.set_backend("Creator", "b")
    assert router.complete(request("Creator")).content == "from b"
    pipeline = build_pipeline(router)
    assert backend_for(pipeline, "Creator") == "b" and unwrap(pipeline) is router
    with pytest.raises(SettingsError) as info:
        router.set_backend("Creator", "gpt-9")
    assert info.value.key == "llm.backends.Creator" and "a, b" in str(info.value)


def test_a_route_to_a_missing_backend_is_a_clean_error():
    router = RoutingClient({"stub": StubLlmClient(["x"])}, {"Programmer": "local"})
    with pytest.raises(LlmError) as info:
        router.complete(request("Programmer"))
    assert info.value.code is LlmErrorCode.UNAVAILABLE and "registered: stub" in str(info.value)


def test_streaming_through_the_whole_pipeline():
    pipeline = build_pipeline(RoutingClient({"stub": StubLlmClient(["<think>plan</think>" + "word " * 20])}))
    chunks = list(pipeline.stream(request()))
    assert "".join(c.content for c in chunks) == ("word " * 20).strip()
    assert [c.reasoning for c in chunks if c.reasoning] == ["plan"]
    assert chunks[-1].finish_reason == "stop"


def test_stream_times_out_and_retries_only_before_the_first_chunk():
    slow = build_pipeline(StubLlmClient(["x"], delay_s=10), timeout_s=0.1, retry_attempts=0)
    with pytest.raises(LlmError) as info:
        list(slow.stream(request()))
    assert info.value.code is LlmErrorCode.TIMEOUT
    flaky = StubLlmClient([LlmError(LlmErrorCode.UNAVAILABLE, "down", backend="stub"), "back up"])
    chunks = list(RetryClient(flaky, attempts=1, base_delay_s=0.01).stream(request()))
    assert "".join(c.content for c in chunks) == "back up"


def test_logging_client_is_transparent_for_results():
    stub = StubLlmClient(["same"])
    assert LoggingClient(stub).complete(request()).content == "same"


def test_a_request_that_names_its_backend_goes_there_and_leaves_the_routes_alone():
    a, b = StubLlmClient(["from a"] * 3, name="a"), StubLlmClient(["from b"] * 3, name="b")
    router = RoutingClient({"a": a, "b": b}, {"Creator": "a"})
    pipeline = build_pipeline(router)
    assert pipeline.complete(request("Creator", backend="b")).content == "from b"
    assert router.routes() == {"Creator": "a"} and router.backend_for("Creator") == "a"
    assert pipeline.complete(request("Creator")).content == "from a"
    assert backend_for(pipeline, "Creator", "b") == "b" and backend_for(pipeline, "Creator") == "a"
    with pytest.raises(LlmError) as info:
        router.complete(request("Creator", backend="gpt-9"))
    assert info.value.code is LlmErrorCode.UNAVAILABLE and "asks for 'gpt-9'" in str(info.value)
