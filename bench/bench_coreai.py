"""`make bench` section for the AI core: the main-loop command queue and agents beside a 60 Hz game loop.

1. post -> applied latency, p50/p99, with a producer thread posting and the main loop draining at 60 Hz
   (target: p99 within one frame, 16.7 ms);
2. commands drained per second within the 2 ms budget (and per slice);
3. frame-time p99 with 4 stub agents busy versus idle (a frame = a fixed CPU workload + drain), as a ratio
   (target <= 1.05). The stub agents run the real pipeline: queue, orchestrator, prompts, tool loop,
   world_command through the main-loop queue; their "model" sleeps 20 ms per call like a remote backend.
"""

from __future__ import annotations

import os
import statistics
import threading
import time
from collections.abc import Sequence
from typing import Any

from coreai.commands import Move
from coreai.llm.stub import StubLlmClient, tool_reply
from coreai.llm.types import LlmRequest, LlmResult
from coreai.logging import configure_logging
from coreai.mainloop import MainLoopQueue
from coreai.requests import AiTaskRequest
from coreai.runtime import CoreAiRuntime
from coreai.settings import LogSettings, MainLoopSettings, Settings
from coreai.taskqueue import TaskHandle
from coreai.world import CoreAiBindings

FRAME_S = 1.0 / 60.0
BUDGET_S = 0.002


class BenchWorld:
    def __init__(self) -> None:
        self.applied: dict[int, float] = {}
        self.next_id = 0

    def prefab_names(self) -> Sequence[str]:
        return ("grunt", "runner", "tank")

    def arena_bounds(self) -> tuple[float, float, float, float]:
        return (0.0, 0.0, 1e9, 1e9)

    def spawn(self, prefab: str, x: float, y: float, *, elite: bool = False) -> int:
        self.next_id += 1
        return self.next_id

    def move(self, entity_id: int, x: float, y: float) -> bool:
        self.applied[int(x)] = time.perf_counter()
        return True

    def destroy(self, entity_id: int) -> bool:
        return True

    def list_entities(self, limit: int = 50) -> list[dict[str, Any]]:
        return []

    def game_state(self) -> dict[str, Any]:
        return {
            "wave": 3,
            "player": {"hp": 72, "max_hp": 100},
            "enemies": self.next_id % 40,
            "intensity": 0.4,
        }


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _sleep_until(t: float) -> None:
    remaining = t - time.perf_counter()
    if remaining > 0:
        time.sleep(remaining)


def bench_latency(seconds: float = 3.0) -> tuple[float, float, int]:
    world = BenchWorld()
    bindings = CoreAiBindings()
    bindings.register_world(world)
    queue = MainLoopQueue(bindings, MainLoopSettings(rate_per_s=0))
    posted: dict[int, float] = {}
    stop = threading.Event()

    def producer() -> None:
        seq = 0
        while not stop.is_set():
            posted[seq] = time.perf_counter()
            queue.post(Move(entity_id=1, x=seq, y=0))
            seq += 1
            time.sleep(0.002)

    thread = threading.Thread(target=producer, daemon=True)
    thread.start()
    next_frame = time.perf_counter()
    end = next_frame + seconds
    while next_frame < end:
        queue.drain(BUDGET_S)
        next_frame += FRAME_S
        _sleep_until(next_frame)
    stop.set()
    thread.join(2)
    queue.drain(1.0)
    latencies = [(world.applied[s] - posted[s]) * 1000 for s in world.applied if s in posted]
    return _pct(latencies, 0.5), _pct(latencies, 0.99), len(latencies)


def bench_throughput(total: int = 200_000) -> tuple[float, float, float]:
    world = BenchWorld()
    bindings = CoreAiBindings()
    bindings.register_world(world)
    queue = MainLoopQueue(bindings, MainLoopSettings(rate_per_s=0, max_pending=0))
    t0 = time.perf_counter()
    for i in range(total):
        queue.post(Move(entity_id=1, x=i, y=0))
    post_rate = total / (time.perf_counter() - t0)
    spent = 0.0
    per_slice: list[int] = []
    while queue.pending():
        s0 = time.perf_counter()
        per_slice.append(queue.drain(BUDGET_S))
        spent += time.perf_counter() - s0
    return total / spent, statistics.median(per_slice), post_rate


def _frame_workload() -> None:
    acc = 0
    for i in range(100_000):  # about 4 ms of pure-Python game logic
        acc += i * i % 7
    if acc < 0:
        raise AssertionError


def _frames(runtime: CoreAiRuntime, count: int) -> list[float]:
    times: list[float] = []
    next_frame = time.perf_counter()
    for _ in range(count):
        start = time.perf_counter()
        _frame_workload()
        runtime.drain(BUDGET_S)
        times.append((time.perf_counter() - start) * 1000)
        next_frame += FRAME_S
        _sleep_until(next_frame)
    return times


