"""The openai backend's pure parts: delta merging, error mapping, request building, the real-call guard."""

from __future__ import annotations

import json
from types import SimpleNamespace as NS
from typing import Any

import httpx2
import openai
import pytest
from llm_testkit import DirectorPlan

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.config import OpenAILlmConfig
from coreai.llm.openai_backend import CUT_OFF, PLACEHOLDER_API_KEY, OpenAIBackend, map_openai_error
from coreai.llm.openai_stream import StreamAccumulator, whole_reply_chunk
from coreai.llm.replies import stops_mid_json
from coreai.llm.types import ChatMessage, LlmRequest, ToolCall, ToolSpec


def _call(
    index: int | None = None, id: str | None = None, name: str | None = None, args: str | None = None
) -> NS:
    return NS(index=index, id=id, function=NS(name=name, arguments=args))


def _chunk(content: str | None = None, calls: list[NS] | None = None, finish: str | None = None) -> NS:
    return NS(
        model="m", usage=None, choices=[NS(delta=NS(content=content, tool_calls=calls), finish_reason=finish)]
    )


def test_tool_call_deltas_merge_without_index_or_id() -> None:
    acc = StreamAccumulator()
    for piece in [
        _call(name="spawn", args='{"prefab": '),
        _call(args='"grunt"}'),
        _call(name="set_pressure", args="{"),
        _call(args='"level": "raise"}'),
    ]:
        acc.add(_chunk(calls=[piece]))
    calls = acc.tool_calls()
    assert [c.name for c in calls] == ["spawn", "set_pressure"]
    assert [json.loads(c.arguments) for c in calls] == [{"prefab": "grunt"}, {"level": "raise"}]
    assert calls[0].id != calls[1].id


def test_tool_call_deltas_follow_index_and_id_when_interleaved() -> None:
    acc = StreamAccumulator()
    acc.add(_chunk(calls=[_call(0, "a", "spawn", '{"count"'), _call(1, "b", "heal", '{"hp"')]))
    acc.add(_chunk(calls=[_call(1, None, None, ": 5}"), _call(0, None, None, ": 2}")]))
    acc.add(_chunk(calls=[_call(None, "b", "heal", "")]))  # id only, repeating the name
    assert [(c.id, c.name, json.loads(c.arguments)) for c in acc.tool_calls()] == [
        ("a", "spawn", {"count": 2}),
        ("b", "heal", {"hp": 5}),
    ]


def test_accumulator_splits_think_spans_and_reasoning_content() -> None:
    acc = StreamAccumulator()
    pieces = [
        acc.add(_chunk("<think>hm")),
        acc.add(_chunk("m</think>Hi")),
        acc.add(
            NS(
                model="m",
                usage=NS(prompt_tokens=9, completion_tokens=4, prompt_tokens_details=NS(cached_tokens=6)),
                choices=[NS(delta=NS(content=None, reasoning_content="more"), finish_reason="stop")],
            )
        ),
    ]
    assert [p.content if p else None for p in pieces] == ["", "Hi", ""]
    assert acc.text() == ("Hi", "hmmmore") and acc.finish_reason == "stop"
    assert (acc.usage.prompt_tokens, acc.usage.cached_prompt_tokens) == (9, 6)


def test_whole_json_reply_becomes_one_chunk() -> None:
    body = {
        "model": "m",
        "choices": [
            {
                "finish_reason": "tool_calls",
                "message": {
                    "content": None,
                    "tool_calls": [{"id": "x", "function": {"name": "spawn", "arguments": {"n": 1}}}],
                },
            }
        ],
    }
    acc = StreamAccumulator()
    acc.add(whole_reply_chunk(body))
    assert acc.tool_calls()[0] == ToolCall("x", "spawn", '{"n": 1}') and acc.finish_reason == "tool_calls"
    for bad in ([1, 2], {"choices": "nope"}, {"error": {"message": "boom"}}):
        with pytest.raises(ValueError):
            whole_reply_chunk(bad)


_REQ = httpx2.Request("POST", "http://127.0.0.1:9/v1/chat/completions")


def _status(code: int, body: Any) -> openai.APIStatusError:
    response = httpx2.Response(code, request=_REQ, json=body)
    classes = {
        401: openai.AuthenticationError,
        403: openai.PermissionDeniedError,
        429: openai.RateLimitError,
        500: openai.InternalServerError,
        400: openai.BadRequestError,
        404: openai.NotFoundError,
    }
    cls = classes.get(code, openai.APIStatusError)
    return cls(f"Error code: {code}", response=response, body=body)


