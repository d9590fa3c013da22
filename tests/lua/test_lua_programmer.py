"""The Programmer self-heal loop: error -> repair -> success under one trace id, give-up after the cap,
events, saved versions; with a scripted LlmClient (orchestration) and with the real GGUF model."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import pytest
from lua_fakehost import FakeHost

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.types import LlmChunk, LlmRequest, LlmResult
from coreai.lua.manager import ModManager
from coreai.lua.programmer import (
    PROGRAMMER_DEMO_TASK,
    LuaExecutionEvent,
    LuaExecutionFailed,
    LuaExecutionSucceeded,
    ProgrammerSettings,
    extract_lua,
    programmer_demo_script,
    run_programmer_task,
)
from coreai.paths import ASSETS_DIR, PROMPTS_DIR

SYSTEM = "You are the Programmer. Reply with one ```lua block."


class ScriptedLlm:
    """Answers with the given replies in order (an LlmError instance is raised instead)."""

    name = "scripted"

    def __init__(self, replies: Sequence[str | LlmError]) -> None:
        self.replies = list(replies)
        self.requests: list[LlmRequest] = []

    def complete(self, request: LlmRequest) -> LlmResult:
        self.requests.append(request)
        reply = self.replies.pop(0)
        if isinstance(reply, LlmError):
            raise reply
        return LlmResult(content=reply, backend=self.name)

    def stream(self, request: LlmRequest) -> Iterator[LlmChunk]:
        yield LlmChunk(content=self.complete(request).content, finish_reason="stop")


def test_demo_script_repairs_once_and_spawns_the_ring(manager: ModManager, host: FakeHost) -> None:
    llm = ScriptedLlm(programmer_demo_script())
    seen: list[LuaExecutionEvent] = []
    outcome = run_programmer_task(
        PROGRAMMER_DEMO_TASK, llm=llm, runner=manager, system_prompt=SYSTEM, subscribers=[seen.append]
    )
    assert outcome.ok and outcome.attempts == 2
    assert outcome.result is not None and outcome.result.values == [8]
    assert outcome.result.reports == ["spawned 8 grunts in a ring around the player"]
    # one trace id for everything: requests, events, executions
    assert {r.trace_id for r in llm.requests} == {outcome.trace_id}
    assert [type(e) for e in seen] == [LuaExecutionFailed, LuaExecutionSucceeded]
    assert all(e.trace_id == outcome.trace_id for e in seen)
    failed = seen[0]
    assert isinstance(failed, LuaExecutionFailed)
    assert failed.will_retry and failed.error_kind == "runtime" and "programmer:6:" in failed.error
    # the repair prompt carried the code and the error
    repair = llm.requests[1].messages[-1].content
    assert "fix_this_lua" in repair and "s.player_x" in repair and failed.error in repair
    assert llm.requests[0].role == "Programmer" and llm.requests[0].messages[0].content == SYSTEM
    # the world: 8 grunts on a circle of radius 160 around the player
    grunts = [e for e in host.entities.values() if e.prefab == "grunt"]
    assert len(grunts) == 8
    for g in grunts:
        assert math.hypot(g.x - 1600.0, g.y - 1200.0) == pytest.approx(160.0)
    # saved as a version; the execution log carries the trace id
    success = seen[1]
    assert isinstance(success, LuaExecutionSucceeded) and success.version == outcome.version == 1
    saved = manager.versions.files("programmer", 1)["main.lua"]
    assert saved == outcome.code and "p.x" in saved
    assert manager.versions_of("programmer")[0].status == "good"
    assert any(e.trace_id == outcome.trace_id for e in manager.logs("programmer"))


def test_gives_up_after_the_repair_cap(manager: ModManager, host: FakeHost) -> None:
    broken = "```lua\nlocal p = game.state().player\nreturn p.x + nil\n```"
    llm = ScriptedLlm([broken] * 10)
    seen: list[LuaExecutionEvent] = []
    outcome = run_programmer_task(
        "do something", llm=llm, runner=manager, system_prompt=SYSTEM, subscribers=[seen.append]
    )
    assert not outcome.ok and outcome.attempts == 4 and len(llm.requests) == 4  # 1 try + 3 repairs
    assert [e.attempt for e in seen] == [1, 2, 3, 4]
    assert all(isinstance(e, LuaExecutionFailed) for e in seen)
    assert [e.will_retry for e in seen if isinstance(e, LuaExecutionFailed)] == [True, True, True, False]
    assert outcome.error and "arithmetic on a nil value" in outcome.error
    assert outcome.version is None and manager.versions_of("programmer") == []


def test_repair_cap_is_configurable(manager: ModManager) -> None:
    llm = ScriptedLlm(["```lua\nerror('no')\n```"] * 5)
    outcome = run_programmer_task(
        "x", llm=llm, runner=manager, system_prompt=SYSTEM, settings=ProgrammerSettings(max_repairs=1)
    )
    assert not outcome.ok and outcome.attempts == 2 and len(llm.requests) == 2


def test_reply_without_code_counts_as_an_attempt(manager: ModManager) -> None:
    llm = ScriptedLlm(["Sure! I would spawn them.", "```lua\nreturn 5\n```"])
    outcome = run_programmer_task("x", llm=llm, runner=manager, system_prompt=SYSTEM)
    assert outcome.ok and outcome.attempts == 2
    assert outcome.events[0].error_kind == "no_code"  # type: ignore[union-attr]
    assert "no ```lua code block" in llm.requests[1].messages[-1].content


def test_budget_kill_is_repaired_too(manager: ModManager) -> None:
    llm = ScriptedLlm(["```lua\nwhile true do end\n```", "```lua\nreturn 'fine'\n```"])
    outcome = run_programmer_task("x", llm=llm, runner=manager, system_prompt=SYSTEM)
    assert outcome.ok and outcome.events[0].error_kind == "budget"  # type: ignore[union-attr]


def test_llm_failure_ends_the_loop_cleanly(manager: ModManager) -> None:
    llm = ScriptedLlm([LlmError(LlmErrorCode.TIMEOUT, "slow", backend="scripted")])
    seen: list[LuaExecutionEvent] = []

    def broken_subscriber(event: LuaExecutionEvent) -> None:
        raise RuntimeError("subscriber bug")

    outcome = run_programmer_task(
        "x", llm=llm, runner=manager, system_prompt=SYSTEM, subscribers=[broken_subscriber, seen.append]
    )
    assert not outcome.ok and outcome.attempts == 1 and "timeout" in (outcome.error or "")
    assert len(seen) == 1 and isinstance(seen[0], LuaExecutionFailed) and seen[0].error_kind == "llm"


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("```lua\nreturn 1\n```", "return 1"),
        ("text\n```Lua\r\nprint(1)\n```\nmore ```lua\nreturn 2\n```", "print(1)"),
        ("```\nreturn 3\n```", "return 3"),
        ("no code here", None),
        ("local p = game.state().player\nreport(p.x)", "local p = game.state().player\nreport(p.x)"),
        ("coreai_world_spawn('grunt', 1, 2)", "coreai_world_spawn('grunt', 1, 2)"),
        ("Sure, here it is: spawn grunts", None),
        ("```lua\n\n```", None),
    ],
)
def test_extract_lua(reply: str, code: str | None) -> None:
    assert extract_lua(reply) == code


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_loop_with_the_real_local_model(manager: ModManager) -> None:
    """The real 135M GGUF model rarely writes working Lua; the loop must still end cleanly either way."""
    from coreai.llm.config import LocalLlmConfig
    from coreai.llm.local import LocalLlmClient

    model = ASSETS_DIR / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    if not model.is_file():
        pytest.skip("model file not fetched (make model)")
    config = LocalLlmConfig.model_validate({"model_path": str(model), "n_ctx": 2048, "max_tokens": 160})
    client = LocalLlmClient(config)
    try:
        client.wait_ready(120)
        system = (PROMPTS_DIR / "roles" / "Programmer.md").read_text(encoding="utf-8")
        seen: list[LuaExecutionEvent] = []
        outcome = run_programmer_task(
            PROGRAMMER_DEMO_TASK,
            llm=client,
            runner=manager,
            system_prompt=system,
            subscribers=[seen.append],
            settings=ProgrammerSettings(max_tokens=160),
        )
    finally:
        client.close()
    assert 1 <= outcome.attempts <= 4 and len(seen) == outcome.attempts
    assert all(e.trace_id == outcome.trace_id for e in seen)
    assert isinstance(seen[-1], LuaExecutionSucceeded) == outcome.ok
    if not outcome.ok:
        assert isinstance(seen[-1], LuaExecutionFailed) and not seen[-1].will_retry
