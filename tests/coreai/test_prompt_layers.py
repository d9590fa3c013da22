"""Layered prompts: a byte-identical prefix per role, the tail in its fixed order, the override chain."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from coreai.history import HistoryEntry
from coreai.llm.stub import StubLlmClient
from coreai.memory import MemoryStore
from coreai.orchestrator import Orchestrator
from coreai.paths import PROMPTS_DIR
from coreai.prompts import (
    BUILTIN_ROLES,
    SECTION_INSTRUCTIONS,
    SECTION_MEMORY,
    SECTION_TOOLS,
    SECTION_WORLD,
    PromptComposer,
    PromptLibrary,
)
from coreai.requests import AiTaskRequest
from coreai.tools.base import Tool


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")
    zeta: int = 0
    alpha: str = ""


def _tool(name: str) -> Tool:
    return Tool(
        name=name, description=f"The {name} tool.", args_model=_Args, invoke=lambda a, c: {"ok": name}
    )


def _orchestrator(saves_dir: Path, stub: StubLlmClient, world: dict) -> Orchestrator:
    return Orchestrator(
        stub,
        tools=[_tool("world_command"), _tool("memory"), _tool("get_game_state")],
        memory=MemoryStore(),
        world_state=lambda trace_id: world,
    )


def test_prefix_is_byte_identical_across_requests_of_a_role(saves_dir: Path):
    stub = StubLlmClient(["one", "two", "three"])
    world = {"wave": 1, "player": {"hp": 100}}
    orch = _orchestrator(saves_dir, stub, world)
    orch.run(AiTaskRequest(role="Creator", hint="first"))
    orch.memory.write("Creator", "player hates spitters")  # type: ignore[union-attr]
    world["wave"] = 7
    orch.run(
        AiTaskRequest(
            role="Creator", hint="second", instructions="Only runners.", allowed_tools=["world_command"]
        )
    )
    orch.run(AiTaskRequest(role="Creator", hint="third", trace_id="fixed-trace"))
    prefixes = [r.messages[0].content.encode("utf-8") for r in stub.requests]
    assert prefixes[0] == prefixes[1] == prefixes[2]
    assert all(r.messages[0].role == "system" for r in stub.requests)
    # the volatile parts really did differ, and none of them leaked into the prefix
    assert b"hates spitters" not in prefixes[0] and b"Only runners" not in prefixes[0]
    assert b'"wave"' not in prefixes[0]
    assert any("hates spitters" in m.content for m in stub.requests[1].messages[1:])


def test_prefix_layers_in_order_and_tool_contract_canonical(saves_dir: Path):
    composer = PromptComposer(PromptLibrary())
    tools_a = [_tool("world_command"), _tool("memory"), _tool("get_game_state")]
    tools_b = list(reversed(tools_a))
    prefix = composer.prefix("Creator", "Builder layer: be bold.", tools_a)
    assert prefix == composer.prefix("Creator", "Builder layer: be bold.", tools_b)
    universal = PromptLibrary().universal()
    role = PromptLibrary().role("Creator")
    i_uni, i_role = prefix.index(universal), prefix.index(role)
    i_extra, i_tools = prefix.index("Builder layer: be bold."), prefix.index("\n\n# Tools\n")
    assert i_uni < i_role < i_extra < i_tools
    positions = [prefix.index(f"### {n}\n") for n in ("get_game_state", "memory", "world_command")]
    assert positions == sorted(positions)
    schema_line = next(line for line in prefix.splitlines() if line.startswith("Arguments (JSON schema): "))
    schema = schema_line.removeprefix("Arguments (JSON schema): ")
    assert schema == json.dumps(json.loads(schema), sort_keys=True, separators=(",", ":"))
    assert schema.index('"alpha"') < schema.index('"zeta"')


def test_tail_order_and_user_message_last():
    composer = PromptComposer(PromptLibrary())
    composed = composer.compose(
        role="Merchant",
        hint="What do you sell?",
        tools=[_tool("memory"), _tool("world_command")],
        instructions="Mention the sale.",
        memory="buys speed",
        available={"memory"},
        world_state={"wave": 3},
        summary="- Player: hello",
        history=[HistoryEntry(role="user", content="hi"), HistoryEntry(role="assistant", content="welcome")],
    )
    msgs = composed.messages
    assert composed.tail_sections == (SECTION_INSTRUCTIONS, SECTION_MEMORY, SECTION_TOOLS, SECTION_WORLD)
    assert msgs[1].content.startswith("## Conversation Summary") and msgs[2].content == "hi"
    assert msgs[3].content == "welcome"
    tail = [m.content.split("\n", 1)[0] for m in msgs[4:-1]]
    assert tail == [SECTION_INSTRUCTIONS, SECTION_MEMORY, SECTION_TOOLS, SECTION_WORLD]
    tools_section = msgs[6].content
    assert "Available now: memory." in tools_section and "do not call): world_command" in tools_section
    assert msgs[-1].role == "user" and msgs[-1].content == "What do you sell?"


def test_sections_are_left_out_when_the_role_has_no_such_context():
    composed = PromptComposer(PromptLibrary()).compose(role="Chat", hint="hey")
    assert composed.tail_sections == ()
    assert [m.role for m in composed.messages] == ["system", "user"]


def test_override_chain_saves_then_shipped_then_builtin(saves_dir: Path, tmp_path: Path):
    shipped = tmp_path / "shipped"
    (shipped / "roles").mkdir(parents=True)
    (shipped / "roles" / "Creator.md").write_text("Shipped creator.\r\n", encoding="utf-8")
    (shipped / "universal.md").write_text("Shipped universal.", encoding="utf-8")
    overrides = saves_dir / "prompts"
    lib = PromptLibrary([overrides, shipped])
    assert lib.role("Creator") == "Shipped creator."
    assert lib.role("Analyzer") == BUILTIN_ROLES["Analyzer"]  # neither folder has it
    assert lib.lookup("roles/Analyzer.md", "x")[1] == "built-in"
    (overrides / "roles").mkdir(parents=True)
    (overrides / "roles" / "Creator.md").write_text("Player's own creator.", encoding="utf-8")
    assert lib.role("Creator") == "Player's own creator."
    (overrides / "roles" / "Creator.md").write_bytes(b"\xff\xfe broken")  # unreadable: next layer
    assert lib.role("Creator") == "Shipped creator."
    assert lib.universal() == "Shipped universal."


def test_default_chain_uses_saves_prompts_over_the_repository(saves_dir: Path):
    lib = PromptLibrary()
    assert lib.search_dirs() == [saves_dir / "prompts", PROMPTS_DIR]
    shipped = lib.role("Programmer")
    (saves_dir / "prompts" / "roles").mkdir(parents=True)
    (saves_dir / "prompts" / "roles" / "Programmer.md").write_text("Modded programmer.", encoding="utf-8")
    assert lib.role("Programmer") == "Modded programmer." != shipped


def test_shipped_prompt_files_exist_and_are_substantial():
    assert len((PROMPTS_DIR / "universal.md").read_text(encoding="utf-8")) > 400
    for role in ("Creator", "Programmer", "Analyzer", "Merchant", "Chat"):
        text = (PROMPTS_DIR / "roles" / f"{role}.md").read_text(encoding="utf-8")
        assert len(text) > 300, role
    assert "```lua" in (PROMPTS_DIR / "roles" / "Programmer.md").read_text(encoding="utf-8")
    assert "world_command" in (PROMPTS_DIR / "roles" / "Creator.md").read_text(encoding="utf-8")
