"""The startup warm-up prefills the director's prefix as the game will send it. That prefix names the
director events mods offer, and the startup mods load with the first run: a warm-up built before them (the
model is ready while the menu shows) prefilled a prefix no request ever matched (seen in a real window: 1,372
tokens warmed, 1,377 sent, the shipped ``meteor_shower`` mod's ``meteor_storm`` the difference)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from coreai.llm.local import LocalLlmClient
from coreai.settings import Settings
from game.ai.director_agent import AgentPlanSource
from game.ai.session import AiSession
from game.ai.warmup import wait_director_warm
from game.director.source import PlanRequest
from game.options import LaunchOptions


@pytest.mark.real_llm
@pytest.mark.timeout(180)
def test_the_warm_up_prefills_the_prefix_the_director_sends(
    saves_dir: Path, model_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str, float]] = []
    real_prefill = LocalLlmClient.prefill

    def recording(self: LocalLlmClient, request: Any, timeout_s: float = 300.0) -> Any:
        seen.append((request.role, request.messages[0].content, time.monotonic()))
        return real_prefill(self, request, timeout_s)

    monkeypatch.setattr(LocalLlmClient, "prefill", recording)
    monkeypatch.setenv("ARENA_DISCOVER_PORTS", "")
    settings = Settings.model_validate({"llm": {"default_backend": "local", "backends": {}}})
    session = AiSession(
        LaunchOptions(headless=True, director="local"), settings=settings, configure_logs=False
    )
    try:
        session.backends.registry["local"].wait_ready(60)  # type: ignore[attr-defined]
        time.sleep(2.0)  # the model is ready and the menu shows: no run yet
        assert not [s for s in seen if s[0] == "Director"], "no director prefill before the mods load"
        assert not session.director_warm.is_set()
        world = session.world_factory(1)
        started = time.monotonic()
        session.on_run_start(world)  # the first run loads the startup mods
        assert "meteor_storm" in session.director.events.names()
        deadline = time.monotonic() + 60
        while not [s for s in seen if s[0] == "Director"] and time.monotonic() < deadline:
            time.sleep(0.05)
        ((_, warmed, at),) = [s for s in seen if s[0] == "Director"]
        assert at >= started
        assert wait_director_warm(session, "local", timeout_s=60), "a headless run waits for exactly this"
        source = next(s for s in session.plan_sources if isinstance(s, AgentPlanSource))
        req = PlanRequest(seq=1, trace_id="t", tick=0, situation=session.director.situation(world))
        prompt, _, _ = session.runtime.orchestrator.compose(source.task(req), "t")
        assert warmed == prompt.messages[0].content, "the warmed prefix is the one the director sends"
        assert "meteor_storm" in warmed
    finally:
        session.close()


def test_waiting_for_the_directors_prefix_is_bounded_and_skips_servers() -> None:
    warm = threading.Event()
    session: Any = SimpleNamespace(
        director_warm=warm,
        backends=SimpleNamespace(registry={"local": SimpleNamespace(prefill=print), "openai": object()}),
    )
    t0 = time.monotonic()
    assert wait_director_warm(session, "openai", timeout_s=5.0), "a server is not prefilled: no wait"
    assert wait_director_warm(session, "missing", timeout_s=5.0)
    assert time.monotonic() - t0 < 2.0
    assert not wait_director_warm(session, "local", timeout_s=0.2), "still cold: the run starts anyway"
    warm.set()
    assert wait_director_warm(session, "local", timeout_s=5.0)
