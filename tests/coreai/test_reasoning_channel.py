"""Reasoning (``<think>`` spans, the reasoning channel) never reaches memory, commands, history or results."""

from __future__ import annotations

import json
from pathlib import Path

from coreai_fakes import FakeWorld, LoopThread

from coreai.events import EventBus
from coreai.llm.reasoning import split_reasoning
from coreai.llm.stub import StubItem, StubLlmClient, tool_reply
from coreai.llm.types import LlmResult
from coreai.memory import MemoryStore
from coreai.orchestrator import Orchestrator
from coreai.requests import AiTaskRequest
from coreai.tools.memory_tool import memory_tool
from coreai.tools.world_tools import world_command_tool

SECRET = "SECRET-CHAIN-OF-THOUGHT"


def test_split_reasoning_variants():
    assert split_reasoning("<think>plan</think>Hello") == ("Hello", "plan")
    assert split_reasoning("a <THINK>x</THINK> b <think>y</think>") == ("a  b", "x\ny")
    assert split_reasoning("half a thought</think>Answer") == ("Answer", "half a thought")
    assert split_reasoning("Answer <think>cut off mid") == ("Answer", "cut off mid")
    assert split_reasoning("plain") == ("plain", "")


def test_reasoning_never_reaches_memory_commands_history_or_result(
    saves_dir: Path, mainloop, world: FakeWorld
):
    loop = LoopThread(mainloop).start()
    try:
        store = MemoryStore()
        bus = EventBus()
        script: list[StubItem] = [
            LlmResult(
                content=f"<think>{SECRET} the player is weak</think>",
                reasoning=f"{SECRET} (channel)",
                tool_calls=tool_reply(
                    ("memory", {"action": "append", "content": f"likes runners <think>{SECRET}</think>"}),
                    ("world_command", {"action": "spawn", "prefab": "grunt", "x": 10, "y": 10}),
                ).tool_calls,
            ),
            LlmResult(content=f"<think>{SECRET}</think>Sent one grunt.", reasoning=SECRET),
            f"<think>{SECRET}</think>Hello there.",
        ]
        stub = StubLlmClient(script)
        orch = Orchestrator(
            stub,
            tools=[memory_tool(store), world_command_tool(mainloop.bindings)],
            main=mainloop,
            memory=store,
            events=bus,
        )
        result = orch.run(AiTaskRequest(role="Creator", hint="do your thing"))
        chat = orch.run(AiTaskRequest(role="Chat", hint="hi"))
    finally:
        loop.stop()

    assert result.content == "Sent one grunt." and chat.content == "Hello there."
    assert store.memory("Creator") == "likes runners"
    saved = json.dumps([json.loads(p.read_text()) for p in (saves_dir / "agent_memory").glob("*.json")])
    assert SECRET not in saved
    assert store.history("Chat")[1][-1].content == "Hello there."
    assert [c[0] for c in world.calls] == ["spawn"] and SECRET not in repr(world.calls)
    # nothing the model saw later (its own history) carries the reasoning either
    for request in stub.requests[1:]:
        assert all(SECRET not in m.content and SECRET not in repr(m.tool_calls) for m in request.messages)
    assert all(SECRET not in repr(e) for e in bus.history())
    assert SECRET not in repr(result) and SECRET not in repr(chat)