@pytest.mark.parametrize(
    "exc, code",
    [
        (_status(429, {"error": {"message": "Rate limit reached"}}), LlmErrorCode.RATE_LIMITED),
        (
            _status(
                429, {"error": {"message": "You exceeded your current quota", "code": "insufficient_quota"}}
            ),
            LlmErrorCode.QUOTA_EXCEEDED,
        ),
        (_status(401, {"error": {"message": "bad key"}}), LlmErrorCode.AUTH),
        (_status(403, {"error": {"message": "no access"}}), LlmErrorCode.AUTH),
        (_status(500, {"error": {"message": "boom"}}), LlmErrorCode.UNAVAILABLE),
        (_status(503, "overloaded"), LlmErrorCode.UNAVAILABLE),
        (_status(404, {"error": {"message": "model not found"}}), LlmErrorCode.UNAVAILABLE),
        (_status(400, {"error": {"message": "context too long"}}), LlmErrorCode.MALFORMED_OUTPUT),
        (openai.APITimeoutError(request=_REQ), LlmErrorCode.TIMEOUT),
        (openai.APIConnectionError(request=_REQ), LlmErrorCode.UNAVAILABLE),
        (httpx2.ConnectError("refused"), LlmErrorCode.UNAVAILABLE),
        (json.JSONDecodeError("Expecting value", "{", 1), LlmErrorCode.MALFORMED_OUTPUT),
        (AttributeError("'str' object has no attribute 'delta'"), LlmErrorCode.MALFORMED_OUTPUT),
        (RuntimeError("???"), LlmErrorCode.UNAVAILABLE),
    ],
)
def test_every_failure_maps_to_a_stable_code(exc: BaseException, code: LlmErrorCode) -> None:
    err = map_openai_error(exc, "openai", "tr9")
    assert isinstance(err, LlmError) and err.code is code
    assert err.trace_id == "tr9" and err.backend == "openai"


def test_client_settings_env_fallbacks_and_placeholder_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1234/v1")
    backend = OpenAIBackend(OpenAILlmConfig(connect_timeout_s=2, read_timeout_s=7))
    client = backend._client
    assert backend.base_url == "http://127.0.0.1:1234/v1" and client.api_key == PLACEHOLDER_API_KEY
    assert client.max_retries == 0
    assert (client.timeout.connect, client.timeout.read) == (2, 7)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    explicit = OpenAIBackend(OpenAILlmConfig(base_url="http://127.0.0.1:9/v1", api_key="sk-cfg"))
    assert explicit._client.api_key == "sk-cfg" and explicit.base_url == "http://127.0.0.1:9/v1"
    assert OpenAIBackend(OpenAILlmConfig())._client.api_key == "sk-env"


