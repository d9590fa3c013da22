"""The real director on an OpenAI-compatible backend that misbehaves (a fault server on 127.0.0.1): every
failure is counted, no invalid command reaches the game, and the previous plan keeps running."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coreai.llm.config import OpenAILlmConfig
from coreai.llm.openai_backend import OpenAIBackend
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings
from game.ai.director_agent import AgentPlanSource, PlanCapture, install_director_tools
from game.director.director import Director
from game.sim.player import PlayerInput
from game.sim.world import World

_spec = importlib.util.spec_from_file_location(
    "llm_fault_server", Path(__file__).resolve().parents[1] / "llm" / "llm_fault_server.py"
)
assert _spec is not None and _spec.loader is not None
faults: Any = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("llm_fault_server", faults)
_spec.loader.exec_module(faults)

SETTINGS = Settings.model_validate(
    {"llm": {"default_backend": "openai", "backends": {}, "timeout_s": 3, "retry_attempts": 0}}
)


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    s = faults.FaultServer()
    yield s
    s.stop()


def directed(server: Any, scenario: str) -> tuple[Director, World, CoreAiRuntime]:
    cfg = OpenAILlmConfig(base_url=server.base_url, model=scenario, read_timeout_s=1.0)
    runtime = CoreAiRuntime(SETTINGS, backends={"openai": OpenAIBackend(cfg)})
    capture = PlanCapture()
    source = AgentPlanSource(runtime, "openai", capture)
    director = Director("openai", seed=1, sources=(source,))
    install_director_tools(runtime, ["grunt", "runner", "spitter", "tank"], director.events.names(), capture)
    world = World(seed=1, spawner=director.spawner)
    world.player.hp = 1e9
    return director, world, runtime


def run_until_answered(director: Director, world: World, runtime: CoreAiRuntime, n: int = 1) -> None:
    import time

    deadline = time.monotonic() + 20
    while director.accepted + director.rejected + director.failed + director.superseded < n:
        assert time.monotonic() < deadline, "the director never heard back"
        world.step(PlayerInput())
        director.on_tick(world)
        runtime.drain()
        time.sleep(0.002)


@pytest.mark.real_llm
@pytest.mark.timeout(60)
def test_a_good_plan_from_the_server_is_applied(server: Any) -> None:
    director, world, runtime = directed(server, "director-ok")
    try:
        run_until_answered(director, world, runtime)
        assert director.accepted == 1 and director.backend == "openai"
        assert director.knobs.mix["runner"] > 2.0  # moved toward 4.0, clamped to the per-plan step
    finally:
        runtime.close()


@pytest.mark.real_llm
@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "scenario, counter",
    [
        ("director-fake-prefab", "rejected"),
        ("director-bad-types", "rejected"),
        ("server-error", "failed"),
        ("malformed-json", "failed"),
        ("hang", "superseded"),  # a reply that misses its time is superseded, not failed
        ("huge", "failed"),
        ("rate-limited", "failed"),
    ],
)
def test_a_faulty_reply_is_counted_and_the_previous_plan_keeps_running(
    server: Any, scenario: str, counter: str
) -> None:
    director, world, runtime = directed(server, scenario)
    try:
        knobs = director.knobs
        enemies_before = set(world.enemies.view("id").tolist())
        run_until_answered(director, world, runtime)
        assert getattr(director, counter) == 1 and director.accepted == 0, director.last_error
        assert director.knobs == knobs, "the previous plan keeps running"
        prefabs = {world.prefabs.names[int(k)] for k in world.enemies.view("kind")}
        assert "dragon_king" not in prefabs and prefabs <= set(world.prefabs.names)
        assert enemies_before <= set(world.enemies.view("id").tolist()) | {0}
        assert director.last_error
    finally:
        runtime.close()


def test_the_directors_first_call_may_pay_a_cold_prompt(server: Any) -> None:
    """The first decision's model call may take ``COLD_DEADLINE_S`` (past a shorter ``[llm] timeout_s``);
    later ones the setting, and the director supersedes them at the deadline from their measured latency."""
    from game.ai.director_agent import COLD_DEADLINE_S, MAX_DEADLINE_S
    from game.director.source import PlanRequest

    director, world, runtime = directed(server, "director-ok")
    try:
        source = director._sources["openai"]
        assert isinstance(source, AgentPlanSource)
        req = PlanRequest(seq=1, trace_id="t1", tick=0, situation=director.situation(world))
        assert source.task(req).timeout_s == COLD_DEADLINE_S == source.deadline_s  # [llm] timeout_s is 3
        source.observe_latency(2.0)
        assert source.task(req).timeout_s is None, "measured: the setting applies again"
        assert source.deadline_s <= MAX_DEADLINE_S
    finally:
        runtime.close()
