"""Startup work off the main thread: find local model servers, then warm the local model.

``start_background(session)`` starts one daemon thread that

1. probes loopback for OpenAI-compatible servers (``coreai.llm.discovery``, 300 ms at most) and hands what
   answered to the main thread, which offers each model as a backend and a director mode
   (``game.ai.discovered``);
2. waits for the local model to load, then evaluates the prompt prefixes the game will send first, each on
   its role's own llama.cpp context: one real director decision (the ``Director`` prefix; its latency seeds
   the decision deadline), then the first turn of Chat and of the Merchant, built exactly as the chat panel
   builds them (``game.ai.chat.chat_request``), with a one-token reply. After that a decision or a chat
   reply costs only its own tail and reply.

Nothing here raises: a warm-up that fails is logged, and the game simply pays the cold prompt later.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from loguru import logger

from coreai.commands import CallOnMain
from coreai.llm.discovery import KNOWN_SERVERS, KnownServer, discover
from coreai.llm.types import LlmRequest
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.tools.base import canonical_order
from game.ai.director_agent import AgentPlanSource, warm_request
from game.director.pacing import PacingState
from game.director.source import DirectorSituation, PlanRequest
from game.director.telemetry import GameSessionSnapshot

if TYPE_CHECKING:
    from game.ai.session import AiSession

_log = logger.bind(feature="llm", trace_id="warmup")
CHAT_ROLES = ("Chat", "Merchant")


def start_background(session: AiSession, servers: Sequence[KnownServer] = KNOWN_SERVERS) -> threading.Thread:
    thread = threading.Thread(target=_run, args=(session, tuple(servers)), name="ai-startup", daemon=True)
    thread.start()
    return thread


def _run(session: AiSession, servers: tuple[KnownServer, ...]) -> None:
    if servers:
        try:
            found = discover(servers)
        except Exception as exc:  # never let discovery stop the warm-up
            _log.warning("server discovery failed: {}", exc)
            found = []
        if found:
            from game.ai.discovered import offer_servers

            session.runtime.mainloop.post(
                CallOnMain(fn=lambda: offer_servers(session, found), label="discovered-servers")
            )
    warm_up(session)


def neutral_request(prefabs: Sequence[str], events: Sequence[str]) -> PlanRequest:
    situation = DirectorSituation(
        snapshot=GameSessionSnapshot(),
        intensity=0.0,
        pacing=PacingState.BUILD_UP,
        prefabs=list(prefabs),
        events=list(events),
    )
    return PlanRequest(seq=1, trace_id="warmup-director", tick=0, situation=situation)


def warm_up(session: AiSession, *, backend: str = "local") -> dict[str, float]:
    """Warm ``backend``'s prefixes (director, then the chat roles routed to it); seconds per prefix."""
    client = session.backends.registry.get(backend)
    wait_ready = getattr(client, "wait_ready", None)
    if client is None or not callable(wait_ready):
        return {}
    try:
        wait_ready(120.0)
    except Exception as exc:
        _log.warning("no warm-up: {}", exc)
        return {}
    spent: dict[str, float] = {}
    source = next((s for s in session.plan_sources if s.backend == backend), None)
    if isinstance(source, AgentPlanSource):
        req = neutral_request(session.prefabs.regular, session.director.events.names())
        spent["Director"] = warm_request(source, req)
    for role in CHAT_ROLES:
        if session.runtime.router.backend_for(role) == backend:
            spent[role] = warm_prefix(session.runtime, client, role)
    _log.info("warm-up done: {}", ", ".join(f"{r} {s:.1f}s" for r, s in spent.items()) or "nothing to warm")
    return spent


def warm_prefix(runtime: CoreAiRuntime, client: Any, role: str) -> float:
    """Evaluate the prompt of ``role``'s first chat turn on ``client`` (a one-token reply)."""
    from game.ai.chat import chat_request

    t0 = time.perf_counter()
    task: AiTaskRequest = chat_request(role, "Hello!")
    try:
        prompt, tools, available = runtime.orchestrator.compose(task, f"warmup-{role}")
        specs = tuple(t.spec() for t in canonical_order(tools.values()) if t.name in available)
        forced = task.force_tool if any(s.name == task.force_tool for s in specs) else None
        client.complete(
            LlmRequest(
                prompt.messages,
                role=role,
                trace_id=f"warmup-{role}",
                tools=specs,
                tool_choice=forced or ("auto" if specs else "none"),
                max_tokens=1,
            )
        )
    except Exception as exc:  # a one-token reply is usually not valid JSON: only the prompt mattered
        _log.debug("warm-up of {} ended: {}", role, exc)
    return time.perf_counter() - t0
