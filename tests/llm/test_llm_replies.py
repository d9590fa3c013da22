"""Reply handling without a model: think splitting, structured parsing, grammar schemas, prompt building."""

from __future__ import annotations

import copy
import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from llama_cpp.llama_grammar import LlamaGrammar
from llm_testkit import DirectorPlan
from pydantic import ValidationError

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.local_prompt import finish_reply, prepare_prompt, tool_choice_schema
from coreai.llm.replies import (
    ThinkSplitter,
    check_tool_calls,
    final_text,
    grammar_schema,
    parse_json_object,
    parse_structured,
    with_system_note,
)
from coreai.llm.types import ChatMessage, LlmRequest, LlmResult, ToolCall, ToolSpec

TEXT = "Hello <think>should I spawn? yes</think>Spawning two grunts.<think>done</think> Bye"
SPAWN = ToolSpec(
    "spawn",
    "Spawn enemies",
    {
        "type": "object",
        "required": ["prefab", "count"],
        "properties": {
            "prefab": {"enum": ["grunt", "archer"]},
            "count": {"type": "integer", "minimum": 1, "maximum": 6},
        },
    },
)


def _split_in_pieces(text: str, cuts: list[int]) -> tuple[str, str]:
    splitter = ThinkSplitter()
    content, reasoning = "", ""
    bounds = [0, *sorted(set(cuts)), len(text)]
    for a, b in itertools.pairwise(bounds):
        c, r = splitter.feed(text[a:b])
        content, reasoning = content + c, reasoning + r
    c, r = splitter.flush()
    return content + c, reasoning + r


def test_think_spans_go_to_reasoning_at_every_cut_point() -> None:
    expected = ("Hello Spawning two grunts. Bye", "should I spawn? yesdone")
    for cut in range(len(TEXT) + 1):
        assert _split_in_pieces(TEXT, [cut]) == expected, cut


@given(st.lists(st.integers(0, len(TEXT)), max_size=12))
def test_think_splitting_does_not_depend_on_chunking(cuts: list[int]) -> None:
    assert _split_in_pieces(TEXT, cuts) == _split_in_pieces(TEXT, [])


def test_unclosed_think_and_bare_closing_tag_count_as_reasoning() -> None:
    assert _split_in_pieces("ok <think>still thinking", [5]) == ("ok ", "still thinking")
    # a template that opened the think span in the prompt: only the closing tag shows up
    thought = "weighing options"
    assert final_text(f"{thought}</think>Raise pressure.", "") == ("Raise pressure.", thought)
    assert _split_in_pieces("a < b and <thin", []) == ("a < b and <thin", "")


def test_parse_structured_accepts_a_valid_plan_even_in_fences() -> None:
    fenced = LlmResult(content=f"```json\n{_plan_json(spawn_per_wave=4)}\n```", backend="t")
    assert parse_structured(fenced, DirectorPlan).spawn_per_wave == 4


def _plan_json(**changes: object) -> str:
    plan = {"pressure": "hold", "spawn_per_wave": 1, "elite_percent": 0, "prefabs": ["grunt"], "reason": "ok"}
    return json.dumps({**plan, **changes})


@pytest.mark.parametrize(
    "content, problem",
    [
        (_plan_json(pressure="panic"), "pressure"),
        (_plan_json(spawn_per_wave=99), "spawn_per_wave"),
        (_plan_json(prefabs=["dragon_king"]), "prefabs"),
        (_plan_json(reason="x" * 81), "reason"),
        (_plan_json(extra=1), "extra"),
        (_plan_json()[:30], "DirectorPlan"),
        ("", "empty"),
    ],
)
def test_parse_structured_rejects_with_malformed_output(content: str, problem: str) -> None:
    with pytest.raises(LlmError) as info:
        parse_structured(LlmResult(content=content, backend="t"), DirectorPlan, trace_id="tr1")
    assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT
    assert problem in str(info.value) and info.value.trace_id == "tr1"


def test_grammar_schema_turns_small_integer_ranges_into_enums_without_touching_the_input() -> None:
    schema = DirectorPlan.model_json_schema()
    original = copy.deepcopy(schema)
    g = grammar_schema(schema)
    assert schema == original
    assert g["properties"]["spawn_per_wave"]["enum"] == list(range(13))
    assert g["properties"]["elite_percent"]["enum"] == list(range(51))
    assert g["properties"]["prefabs"]["maxItems"] == 3
    assert "enum" not in grammar_schema({"type": "integer", "minimum": 0, "maximum": 1000})
    open_range = {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 4}
    assert grammar_schema(open_range)["enum"] == [1, 2, 3]
    # the grammar llama.cpp builds from it only admits the listed values
    gbnf = LlamaGrammar.from_json_schema(json.dumps(g))._grammar
    rule = next(line for line in gbnf.splitlines() if line.startswith("spawn-per-wave ::="))
    assert rule.endswith('"11" | "12"') and '"13"' not in rule


def test_tool_choice_schema_hoists_defs_and_compiles_to_a_grammar() -> None:
    plan_tool = ToolSpec("set_plan", "Set the plan", DirectorPlan.model_json_schema())
    nested = ToolSpec(
        "nested",
        "Uses a $def",
        {
            "type": "object",
            "required": ["p"],
            "$defs": {"P": {"enum": ["a", "b"]}},
            "properties": {"p": {"$ref": "#/$defs/P"}},
        },
    )
    schema = tool_choice_schema((SPAWN, plan_tool, nested))
    assert "P" in schema["$defs"] and all(
        "$defs" not in o["properties"].get("arguments", {}) for o in schema["oneOf"]
    )
    assert [o["properties"].get("tool", {}).get("const") for o in schema["oneOf"]] == [
        "spawn",
        "set_plan",
        "nested",
        None,
    ]
    gbnf = LlamaGrammar.from_json_schema(json.dumps(grammar_schema(schema)))._grammar
    assert '\\"summon' not in gbnf and "spawn" in gbnf and "reply" in gbnf


