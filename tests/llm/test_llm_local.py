"""The local backend with the real SmolLM2 GGUF through llama-cpp-python (small n_ctx and max_tokens)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from llm_testkit import DIRECTOR_SYSTEM, DirectorPlan
from pydantic import BaseModel, Field

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm import local as local_module
from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient, parse_structured
from coreai.llm.types import ChatMessage, LlmClient, LlmRequest, ToolSpec

real = pytest.mark.real_llm
COUNTING = (ChatMessage("user", "Count from 1 to 300, separated by commas."),)


class SpawnArgs(BaseModel):
    prefab: str = Field(pattern="^(grunt|archer|brute)$")
    count: int = Field(ge=1, le=6)


SPAWN = ToolSpec("spawn", "Spawn enemies near the player.", SpawnArgs.model_json_schema())


def _wait_until(condition: Callable[[], bool], timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.01)


def _running(client: LocalLlmClient) -> bool:
    """The owner thread took a job and nothing waits in its queue (test-only peek at internals)."""
    return client._current is not None and client._jobs.qsize() == 0


def _role_request(state: str, max_tokens: int = 4) -> LlmRequest:
    """A request of the director role with a small budget (free text, so a cut-off is no error)."""
    messages = (ChatMessage("system", DIRECTOR_SYSTEM), ChatMessage("user", state))
    return LlmRequest(messages, role="Director", max_tokens=max_tokens)


def _plan_request(state: str, **kw: object) -> LlmRequest:
    messages = (ChatMessage("system", DIRECTOR_SYSTEM), ChatMessage("user", state))
    return LlmRequest(
        messages,
        role="Director",
        response_schema=DirectorPlan.model_json_schema(),
        max_tokens=160,
        temperature=0.0,
        **kw,  # type: ignore[arg-type]
    )


@real
def test_real_model_loads_and_answers(local_client: LocalLlmClient) -> None:
    assert isinstance(local_client, LlmClient) and local_client.ready and local_client.stats.load_s > 0
    result = local_client.complete(
        LlmRequest((ChatMessage("user", "Say hello to the player."),), max_tokens=24)
    )
    assert result.content and result.backend == "local" and result.model.startswith("SmolLM2")
    assert 0 < result.usage.completion_tokens <= 24 and result.usage.prompt_tokens > 5


@real
@pytest.mark.parametrize(
    "state",
    [
        "Player HP 15%, took 40 damage in 5 s, 2 enemies alive.",
        "Player HP 100%, idle for 30 s, no enemies alive.",
    ],
)
def test_structured_director_plan_validates(local_client: LocalLlmClient, state: str) -> None:
    result = local_client.complete(_plan_request(state, trace_id="plan-1"))
    plan = parse_structured(result, DirectorPlan)
    assert plan.pressure in ("ease_off", "hold", "raise", "spike")
    assert 0 <= plan.spawn_per_wave <= 12 and len(plan.prefabs) <= 3
    assert json.loads(result.content) == plan.model_dump()


@real
def test_stream_yields_the_reply_piece_by_piece(local_client: LocalLlmClient) -> None:
    chunks = list(local_client.stream(LlmRequest((ChatMessage("user", "Describe a sword."),), max_tokens=30)))
    text = "".join(c.content for c in chunks)
    assert len([c for c in chunks if c.content]) > 5 and text.strip()
    assert chunks[-1].finish_reason in ("stop", "length") and all(not c.reasoning for c in chunks)


@real
def test_cancel_stops_a_stream_between_tokens(local_client: LocalLlmClient) -> None:
    before = local_client.stats.cancelled
    request = LlmRequest(COUNTING, max_tokens=150, trace_id="cancel-1")
    seen = 0
    with pytest.raises(LlmError) as info:
        for chunk in local_client.stream(request):
            seen += bool(chunk.content)
            if seen == 4:
                request.cancel.set()
    assert info.value.code is LlmErrorCode.CANCELLED and info.value.trace_id == "cancel-1"
    stats = local_client.stats
    assert stats.cancelled == before + 1 and stats.last_completion_tokens <= 8 < 150


@real
def test_cancel_from_another_thread_stops_complete(local_client: LocalLlmClient) -> None:
    request = LlmRequest(COUNTING, max_tokens=150)
    timer = threading.Timer(0.5, request.cancel.set)
    timer.start()
    with pytest.raises(LlmError) as info:
        local_client.complete(request)
    timer.join(5)
    assert info.value.code is LlmErrorCode.CANCELLED
    # under load the cancel may land before the first token; either way far fewer than asked for
    assert local_client.stats.last_completion_tokens < 150


@real
def test_abandoned_stream_and_timeout_free_the_owner_thread(local_client: LocalLlmClient) -> None:
    stream = local_client.stream(LlmRequest(COUNTING, max_tokens=150))
    next(stream)
    stream.close()  # the consumer walks away: generation stops at the next token
    with pytest.raises(LlmError) as info:
        local_client.complete(LlmRequest(COUNTING, max_tokens=150, timeout_s=0.2))
    assert info.value.code is LlmErrorCode.TIMEOUT
    t0 = time.monotonic()
    result = local_client.complete(LlmRequest((ChatMessage("user", "Name a colour."),), max_tokens=8))
    assert result.content and time.monotonic() - t0 < 30


@real
def test_a_cancelled_request_still_queued_never_runs(local_client: LocalLlmClient) -> None:
    long_one = LlmRequest(COUNTING, max_tokens=60)
    queued = LlmRequest((ChatMessage("user", "Hi"),), max_tokens=8)
    runner = threading.Thread(target=lambda: local_client.complete(long_one))
    runner.start()
    time.sleep(0.1)
    queued.cancel.set()
    with pytest.raises(LlmError) as info:
        local_client.complete(queued)
    assert info.value.code is LlmErrorCode.CANCELLED and "before it started" in str(info.value)
    runner.join(60)
    assert not runner.is_alive()


@real
def test_two_threads_share_one_model_safely(
    local_client: LocalLlmClient, local_config: LocalLlmConfig
) -> None:
    second = LocalLlmClient(local_config, name="local-2")  # its own Llama on its own owner thread
    second.wait_ready(60)
    results: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker(client: LocalLlmClient, n: int) -> None:
        for i in range(n):
            try:
                r = client.complete(
                    LlmRequest((ChatMessage("user", f"Name an animal ({i})."),), max_tokens=12)
                )
                with lock:
                    results.append(r.content)
            except BaseException as exc:
                with lock:
                    errors.append(exc)

    threads = [threading.Thread(target=worker, args=(c, 3)) for c in (local_client, local_client, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    second.close()
    assert not any(t.is_alive() for t in threads)
    assert errors == [] and len(results) == 9 and all(results)


@real
def test_requests_of_one_role_reuse_the_prefix_kv_state(local_client: LocalLlmClient) -> None:
    local_client.complete(_role_request("Wave 1, player HP 80%."))
    second = local_client.complete(_role_request("Wave 2, player HP 55%."))
    # everything up to the first differing token ("1" / "2" in the user line) comes from the KV state
    system_and_turn_start = second.usage.prompt_tokens - 16
    assert second.usage.cached_prompt_tokens >= system_and_turn_start > 70
    assert local_client.stats.last_cached_tokens == second.usage.cached_prompt_tokens


@real
def test_prompt_cache_keeps_two_roles_warm(local_config: LocalLlmConfig) -> None:
    other_role = (
        ChatMessage("system", "You write short flavour text for items. " * 6),
        ChatMessage("user", "A"),
    )
    # one shared context: only the RAM prompt cache or the disk prefix store keeps both warm; one context per
    # role: warm without either
    cases = ((1, 0, 0, False), (1, 256 << 20, 0, True), (1, 0, 64, True), (2, 0, 0, True))
    for contexts, cache_bytes, store_mb, expect_warm in cases:
        config = local_config.model_copy(update={"contexts": contexts, "prefix_store_mb": store_mb})
        client = LocalLlmClient(config, prompt_cache_bytes=cache_bytes)
        client.wait_ready(60)
        client.complete(_role_request("Wave 1."))
        client.complete(LlmRequest(other_role, max_tokens=4))
        back = client.complete(_role_request("Wave 2."))
        client.close()
        prefix = back.usage.prompt_tokens - 16
        assert (back.usage.cached_prompt_tokens >= prefix) is expect_warm, (cache_bytes, store_mb, back.usage)


@real
def test_forced_tool_call_follows_its_schema(local_client: LocalLlmClient) -> None:
    request = LlmRequest(
        (ChatMessage("system", "You direct an arena."), ChatMessage("user", "Spawn two archers.")),
        tools=(SPAWN,),
        tool_choice="spawn",
        max_tokens=40,
    )
    result = local_client.complete(request)
    (call,) = result.tool_calls
    assert call.name == "spawn" and result.finish_reason == "tool_calls" and result.content == ""
    assert SpawnArgs.model_validate_json(call.arguments).count >= 1
    streamed = [c.tool_call for c in local_client.stream(request) if c.tool_call]
    assert [c.name for c in streamed] == ["spawn"]


@real
def test_auto_tool_choice_is_a_call_or_a_reply(local_client: LocalLlmClient) -> None:
    request = LlmRequest(
        (ChatMessage("system", "You direct an arena."), ChatMessage("user", "Spawn some archers now.")),
        tools=(SPAWN,),
        max_tokens=60,
    )
    result = local_client.complete(request)
    if result.tool_calls:
        assert result.tool_calls[0].name == "spawn" and not result.content
    else:
        assert result.content and "{" not in result.content[:1]


@real
def test_missing_and_corrupt_model_files_give_clear_errors(
    tmp_path: Path, local_config: LocalLlmConfig
) -> None:
    truncated = tmp_path / "truncated.gguf"
    with Path(local_config.model_path).open("rb") as src, truncated.open("wb") as dst:
        dst.write(src.read(3 << 20))  # a valid header, then the file stops
    for path, why in ((tmp_path / "missing.gguf", "not found"), (truncated, "could not load model")):
        client = LocalLlmClient(local_config.model_copy(update={"model_path": str(path)}))
        with pytest.raises(LlmError) as info:
            client.wait_ready(30)
        assert info.value.code is LlmErrorCode.UNAVAILABLE and why in str(info.value)
        assert "rules backend" in str(info.value) and not client.ready
        with pytest.raises(LlmError) as again:
            client.complete(LlmRequest((ChatMessage("user", "hi"),), trace_id="after-fail"))
        assert again.value.code is LlmErrorCode.UNAVAILABLE and again.value.trace_id == "after-fail"
        client.close()


@real
def test_full_queue_is_refused_and_closed_client_is_unavailable(
    monkeypatch: pytest.MonkeyPatch, local_config: LocalLlmConfig
) -> None:
    monkeypatch.setattr(local_module, "_MAX_QUEUED", 1)
    client = LocalLlmClient(local_config)
    client.wait_ready(60)
    first = LlmRequest(COUNTING, max_tokens=40)
    runner = threading.Thread(target=lambda: client.complete(first))
    runner.start()
    _wait_until(lambda: _running(client))
    waiting = threading.Thread(target=lambda: client.complete(LlmRequest(COUNTING, max_tokens=4)))
    waiting.start()
    _wait_until(lambda: client._jobs.qsize() == 1)
    with pytest.raises(LlmError) as info:
        client.complete(LlmRequest(COUNTING, max_tokens=4))
    assert info.value.code is LlmErrorCode.RATE_LIMITED
    runner.join(60)
    waiting.join(60)
    client.close()
    with pytest.raises(LlmError) as closed:
        client.complete(LlmRequest(COUNTING, max_tokens=4))
    assert closed.value.code is LlmErrorCode.UNAVAILABLE


def test_guard_blocks_the_model_without_the_marker(local_client: LocalLlmClient) -> None:
    before = local_client.stats.requests
    with pytest.raises(LlmError) as info:
        local_client.complete(LlmRequest((ChatMessage("user", "hi"),)))
    assert "real_llm" in str(info.value) and local_client.stats.requests == before


def test_model_file_can_be_copied_and_loaded_from_anywhere(
    tmp_path: Path, local_config: LocalLlmConfig
) -> None:
    copy = tmp_path / "any-name.gguf"
    shutil.copyfile(local_config.model_path, copy)
    client = LocalLlmClient(local_config.model_copy(update={"model_path": str(copy)}))
    client.wait_ready(60)
    assert client.ready and client.model == "any-name"
    client.close()


@real
def test_close_stops_the_running_request_and_answers_the_queued_ones(local_config: LocalLlmConfig) -> None:
    client = LocalLlmClient(local_config)
    client.wait_ready(60)
    codes: dict[str, LlmErrorCode] = {}

    def ask(key: str, trace: str) -> None:
        try:
            client.complete(LlmRequest(COUNTING, max_tokens=150, trace_id=trace))
        except LlmError as exc:
            codes[key] = exc.code

    running = threading.Thread(target=ask, args=("running", "r1"))
    running.start()
    _wait_until(lambda: _running(client))
    queued = threading.Thread(target=ask, args=("queued", "q1"))
    queued.start()
    _wait_until(lambda: client._jobs.qsize() == 1)
    t0 = time.monotonic()
    client.close(10)
    running.join(10)
    queued.join(10)
    assert not running.is_alive() and not queued.is_alive() and time.monotonic() - t0 < 5
    assert codes == {"running": LlmErrorCode.CANCELLED, "queued": LlmErrorCode.UNAVAILABLE}