def test_request_building_for_schema_tools_and_history() -> None:
    backend = OpenAIBackend(OpenAILlmConfig(base_url="http://127.0.0.1:9/v1", max_tokens=50))
    history = (
        ChatMessage("system", "You direct."),
        ChatMessage("user", "go"),
        ChatMessage("assistant", "", tool_calls=(ToolCall("c1", "spawn", "{}"),)),
        ChatMessage("tool", "ok", tool_call_id="c1", name="spawn"),
    )
    kw = backend._kwargs(
        LlmRequest(history, response_schema=DirectorPlan.model_json_schema(), max_tokens=500, timeout_s=1.5)
    )
    assert kw["max_tokens"] == 50 and kw["stream"] is True and kw["timeout"].read == 1.5
    fmt = kw["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "DirectorPlan"
    assert fmt["json_schema"]["schema"]["properties"]["spawn_per_wave"]["enum"][-1] == 12
    assert kw["messages"][0]["content"].startswith("You direct.\n\nReply with one JSON object")
    assert kw["messages"][2]["tool_calls"][0]["id"] == "c1" and kw["messages"][3]["role"] == "tool"
    assert kw["messages"][2]["content"] == ""  # a string: llama_cpp.server refuses a null content
    spawn = ToolSpec("spawn", "Spawn", {"type": "object", "properties": {}})
    forced = backend._kwargs(LlmRequest(history[:2], tools=(spawn,), tool_choice="spawn"))
    assert forced["tool_choice"] == {"type": "function", "function": {"name": "spawn"}}
    assert "response_format" not in forced
    assert "tools" not in backend._kwargs(LlmRequest(history[:2], tools=(spawn,), tool_choice="none"))


def test_tool_schemas_are_sent_as_the_local_grammar_gets_them() -> None:
    """One bounded schema for both paths: a llama.cpp server builds a forced tool's grammar from the sent
    parameters, as the in-process model does from ``grammar_schema`` of them (the director's reason keeps
    its maxLength; a bound too large for llama.cpp's grammar is dropped; a bounded integer becomes
    choices)."""
    from coreai.llm.local_prompt import prepare_prompt
    from game.ai.director_agent import PlanCapture, plan_tool
    from game.ai.director_prompt import REASON_CHARS

    backend = OpenAIBackend(OpenAILlmConfig(base_url="http://127.0.0.1:9/v1"))
    plan = plan_tool(["grunt", "runner"], ["supply", "swarm"], PlanCapture()).spec()
    code = ToolSpec(
        "code",
        "Run code",
        {
            "type": "object",
            "properties": {
                "src": {"type": "string", "maxLength": 65_536},
                "n": {"type": "integer", "minimum": 1, "maximum": 3},
            },
        },
    )
    request = LlmRequest((ChatMessage("user", "go"),), tools=(plan, code), tool_choice=plan.name)
    sent = {t["function"]["name"]: t["function"]["parameters"] for t in backend._kwargs(request)["tools"]}
    local = prepare_prompt(request, 200, "local").response_format
    assert local is not None and sent[plan.name] == local["schema"]
    assert sent[plan.name]["properties"]["reason"]["maxLength"] == REASON_CHARS
    assert "maxLength" not in sent["code"]["properties"]["src"]
    assert sent["code"]["properties"]["n"]["enum"] == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ('{ "pressure" : "spike", "reason": "2.0,1.5', True),  # the clean-clone failure: inside a string
        ('{ "pressure":', True),
        ('{"a": [1, 2', True),
        ('{"a": "x\\"}', True),  # an escaped quote does not close the string
        ('{"a": "}"}', False),
        ('{"pressure": "hold"}', False),
        ('{"a": 1}}', False),  # malformed, but not cut off
        ("hold", False),
        ("", False),
    ],
)
def test_stops_mid_json_tells_a_cut_reply_from_a_wrong_one(text: str, cut: bool) -> None:
    assert stops_mid_json(text) is cut


def test_a_forced_tool_call_cut_off_mid_json_says_so() -> None:
    """llama_cpp.server shrinks max_tokens to what its window has left and still reports the forced tool's
    call as finished ("tool_calls"): the error names the cut, not only the JSON error."""
    backend = OpenAIBackend(OpenAILlmConfig(base_url="http://127.0.0.1:9/v1"))
    plan = ToolSpec("set_director_plan", "Plan", {"type": "object", "properties": {}})
    request = LlmRequest((ChatMessage("user", "go"),), tools=(plan,), tool_choice="set_director_plan")
    acc = StreamAccumulator()
    acc.add(_chunk(calls=[_call(0, "c1", "set_director_plan", '{ "pressure" : "spike", "reason": "2.0,1.5')]))
    acc.add(_chunk(finish="tool_calls"))
    with pytest.raises(LlmError) as info:
        backend._finish(request, acc, "t-cut")
    assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT and CUT_OFF in str(info.value)
    assert "set_director_plan" in str(info.value) and "finish_reason tool_calls" in str(info.value)
    whole = StreamAccumulator()
    whole.add(_chunk(calls=[_call(0, "c1", "set_director_plan", '{"pressure": "hold", "reason": "ok"}')]))
    whole.add(_chunk(finish="tool_calls"))
    assert backend._finish(request, whole, "t-ok").tool_calls[0].name == "set_director_plan"


def test_guard_blocks_real_calls_without_the_marker() -> None:
    backend = OpenAIBackend(OpenAILlmConfig(base_url="http://127.0.0.1:9/v1"))
    request = LlmRequest((ChatMessage("user", "hi"),))
    for call in (lambda: backend.complete(request), lambda: backend.stream(request)):
        with pytest.raises(LlmError) as info:
            call()
        assert info.value.code is LlmErrorCode.UNAVAILABLE and "real_llm" in str(info.value)
