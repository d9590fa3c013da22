"""Warm prefixes on the local model: each role keeps its own llama.cpp context, a prefill evaluates a role's
stable prefix ahead of need so its next request reuses it, and a prefill gives way to a real request."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.types import ChatMessage, LlmRequest, LlmResult

DIRECTOR = "You direct an arena game. " + "Keep the fight tense but fair. " * 40
CHAT = "You are a friendly companion. " + "Answer in one short sentence. " * 40


def ask(role: str, system: str, user: str, max_tokens: int = 4) -> LlmRequest:
    return LlmRequest(
        (ChatMessage("system", system), ChatMessage("user", user)), role=role, max_tokens=max_tokens
    )


@pytest.fixture(scope="module")
def client(model_path: object) -> Iterator[LocalLlmClient]:
    c = LocalLlmClient(LocalLlmConfig(n_ctx=2048, n_threads=1, contexts=2))
    c.wait_ready(60)
    yield c
    c.close()


@pytest.mark.real_llm
@pytest.mark.timeout(240)
def test_a_prefilled_prefix_is_reused_and_each_role_keeps_its_own(client: LocalLlmClient) -> None:
    warm = client.prefill(ask("Director", DIRECTOR, "warm-up"))
    assert warm.finish_reason == "prefilled" and warm.usage.prompt_tokens > 200
    client.complete(ask("Director", DIRECTOR, "Wave 1: calm."))
    assert client.stats.last_cached_tokens >= warm.usage.prompt_tokens - 2, "the prefill was reused"
    client.complete(ask("Chat", CHAT, "hello"))  # another role, another context
    client.complete(ask("Director", DIRECTOR, "Wave 2: chaos."))
    assert client.stats.last_cached_tokens >= warm.usage.prompt_tokens - 2, "Chat did not evict it"
    again = client.prefill(ask("Director", DIRECTOR, "warm-up"))
    assert again.usage.cached_prompt_tokens == again.usage.prompt_tokens, "nothing left to evaluate"


@pytest.mark.real_llm
@pytest.mark.timeout(240)
def test_a_prefill_gives_way_to_a_real_request(client: LocalLlmClient) -> None:
    long_prefix = "Lore of the arena. " + " ".join(f"Rule {i}: stay sharp." for i in range(250))
    out: list[LlmResult] = []
    warming = threading.Thread(target=lambda: out.append(client.prefill(ask("Merchant", long_prefix, "x"))))
    warming.start()
    time.sleep(0.5)  # the prefill is under way
    t0 = time.monotonic()
    client.complete(ask("Chat", CHAT, "quick question"))
    waited = time.monotonic() - t0
    warming.join(120)
    assert out and out[0].finish_reason == "interrupted", "it stopped between chunks for the real request"
    assert out[0].usage.prompt_tokens > 0, "what it evaluated stays"
    assert waited < 60
