"""Integration: the openai backend drives a real ``python -m llama_cpp.server`` on a loopback port."""

from __future__ import annotations

import pytest
from llm_testkit import DIRECTOR_SYSTEM, DirectorPlan, LlamaServer
from pydantic import BaseModel, Field

from coreai.llm.config import OpenAILlmConfig
from coreai.llm.health import probe_openai
from coreai.llm.openai_backend import OpenAIBackend
from coreai.llm.openai_formats import forget_formats, remembered_format
from coreai.llm.replies import parse_structured
from coreai.llm.types import ChatMessage, LlmRequest, ToolCall, ToolSpec

pytestmark = [pytest.mark.real_llm, pytest.mark.slow]


class SpawnArgs(BaseModel):
    prefab: str = Field(pattern="^(grunt|archer|brute)$")
    count: int = Field(ge=1, le=6)


def test_health_probe_lists_the_served_model(llama_server: LlamaServer) -> None:
    report = probe_openai(OpenAILlmConfig(base_url=llama_server.base_url, model="smollm2"))
    assert report.ok and report.models == ("smollm2",)


def test_streamed_reply(server_backend: OpenAIBackend) -> None:
    request = LlmRequest((ChatMessage("user", "Greet the player in one sentence."),), max_tokens=24)
    chunks = list(server_backend.stream(request))
    pieces = [c.content for c in chunks if c.content]
    assert len(pieces) > 3 and "".join(pieces).strip()
    assert chunks[-1].finish_reason in ("stop", "length")


@pytest.mark.timeout(300)  # a grammar-constrained 120-token reply on a loaded 2-core box
def test_structured_director_plan(server_backend: OpenAIBackend) -> None:
    """llama_cpp.server refuses the standard json_schema shape (a 500 naming response_format); the backend
    falls back to its json_object + schema grammar and remembers that for this server."""
    forget_formats()
    messages = (
        ChatMessage("system", DIRECTOR_SYSTEM),
        ChatMessage("user", "Player HP 15%, 3 enemies alive."),
    )
    request = LlmRequest(
        messages, response_schema=DirectorPlan.model_json_schema(), max_tokens=120, temperature=0.0
    )
    result = server_backend.complete(request)
    plan = parse_structured(result, DirectorPlan)
    assert plan.pressure in ("ease_off", "hold", "raise", "spike") and 0 <= plan.elite_percent <= 50
    assert remembered_format(server_backend.base_url) == "json_object_schema"


def test_tool_call(server_backend: OpenAIBackend) -> None:
    spawn = ToolSpec("spawn", "Spawn enemies near the player.", SpawnArgs.model_json_schema())
    request = LlmRequest(
        (ChatMessage("system", "You direct an arena."), ChatMessage("user", "Spawn two archers.")),
        tools=(spawn,),
        tool_choice="spawn",
        max_tokens=40,
    )
    result = server_backend.complete(request)
    (call,) = result.tool_calls
    assert call.name == "spawn" and call.id and result.finish_reason == "tool_calls"
    assert SpawnArgs.model_validate_json(call.arguments).count >= 1


def test_a_tool_call_turn_is_sent_back_as_the_server_accepts_it(server_backend: OpenAIBackend) -> None:
    """The agent loop's second turn (its own tool call, then the tool's answer, as after an invalid
    argument) goes back to the server; llama_cpp.server refused an assistant turn whose content was null."""
    spawn = ToolSpec("spawn", "Spawn enemies near the player.", SpawnArgs.model_json_schema())
    call = ToolCall("call_0", "spawn", '{"prefab": "dragon", "count": 2}')
    request = LlmRequest(
        (
            ChatMessage("system", "You direct an arena."),
            ChatMessage("user", "Spawn two archers."),
            ChatMessage("assistant", "", tool_calls=(call,)),
            ChatMessage(
                "tool", "error: prefab must be grunt, archer or brute", tool_call_id="call_0", name="spawn"
            ),
        ),
        tools=(spawn,),
        tool_choice="spawn",
        max_tokens=40,
    )
    result = server_backend.complete(request)
    (again,) = result.tool_calls
    assert again.name == "spawn" and SpawnArgs.model_validate_json(again.arguments).count >= 1
