"""The rows of ``bench_llm`` measured on the game's real requests (not stand-ins): the director's request as
``AgentPlanSource`` builds it (its token budget, and plan latency p50/p95 through the whole path: task queue,
orchestrator, tool loop, grammar, validation), and the Chat role's first streamed turn (first-token latency
and tokens/s once its prefix is warm), and the director's prefix at session start, evaluated cold and restored
from the prefix store.

The game runs meanwhile: a crowd simulation steps at 60 Hz on the main thread (``game running``), as in play.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.types import LlmRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings
from coreai.tools.base import canonical_order
from game.ai.director_agent import AgentPlanSource, PlanCapture, install_director_tools
from game.director.events import EventRegistry
from game.director.source import PlanRequest
from game.director.validate import parse_reply, validate_plan
from game.eval.decisions import situation_for
from game.eval.scenarios import SHIPPED_SCENARIOS, load_scenarios
from game.sim.prefabs import PrefabRegistry

PLANS = 12
CHATS = 5


@contextmanager
def game_running() -> Iterator[None]:
    """A 500-enemy simulation stepping at 60 Hz on another thread while the body runs."""
    from bench.bench_sim import crowd_world
    from game.sim.player import PlayerInput

    world = crowd_world(500)
    inp = PlayerInput(move_x=1.0, move_y=0.0, aim_x=world.player.x + 50, aim_y=world.player.y, shoot=True)
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            t0 = time.perf_counter()
            world.player.hp = 1e12
            world.step(inp)
            time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - t0)))

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)


def _runtime(client: LocalLlmClient) -> tuple[CoreAiRuntime, AgentPlanSource]:
    settings = Settings.model_validate({"llm": {"default_backend": "local", "backends": {}}})
    runtime = CoreAiRuntime(settings, backends={"local": client})
    capture = PlanCapture()
    install_director_tools(runtime, PrefabRegistry.load().regular, EventRegistry().names(), capture)
    return runtime, AgentPlanSource(runtime, "local", capture)


def director_rows(client: LocalLlmClient) -> list[tuple[str, str, str]]:
    """(measure, value, target) rows for the director's real request on ``client``."""
    from game.ai.warmup import neutral_request, warm_prefix

    runtime, source = _runtime(client)
    prefabs = list(PrefabRegistry.load().regular)
    events = list(EventRegistry().names())
    scenarios = load_scenarios(SHIPPED_SCENARIOS)[:PLANS]
    warm_prefix(runtime, client, source.task(neutral_request(prefabs, events)))  # the startup warm-up
    latencies, valid, fits = [], 0, []
    try:
        with game_running():
            for i, sc in enumerate(scenarios, start=1):
                req = PlanRequest(
                    seq=i, trace_id=f"bench-{i:03d}", tick=0, situation=situation_for(sc, prefabs, events)
                )
                t0 = time.perf_counter()
                try:
                    reply = source.request(req).result(timeout=120)
                    data = parse_reply(reply.raw, reply.plan)
                    validate_plan(data, sc.knobs, prefabs=prefabs, events=events)
                    valid += 1
                except Exception:
                    pass
                latencies.append(time.perf_counter() - t0)
                if source.last_fit is not None:
                    fits.append(source.last_fit)
    finally:
        runtime.close(wait=False)
    fit = max(fits, key=lambda f: f.total_tokens)
    p50, p95 = np.percentile(latencies, 50), np.percentile(latencies, 95)
    return [
        (
            "director request tokens prefix/tail/total",
            f"{fit.prefix_tokens}/{fit.tail_tokens}/{fit.total_tokens}",
            f"<= {int(0.75 * (fit.n_ctx or 0))} (75% of n_ctx {fit.n_ctx})",
        ),
        (
            f"director plan p50 / p95, real request (s), {valid}/{len(latencies)} valid",
            f"{p50:.2f} / {p95:.2f}",
            "<= 3 / <= 6",
        ),
    ]


def chat_rows(client: LocalLlmClient) -> list[tuple[str, str, str]]:
    """First-token latency (p50) and tokens/s of the Chat role's first turn, its prefix warm."""
    from game.ai.chat import chat_request
    from game.ai.warmup import warm_prefix

    runtime, _ = _runtime(client)
    warm_prefix(runtime, client, chat_request("Chat", "Hello!"))
    firsts, rates = [], []
    try:
        with game_running():
            for i in range(CHATS):
                task = chat_request("Chat", f"Hi! Any tips for wave {i + 2}?")
                prompt, tools, available = runtime.orchestrator.compose(task, f"bench-chat-{i}")
                specs = tuple(t.spec() for t in canonical_order(tools.values()) if t.name in available)
                request = LlmRequest(  # the shape the tool loop sends for a chat turn
                    prompt.messages,
                    role="Chat",
                    tools=specs,
                    tool_choice="auto" if specs else "none",
                    max_tokens=64,
                    temperature=0.7,
                )
                t0 = time.perf_counter()
                first: float | None = None
                for chunk in client.stream(request):
                    if chunk.content and first is None:
                        first = time.perf_counter() - t0
                total = time.perf_counter() - t0
                if first is not None:
                    firsts.append(first)
                    tokens = client.stats.last_completion_tokens
                    rates.append(max(0, tokens - 1) / max(1e-6, total - first))
    finally:
        runtime.close(wait=False)
    return [
        ("chat first token p50, warm prefix (s)", f"{statistics.median(firsts):.2f}", "<= 1.5"),
        ("chat tokens/s after the first", f"{statistics.median(rates):.1f}", ""),
    ]


def prefix_store_rows(config: LocalLlmConfig) -> list[tuple[str, str, str]]:
    """The director's real prefix at session start, two sessions on one empty prefix store: the first
    evaluates it (cold) and saves it, the second restores it from disk (``coreai.llm.local_state``)."""
    import os
    import tempfile

    from game.ai.warmup import neutral_request, warm_prefix

    prefabs = list(PrefabRegistry.load().regular)
    events = list(EventRegistry().names())
    spent: list[float] = []
    before = os.environ.get("ARENA_SAVES_DIR")
    with tempfile.TemporaryDirectory() as saves:
        os.environ["ARENA_SAVES_DIR"] = saves  # the store's folder: empty at the first session
        try:
            for _ in range(2):
                client = LocalLlmClient(config)
                client.wait_ready(60)
                runtime, source = _runtime(client)
                spent.append(warm_prefix(runtime, client, source.task(neutral_request(prefabs, events))))
                tokens = client.stats.last_prompt_tokens
                runtime.close(wait=False)
                client.close()
        finally:
            if before is None:
                os.environ.pop("ARENA_SAVES_DIR", None)
            else:
                os.environ["ARENA_SAVES_DIR"] = before
    cold, restored = spent
    return [
        (
            f"director prefix at session start ({tokens} tok): cold / restored (s)",
            f"{cold:.2f} / {restored:.3f}",
            f"{cold / max(restored, 1e-6):.0f}x (restored <= 0.5 s)",
        )
    ]
