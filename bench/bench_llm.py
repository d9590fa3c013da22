"""LLM backends: the local backend's cost over raw llama-cpp-python, plan latency, prefix reuse, frame impact.

* tokens/s through ``LocalLlmClient`` vs a raw ``Llama.create_chat_completion`` on the same model and prompt,
  alternating, median of 3 (target: overhead <= 10%);
* the game's real requests (``bench.llm_director``), on the game's settings with the simulation stepping:
  the director request's tokens (prefix / tail / total against n_ctx), plan latency p50/p95 through the
  whole director path, and the Chat role's first-token latency and tokens/s with its prefix warm;
* prompt evaluation of a ~400-token role prefix, cold (never seen) vs warm (same role, new user line),
  median of 5 (target: >= 3x);
* frame-time p99 of a simulation step loop at 60 Hz while the local model generates vs idle
  (target: <= 1.05x), with the model on 2 threads and on 1.

Everything runs in one process on the default SmolLM2 GGUF; about a minute on 2 cores.
"""

from __future__ import annotations

import statistics
import threading
import time
import uuid
from typing import Any

import numpy as np

from bench.llm_director import chat_rows, director_rows, prefix_store_rows
from coreai.llm import guard
from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
from coreai.llm.types import ChatMessage, LlmRequest

N_CTX, THREADS = 2048, 2
STORY = "Count from 1 to 400, separated by commas."
SYSTEM = (
    "You are the director of a roguelite arena game. You read the player's state and reply with a pacing "
    "plan. Pressure is one of ease_off, hold, raise or spike. "
) + " ".join(
    f"Rule {i}: when the player's health is below {i * 3}% and more than {i} enemies are near, "
    "prefer easing off; when it is high and the player kills quickly, raise."
    for i in range(1, 13)
)


def _tokens_per_s(client: LocalLlmClient, raw: Any, rounds: int = 5) -> tuple[float, float]:
    """Median tokens/s of each side; one warm-up round first, then alternating which side goes first."""
    messages = [{"role": "user", "content": STORY}]
    request = LlmRequest((ChatMessage("user", STORY),), max_tokens=128, temperature=0.0)

    def ours() -> float:
        t0 = time.perf_counter()
        return client.complete(request).usage.completion_tokens / (time.perf_counter() - t0)

    def theirs() -> float:
        t0 = time.perf_counter()
        reply = raw.create_chat_completion(messages, max_tokens=128, temperature=0.0)
        return float(reply["usage"]["completion_tokens"]) / (time.perf_counter() - t0)

    ours(), theirs()
    ours_s, theirs_s = [], []
    for i in range(rounds):
        first, second = (ours, theirs) if i % 2 else (theirs, ours)
        x, y = first(), second()
        ours_s.append(x if first is ours else y)
        theirs_s.append(y if first is ours else x)
    return statistics.median(ours_s), statistics.median(theirs_s)


def _cold_warm(client: LocalLlmClient, rounds: int = 5) -> tuple[float, float, int]:
    cold: list[float] = []
    warm: list[float] = []
    for i in range(rounds):
        system = f"[session {uuid.uuid4().hex}] {SYSTEM}"  # a prefix llama.cpp has never seen
        for bucket, line in ((cold, f"Wave {i}: calm."), (warm, f"Wave {i}: chaos.")):
            client.complete(
                LlmRequest((ChatMessage("system", system), ChatMessage("user", line)), max_tokens=1)
            )
            bucket.append(client.stats.last_prompt_eval_s)
    return statistics.median(cold) * 1000, statistics.median(warm) * 1000, client.stats.last_prompt_tokens


def _frame_p99(world: Any, busy: LocalLlmClient | None, frames: int = 300) -> float:
    """p99 of the simulation step time in a 60 Hz loop, optionally while ``busy`` generates nonstop."""
    from game.sim.player import PlayerInput

    inp = PlayerInput(move_x=1.0, move_y=0.0, aim_x=world.player.x + 50, aim_y=world.player.y, shoot=True)
    stop = threading.Event()

    def generate(client: LocalLlmClient) -> None:
        while not stop.is_set():
            client.complete(LlmRequest((ChatMessage("user", STORY),), max_tokens=64))

    worker = threading.Thread(target=generate, args=(busy,), daemon=True) if busy is not None else None
    if worker is not None:
        worker.start()
    samples = []
    for i in range(frames + 60):  # the first 60 frames warm up
        t0 = time.perf_counter()
        world.player.hp = 1e12
        world.step(inp)
        spent = time.perf_counter() - t0
        if i >= 60:
            samples.append(spent * 1000)
        time.sleep(max(0.0, 1 / 60 - spent))
    stop.set()
    if worker is not None:
        worker.join(30)
    return float(np.percentile(samples, 99))


def _frame_impact(config: LocalLlmConfig) -> None:
    from bench.bench_sim import crowd_world

    world = crowd_world(500)
    idle = [_frame_p99(world, None)]
    rows = []
    for threads in (THREADS, 1):
        busy = LocalLlmClient(config.model_copy(update={"n_threads": threads}))
        busy.wait_ready(60)
        rows.append((threads, _frame_p99(world, busy)))
        busy.close()
    idle.append(_frame_p99(world, None))
    base = statistics.mean(idle)
    print(f"{'sim step p99, idle before / after (ms)':<44} {f'{idle[0]:.2f} / {idle[1]:.2f}':>14}")
    for threads, loaded in rows:
        label = f"sim step p99 while generating, {threads} thread(s)"
        print(f"{label:<44} {loaded:>14.2f}  {loaded / base:.2f}x (<= 1.05x)")


def main() -> None:
    from llama_cpp import Llama

    guard.set_real_calls_allowed(True)
    config = LocalLlmConfig.model_validate({"n_ctx": N_CTX, "n_threads": THREADS, "max_tokens": 256})
    client = LocalLlmClient(config)
    client.wait_ready(60)
    raw = Llama(model_path=config.model_path, n_ctx=N_CTX, n_threads=THREADS, verbose=False)
    print(f"\n== LLM backends: local SmolLM2-135M Q4_1, n_ctx={N_CTX}, {THREADS} threads ==")
    print(f"{'measure':<44} {'value':>14}  target")
    ours, theirs = _tokens_per_s(client, raw)
    del raw
    print(f"{'tokens/s through LocalLlmClient':<44} {ours:>14.1f}")
    print(f"{'tokens/s raw llama-cpp-python':<44} {theirs:>14.1f}")
    print(f"{'backend overhead':<44} {(1 - ours / theirs) * 100:>13.1f}%  <= 10%")
    cold, warm, tokens = _cold_warm(client)
    print(f"{f'prompt eval, {tokens}-token role prefix, cold (ms)':<44} {cold:>14.1f}")
    print(f"{'prompt eval, same prefix warm (ms)':<44} {warm:>14.1f}")
    print(f"{'cold / warm':<44} {cold / warm:>13.1f}x  >= 3x")
    client.close()
    # the game's own requests, on the game's own settings (n_ctx 4096, its default threads), game running
    game = LocalLlmClient(LocalLlmConfig())
    game.wait_ready(60)
    print(f"-- the game's requests: n_ctx {game.n_ctx}, {game.config.n_threads} thread(s), sim stepping --")
    for measure, value, target in director_rows(game) + chat_rows(game):
        print(f"{measure:<44} {value:>14}  {target}")
    game.close()
    for measure, value, target in prefix_store_rows(LocalLlmConfig()):
        print(f"{measure:<44} {value:>14}  {target}")
    _frame_impact(config)


if __name__ == "__main__":
    main()
