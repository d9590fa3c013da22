"""Startup work off the main thread: find local model servers, then warm the local model.

``start_background(session)`` starts one daemon thread that

1. probes loopback for OpenAI-compatible servers (``coreai.llm.discovery``, 300 ms at most) and hands what
   answered to the main thread, which offers each model as a backend and a director mode
   (``game.ai.discovered``);
2. waits for the local model to load, then prefills the prompt prefixes the game will send first, each
   into its role's own llama.cpp context (``LocalLlmClient.prefill``): the ``Director``'s (once the startup
   mods, whose events it names, loaded with the first run; the chat roles go first while the menu shows),
   then the grounded talk turn of Chat and of the Merchant, built as the chat panel builds them
   (``game.talk.prompt.talk_request``: the role's rewrite system prompt is the stable prefix). A prefill
   runs behind every real request and gives way to one that arrives meanwhile, so it never delays a
   decision by more than one chunk of tokens. After it, a decision or a chat reply costs only its own tail
   and reply.

Nothing here raises: a warm-up that fails is logged, and the game simply pays the cold prompt later.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from loguru import logger

from coreai.commands import CallOnMain
from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.discovery import KNOWN_SERVERS, KnownServer, discover
from coreai.llm.local import BACKGROUND_PREFIX
from coreai.llm.types import LlmRequest
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.tools.base import canonical_order
from game.ai.director_agent import AgentPlanSource
from game.director.pacing import PacingState
from game.director.source import DirectorSituation, PlanRequest
from game.director.telemetry import GameSessionSnapshot

if TYPE_CHECKING:
    from game.ai.port import SessionParts

_log = logger.bind(feature="llm", trace_id="warmup")
CHAT_ROLES = ("Chat", "Merchant")
MODS_WAIT_S = 300.0  # the first run loads the mods: a player may sit in the menu a while
DIRECTOR_WAIT_S = 120.0  # a headless LLM-director run waits at most this long for the director's prefix


def start_background(
    session: SessionParts, servers: Sequence[KnownServer] = KNOWN_SERVERS
) -> threading.Thread:
    thread = threading.Thread(target=_run, args=(session, tuple(servers)), name="ai-startup", daemon=True)
    thread.start()
    return thread


def _run(session: SessionParts, servers: tuple[KnownServer, ...]) -> None:
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
    try:
        warm_up(session)
    finally:
        session.director_warm.set()  # warmed, failed or nothing to warm: nobody waits any longer


def wait_director_warm(session: SessionParts, backend: str, timeout_s: float = DIRECTOR_WAIT_S) -> bool:
    """Block until the director's prefix on ``backend`` is warm (True) or ``timeout_s`` passes (False); True
    at once for a backend the warm-up does not prefill (a server). A headless run with an LLM director calls
    it before its clock starts: a first-ever session evaluates the ~1,400-token prefix cold (about 20 s on
    one thread), and a 20 s run that started at once landed no decision."""
    if not callable(getattr(session.backends.registry.get(backend), "prefill", None)):
        return True
    t0 = time.perf_counter()
    done = session.director_warm.wait(timeout_s)
    (_log.info if done else _log.warning)(
        "director prefix {} after {:.1f}s; the run starts",
        "warm" if done else "still cold",
        time.perf_counter() - t0,
    )
    return done


def neutral_request(prefabs: Sequence[str], events: Sequence[str]) -> PlanRequest:
    situation = DirectorSituation(
        snapshot=GameSessionSnapshot(),
        intensity=0.0,
        pacing=PacingState.BUILD_UP,
        prefabs=list(prefabs),
        events=list(events),
    )
    return PlanRequest(seq=1, trace_id="warmup-director", tick=0, situation=situation)


def warm_up(session: SessionParts, *, backend: str = "local") -> dict[str, float]:
    """Prefill ``backend``'s prefixes (the director's once the startup mods are in, and the chat roles routed
    to it, first if the mods are not); seconds each."""
    client = session.backends.registry.get(backend)
    wait_ready = getattr(client, "wait_ready", None)
    if client is None or not callable(wait_ready) or not callable(getattr(client, "prefill", None)):
        return {}
    try:
        wait_ready(120.0)
    except Exception as exc:
        _log.warning("no warm-up: {}", exc)
        return {}
    spent: dict[str, float] = {}
    source = next((s for s in session.plan_sources if getattr(s, "backend", None) == backend), None)
    chats = [r for r in CHAT_ROLES if session.runtime.router.backend_for(r) == backend]
    director = isinstance(source, AgentPlanSource)
    # the director's prefix names the events mods offer, and they load with the first run: until then
    # (a player in the menu) warm the chat roles, so the director's prefix is built once it can match
    early = chats if director and not session.mods_ready.is_set() else []
    for role in early:
        spent[role] = warm_prefix(session.runtime, client, _chat_task(role))
    if isinstance(source, AgentPlanSource):
        if not session.mods_ready.wait(MODS_WAIT_S):
            _log.info("no mods after {:.0f}s: the director's prefix without their events", MODS_WAIT_S)
        req = neutral_request(session.prefabs.regular, session.director.events.names())
        spent["Director"] = warm_prefix(session.runtime, client, source.task(req))
    session.director_warm.set()
    for role in chats:
        if role not in early:
            spent[role] = warm_prefix(session.runtime, client, _chat_task(role))
    _log.info("warm-up done: {}", ", ".join(f"{r} {s:.1f}s" for r, s in spent.items()) or "nothing to warm")
    return spent


def _chat_task(role: str) -> AiTaskRequest:
    """A grounded talk turn of ``role`` (``game.talk``): its system prompt is the stable prefix to warm."""
    from coreai.settings import TalkDecoding
    from game.talk.grounding import Grounding
    from game.talk.prompt import talk_request
    from game.talk.retrieve import SMALL_TALK

    hello = Grounding(role, "Hello!", "small_talk", (), SMALL_TALK, SMALL_TALK)
    task = talk_request(hello, TalkDecoding(), scope=f"warm:{role}")
    return task.model_copy(update={"trace_id": f"{BACKGROUND_PREFIX}{role}"})


def warm_prefix(runtime: CoreAiRuntime, client: Any, task: AiTaskRequest) -> float:
    """Prefill the stable prefix of ``task``'s first model call on ``client`` (``LocalLlmClient.prefill``):
    the request is built the way the tool loop builds it, so the bytes match what the game sends."""
    t0 = time.perf_counter()
    role = task.role
    try:
        prompt, tools, available = runtime.orchestrator.compose(task, f"{BACKGROUND_PREFIX}{role}")
        specs = tuple(t.spec() for t in canonical_order(tools.values()) if t.name in available)
        forced = task.force_tool if any(s.name == task.force_tool for s in specs) else None
        result = client.prefill(
            LlmRequest(
                prompt.messages,
                role=role,
                trace_id=f"{BACKGROUND_PREFIX}{role}",
                tools=specs,
                tool_choice=forced or ("auto" if specs else "none"),
            )
        )
        _log.info(
            "{} prefix: {} tokens {} ({} were warm already)",
            role,
            result.usage.prompt_tokens,
            result.finish_reason,
            result.usage.cached_prompt_tokens,
        )
    except Exception as exc:
        closing = isinstance(exc, LlmError) and exc.code is LlmErrorCode.UNAVAILABLE
        # the game quitting while the warm-up still runs closes the model: nothing went wrong
        (_log.debug if closing else _log.warning)("warm-up of {} failed: {}", role, exc)
    return time.perf_counter() - t0