def test_check_tool_calls_rejects_unknown_tools_and_non_object_arguments() -> None:
    check_tool_calls((ToolCall("1", "spawn", '{"prefab": "grunt"}'),), (SPAWN,), "t", None)
    for bad in (
        ToolCall("1", "summon_meteor", "{}"),
        ToolCall("2", "spawn", "[1, 2]"),
        ToolCall("3", "spawn", '{"prefab": '),
    ):
        with pytest.raises(LlmError) as info:
            check_tool_calls((bad,), (SPAWN,), "t", None)
        assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT


def test_system_note_keeps_the_prefix_byte_stable() -> None:
    base = [{"role": "system", "content": "You direct."}, {"role": "user", "content": "wave 1"}]
    a = with_system_note(base, "NOTE")
    b = with_system_note([base[0], {"role": "user", "content": "wave 2"}], "NOTE")
    assert a[0] == b[0] == {"role": "system", "content": "You direct.\n\nNOTE"}
    assert base[0]["content"] == "You direct."
    added = with_system_note([{"role": "user", "content": "hi"}], "NOTE")
    assert added[0] == {"role": "system", "content": "NOTE"}


def _request(**kw: object) -> LlmRequest:
    msgs = (
        ChatMessage("system", "You direct."),
        ChatMessage("user", "go"),
        ChatMessage("assistant", "", tool_calls=(ToolCall("c1", "spawn", '{"prefab": "grunt"}'),)),
        ChatMessage("tool", "spawned 1", tool_call_id="c1", name="spawn"),
    )
    return LlmRequest(messages=msgs, **kw)  # type: ignore[arg-type]


def test_prepare_prompt_modes_caps_and_tool_turns() -> None:
    text = prepare_prompt(_request(max_tokens=5000), 100, "t")
    assert text.mode == "text" and text.response_format is None and text.max_tokens == 100
    assert text.messages[2]["role"] == "assistant" and '"tool": "spawn"' in text.messages[2]["content"]
    assert text.messages[3] == {"role": "user", "content": "Result of tool spawn: spawned 1"}
    schema = prepare_prompt(_request(response_schema=DirectorPlan.model_json_schema()), 100, "t")
    assert schema.mode == "schema" and schema.response_format is not None
    assert schema.response_format["schema"]["properties"]["elite_percent"]["enum"][-1] == 50
    forced = prepare_prompt(_request(tools=(SPAWN,), tool_choice="spawn"), 100, "t")
    assert forced.mode == "tool" and forced.forced_tool == "spawn"
    assert "`spawn`" in forced.messages[0]["content"]
    auto = prepare_prompt(_request(tools=(SPAWN,)), 100, "t")
    assert auto.mode == "tool_choice" and not auto.streams_content
    assert prepare_prompt(_request(tools=(SPAWN,), tool_choice="none"), 100, "t").mode == "text"
    with pytest.raises(LlmError) as info:
        prepare_prompt(_request(tools=(SPAWN,), tool_choice="summon"), 100, "t")
    assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT


def test_finish_reply_per_mode() -> None:
    forced = prepare_prompt(_request(tools=(SPAWN,), tool_choice="spawn"), 100, "t")
    call = finish_reply(forced, '{"prefab": "grunt", "count": 2}', "", "stop", "t", None).tool_calls[0]
    assert call.name == "spawn" and json.loads(call.arguments) == {"prefab": "grunt", "count": 2}
    auto = prepare_prompt(_request(tools=(SPAWN,)), 100, "t")
    assert finish_reply(auto, '{"reply": "Not now."}', "", "stop", "t", None).content == "Not now."
    raw = '{"tool": "spawn", "arguments": {"prefab": "archer", "count": 1}}'
    picked = finish_reply(auto, raw, "", "stop", "t", None)
    assert picked.finish_reason == "tool_calls" and picked.tool_calls[0].name == "spawn"
    text = prepare_prompt(_request(), 100, "t")
    assert finish_reply(text, "<think>hmm</think> Hi", "", "stop", "t", None).reasoning == "hmm"
    cases = [
        (text, "  ", LlmErrorCode.EMPTY_RESPONSE),
        (auto, '{"tool": "summon", "arguments": {}}', LlmErrorCode.MALFORMED_OUTPUT),
        (forced, '{"prefab": "gr', LlmErrorCode.MALFORMED_OUTPUT),
        (auto, '{"other": 1}', LlmErrorCode.MALFORMED_OUTPUT),
    ]
    for prepared, raw, code in cases:
        with pytest.raises(LlmError) as info:
            finish_reply(prepared, raw, "", "length", "t", "tr")
        assert info.value.code is code, raw


def test_plan_model_is_strict() -> None:
    with pytest.raises(ValidationError):
        DirectorPlan(pressure="hold", spawn_per_wave=1, elite_percent=0, prefabs=["grunt"] * 4, reason="")


def test_a_raw_newline_inside_a_string_is_not_a_malformed_reply() -> None:
    """Seen from a real llama_cpp.server: the plan tool's arguments carried a raw newline in a free-text
    field ('Invalid control character'); that is still the model's object, not a broken reply."""
    raw = '{"pressure": "hold", "reason": "calm\nfor now\tok"}'
    got = parse_json_object(raw, "arguments", "openai", None)
    assert got == {"pressure": "hold", "reason": "calm\nfor now\tok"}
    with pytest.raises(LlmError) as info:
        parse_json_object('{"pressure": "hold", "reason": "unterminated', "arguments", "openai", None)
    assert info.value.code is LlmErrorCode.MALFORMED_OUTPUT
