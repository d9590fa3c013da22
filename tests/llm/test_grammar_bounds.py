"""Large length/item bounds must never reach llama.cpp's grammar: past ~2,000 it fails to parse the grammar
and the whole process dies with SIGSEGV (seen with the memory tool's 4,000-character ``content``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from coreai.llm.replies import grammar_schema

REPO = Path(__file__).resolve().parents[2]


def test_large_bounds_are_dropped_small_ones_kept() -> None:
    schema = {
        "type": "object",
        "properties": {
            "content": {"type": "string", "maxLength": 4000},
            "reason": {"type": "string", "minLength": 1, "maxLength": 120},
            "items": {"type": "array", "maxItems": 5000, "items": {"type": "string", "maxLength": 3000}},
        },
    }
    out = grammar_schema(schema)
    props = out["properties"]
    assert "maxLength" not in props["content"]
    assert props["reason"] == {"type": "string", "minLength": 1, "maxLength": 120}
    assert "maxItems" not in props["items"] and "maxLength" not in props["items"]["items"]
    assert schema["properties"]["content"]["maxLength"] == 4000, "the caller's schema is not modified"


SCRIPT = """
from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.types import ChatMessage, LlmRequest, ToolSpec
client = LocalLlmClient(LocalLlmConfig(n_ctx=1024))
note = ToolSpec("memory", "write a note", {"type": "object", "required": ["content"],
    "properties": {"content": {"type": "string", "maxLength": 4000}}})
req = LlmRequest(messages=(ChatMessage("user", "remember that I like tanks"),), tools=(note,), max_tokens=24)
result = client.complete(req)
print("completed", result.finish_reason)
client.close()
"""


@pytest.mark.real_llm
def test_a_tool_with_a_huge_string_bound_does_not_crash_the_process() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, f"exit {out.returncode}: {out.stderr[-500:]}"
    assert "completed" in out.stdout


def test_bounded_numbers_become_a_grid_of_choices() -> None:
    out = grammar_schema({"type": "number", "minimum": 0.25, "maximum": 3.0})
    assert out["enum"][0] == 0.25 and out["enum"][-1] == 3.0 and len(out["enum"]) == 11
    assert all(0.25 <= v <= 3.0 for v in out["enum"])
    unbounded = {"type": "number", "minimum": 0}
    assert grammar_schema(unbounded) == unbounded
