"""Let ``python -m game.eval decisions --backend NAME`` (any entry of the backend registry) measure the LLM
backends through the exact path the game uses: the ``Director`` role and its request fitted to the model's
window (``AgentPlanSource``), the forced ``set_director_plan`` tool, the director's validation, and for
``make eval`` the guard. A local model is warmed first as the game warms it at startup (its prompt prefix
evaluated), so the suite scores decisions, not the one cold start."""

from __future__ import annotations

from coreai.llm.registry import BACKENDS
from coreai.settings import Settings, load_settings
from game.ai.backends import build_backends
from game.ai.director_agent import AgentPlanSource, PlanCapture, install_director_tools
from game.director.events import EventRegistry
from game.director.source import PlanSource
from game.eval.decisions import register_backend
from game.sim.prefabs import PrefabRegistry


def agent_source(name: str, settings: Settings | None = None) -> PlanSource:
    from coreai.runtime import CoreAiRuntime

    s = settings or load_settings()
    s = s.model_copy(
        update={"llm": s.llm.model_copy(update={"backends": {"Creator": name}, "default_backend": name})}
    )
    setup = build_backends(s)
    if name not in setup.registry:
        raise RuntimeError(f"backend '{name}' is unavailable: {setup.reasons.get(name, 'not configured')}")
    runtime = CoreAiRuntime(s, backends=setup.registry)
    capture = PlanCapture()
    prefabs = PrefabRegistry.load()
    events = EventRegistry().names()
    install_director_tools(runtime, prefabs.regular, events, capture)
    source = AgentPlanSource(runtime, name, capture)
    client = setup.registry.get(name)
    if callable(getattr(client, "prefill", None)):
        from game.ai.warmup import neutral_request, warm_prefix

        wait_ready = getattr(client, "wait_ready", None)
        if callable(wait_ready):
            wait_ready(120.0)
        warm_prefix(runtime, client, source.task(neutral_request(list(prefabs.regular), list(events))))
    return source


def register_all() -> None:
    for name in BACKENDS.names():
        register_backend(name, lambda n=name: agent_source(n))  # type: ignore[misc]
