"""The local backend's reply grammar: compact JSON, and a forced tool's first key written into the prompt
(fewer generated tokens: each costs a whole decode step on two cores)."""

from __future__ import annotations

import json

import pytest

from coreai.llm.local import LocalLlmClient
from coreai.llm.local_grammar import compact_gbnf, forced_start
from coreai.llm.local_reply_stream import ReplyStream
from coreai.llm.types import ChatMessage, LlmRequest, ToolSpec
from game.ai.director_prompt import tool_schema

PLAN = tool_schema(["grunt", "runner", "tank"], ["swarm", "boss"])


def test_the_grammar_has_no_whitespace_between_json_tokens() -> None:
    gbnf = compact_gbnf(PLAN)
    assert not any(line.startswith("space ::=") or " space " in line for line in gbnf.splitlines())
    assert '" "?' not in gbnf  # llama-cpp-python's optional space is gone everywhere


def test_a_forced_object_starts_with_its_first_required_key() -> None:
    start, grammar = forced_start(PLAN)
    assert start == '{"pressure":'
    root = next(line for line in grammar._grammar.splitlines() if line.startswith("root ::= "))
    assert root.startswith('root ::= pressure "," reason-kv')
    assert forced_start(PLAN)[1] is grammar  # built once per schema


def test_an_object_with_no_required_key_has_no_forced_start() -> None:
    start, grammar = forced_start({"type": "object", "properties": {"a": {"type": "string"}}})
    assert start == "" and "root ::= " in grammar._grammar


@pytest.mark.real_llm
def test_a_forced_plan_is_compact_and_costs_few_generated_tokens(local_client: LocalLlmClient) -> None:
    spec = ToolSpec("set_director_plan", "Submit the next plan.", PLAN)
    request = LlmRequest(
        (
            ChatMessage("system", "You direct an arena. Pressure: ease_off, hold, raise or spike."),
            ChatMessage("user", "The player is at full HP and bored."),
        ),
        tools=(spec,),
        tool_choice="set_director_plan",
        max_tokens=120,
        temperature=0.0,
    )
    result = local_client.complete(request)
    (call,) = result.tool_calls
    args = json.loads(call.arguments)
    assert args["pressure"] in ("ease_off", "hold", "raise", "spike") and args["reason"]
    # what was generated is the object after '{"pressure":': the value, the reason, the closing brace; the
    # forced key is a prompt token, not a generated one
    generated = local_client.stats.last_completion_tokens
    written = len(json.dumps(args, separators=(",", ":")))
    assert generated < written / 2, (generated, args)


def test_a_reply_in_words_streams_as_its_json_string_grows() -> None:
    words = ReplyStream()
    parts = ['{"', "re", 'ply":"', " Hi", "\\", "n the", "re \\u00", "e9!", " ", '"}']
    pieces = [words.feed(p) for p in parts]
    assert "".join(pieces) == words.sent == "Hi\n there \u00e9!"  # stripped, like the final reply
    assert pieces[3] == "Hi" and pieces[4] == ""  # an escape cut in two waits for its second half
    call = ReplyStream()
    assert [call.feed(p) for p in ['{"', 'tool":"spawn"']] == ["", ""] and not call.active


@pytest.mark.real_llm
def test_a_role_with_tools_streams_its_reply_in_words(local_client: LocalLlmClient) -> None:
    spec = ToolSpec("set_director_plan", "Submit the next plan.", PLAN)
    request = LlmRequest(
        (
            ChatMessage("system", 'You chat with the player. Reply in words: {"reply": "<text>"}.'),
            ChatMessage("user", "Tell me a short story about a brave knight."),
        ),
        tools=(spec,),
        tool_choice="auto",
        max_tokens=60,
        temperature=0.0,
    )
    chunks = list(local_client.stream(request))
    texts = [c.content for c in chunks if c.content]
    calls = [c.tool_call for c in chunks if c.tool_call]
    if calls:  # the model chose the tool: nothing was streamed as words
        assert not texts
        pytest.skip("the model called the tool for this prompt")
    assert len(texts) > 1, "the reply came piece by piece, not as one chunk at the end"
    assert "{" not in texts[0] and '"reply"' not in "".join(texts)