def _director_script(request: LlmRequest) -> LlmResult | str:
    if any(m.role == "tool" for m in request.messages):
        return "Sent two grunts from the west edge."
    return tool_reply(
        ("world_command", {"action": "spawn", "prefab": "grunt", "x": 10, "y": 300, "count": 2})
    )


class _Agents:
    """Keeps four Creator tasks in flight while ``busy`` is set."""

    def __init__(self, runtime: CoreAiRuntime) -> None:
        self.runtime = runtime
        self.busy = threading.Event()
        self.finished = 0
        self.failed: list[str] = []

    def _next(self, _handle: TaskHandle | None = None) -> None:
        if _handle is not None:
            self.finished += 1
            try:
                _handle.result(0)
            except Exception as exc:  # a busy agent that fails is not busy: the figure would be wrong
                self.failed.append(f"{type(exc).__name__}: {exc}")
        if self.busy.is_set():
            request = AiTaskRequest(role="Creator", hint="keep the pressure")
            self.runtime.submit(request).add_done_callback(self._next)

    def start(self) -> None:
        self.busy.set()
        for _ in range(4):
            self._next()

    def stop(self) -> None:
        """Stop feeding and let the tasks in flight finish against a draining loop (not measured)."""
        self.busy.clear()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            stats = self.runtime.tasks.statistics()
            if stats.running == 0 and stats.queued == 0:
                return
            self.runtime.drain(BUDGET_S)
            time.sleep(FRAME_S)


def bench_agents(frames_per_phase: int = 150, phases: int = 6) -> tuple[float, float, float, float, int]:
    world = BenchWorld()
    settings = Settings.model_validate(  # every role on the stub: the agents run the whole real pipeline
        {
            "queue": {"max_concurrent": 4},
            "mainloop": {"rate_per_s": 0},
            "llm": {"default_backend": "stub", "backends": {}},
        }
    )
    runtime = CoreAiRuntime(settings, backends={"stub": StubLlmClient(_director_script, delay_s=0.02)})
    runtime.bindings.register_world(world)
    runtime.bindings.register_state(world)
    agents = _Agents(runtime)
    _frames(runtime, 30)  # warm-up
    idle: list[float] = []
    busy: list[float] = []
    for phase in range(phases):  # idle, busy, idle, busy...: alternating cancels slow drift of the machine
        if phase % 2:
            agents.start()
            busy += _frames(runtime, frames_per_phase)
            agents.stop()
        else:
            idle += _frames(runtime, frames_per_phase)
    runtime.close()
    if agents.failed:
        raise RuntimeError(f"{len(agents.failed)} agent tasks failed, e.g. {agents.failed[0]}")
    p99_idle, p99_busy = _pct(idle, 0.99), _pct(busy, 0.99)
    median_ratio = statistics.median(busy) / statistics.median(idle)
    return p99_idle, p99_busy, p99_busy / p99_idle, median_ratio, agents.finished


def main() -> None:
    configure_logging(LogSettings(level="WARNING", console=True, file=False))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n== coreai: main-loop queue and agents (60 Hz loop, 2 ms drain budget; load avg {load:.1f}) ==")
    p50, p99, n = bench_latency()
    print(f"{'metric':<44} {'value':>14}  target")
    print(f"{'post->applied latency p50 (ms)':<44} {p50:>14.2f}")
    print(f"{'post->applied latency p99 (ms)':<44} {p99:>14.2f}  <= {FRAME_S * 1000:.1f} (1 frame)")
    print(f"{'  commands measured':<44} {n:>14d}")
    rate, per_slice, post_rate = bench_throughput()
    print(f"{'commands drained per second (within budget)':<44} {rate:>14,.0f}")
    print(f"{'commands per 2 ms drain slice (median)':<44} {per_slice:>14,.0f}")
    print(f"{'commands posted per second (one producer)':<44} {post_rate:>14,.0f}")
    p_idle, p_busy, ratio, median_ratio, tasks = bench_agents()
    print(f"{'frame time p99, agents idle (ms)':<44} {p_idle:>14.2f}")
    print(f"{'frame time p99, 4 stub agents busy (ms)':<44} {p_busy:>14.2f}")
    print(f"{'  busy / idle ratio (p99)':<44} {ratio:>14.3f}  <= 1.05")
    print(f"{'  busy / idle ratio (median)':<44} {median_ratio:>14.3f}")
    print(f"{'  agent tasks completed while measuring':<44} {tasks:>14d}")


if __name__ == "__main__":
    main()
