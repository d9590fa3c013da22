"""The director's LLM path end to end against a real ``python -m llama_cpp.server``: the Creator agent gets
the situation, calls the forced ``set_director_plan`` tool over the OpenAI protocol, and the director
validates and applies (or rejects and counts) what came back, all while the game ticks."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_testkit import LlamaServer

from coreai.llm.config import OpenAILlmConfig
from coreai.llm.openai_backend import OpenAIBackend
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings
from game.ai.director_agent import AgentPlanSource, PlanCapture, install_director_tools
from game.director.director import Director
from game.sim.player import PlayerInput
from game.sim.world import World


@pytest.fixture(scope="module")
def big_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    server = LlamaServer(tmp_path_factory.mktemp("director-server") / "server.log", n_ctx=4096)
    try:
        server.wait_ready(60)
        yield server
    finally:
        server.stop()


@pytest.mark.real_llm
@pytest.mark.timeout(180)
def test_the_director_decides_through_a_real_openai_compatible_server(
    big_server: LlamaServer, saves_dir: Path
) -> None:
    settings = Settings.model_validate(
        {"llm": {"default_backend": "openai", "backends": {}, "timeout_s": 120}}
    )
    cfg = OpenAILlmConfig(base_url=big_server.base_url, model="smollm2", read_timeout_s=120)
    runtime = CoreAiRuntime(settings, backends={"openai": OpenAIBackend(cfg)})
    capture = PlanCapture()
    director = Director("openai", seed=2, sources=(AgentPlanSource(runtime, "openai", capture),))
    install_director_tools(runtime, ["grunt", "runner", "spitter", "tank"], director.events.names(), capture)
    world = World(seed=2, spawner=director.spawner)
    world.player.hp = 1e9
    knobs = director.knobs
    try:
        deadline = time.monotonic() + 150
        while director.accepted + director.rejected + director.failed == 0:
            why = (director.superseded, director.last_error, world.time)
            assert time.monotonic() < deadline, f"no answer from the server (superseded, error, t): {why}"
            if world.phase == "upgrade":  # a wave ended (30 s of game time): pick, as a player would
                world.choose_upgrade(world.choices[0])
            world.step(PlayerInput())
            director.on_tick(world)
            runtime.drain()
            time.sleep(1 / 60)  # real time: a reply older than 25 s of game time is superseded by design
        assert director.backend == "openai" or director.failed == 1
        if director.accepted:
            assert director.last_plan is not None and director.last_reason
        else:
            assert director.knobs == knobs and director.last_error, "a refused reply leaves the plan running"
        assert world.tick > 0 and world.phase in ("playing", "upgrade"), "the game went on meanwhile"
    finally:
        runtime.close()
