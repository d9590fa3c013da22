"""The first wave of a first-time player: how many seeds a bot (the ``novice`` by default) gets through
wave 1 (its first ``WAVE_BASE_SECONDS``) without dying, under the director and under static difficulty.

    python -m game.eval first-wave [--seeds 10] [--first-seed 0] [--skill novice] [--mode rules]

The issue's target: the novice survives wave 1 on at least ``TARGET`` of 10 seeds with the default director.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.director.director import STATIC
from game.headless_runs.run import run_directed
from game.sim.config import WAVE_BASE_SECONDS

TARGET = 0.9  # share of seeds


@dataclass(frozen=True)
class FirstWave:
    mode: str
    skill: str
    seeds: tuple[int, ...]
    died_on: tuple[int, ...]  # the seeds where the bot died in wave 1

    @property
    def survived(self) -> int:
        return len(self.seeds) - len(self.died_on)


def first_wave(seeds: Sequence[int], skill: str = "novice", mode: str = "rules") -> FirstWave:
    died = []
    for seed in seeds:
        summary, _ = run_directed(seed, WAVE_BASE_SECONDS, skill, mode, respawn=True)
        if summary.deaths:
            died.append(seed)
    return FirstWave(mode, skill, tuple(seeds), tuple(died))


def format_first_wave(results: Sequence[FirstWave]) -> str:
    lines = [f"First wave ({WAVE_BASE_SECONDS:g} s), respawn on: seeds survived without a death"]
    for r in results:
        n = len(r.seeds)
        verdict = (
            ""
            if r.mode == STATIC
            else ("  met" if r.survived >= TARGET * n else f"  MISSED (>= {TARGET:.0%})")
        )
        died = f"; died on {', '.join(map(str, r.died_on))}" if r.died_on else ""
        lines.append(f"{r.skill:8s} {r.mode:8s} {r.survived:3d}/{n}{verdict}{died}")
    return "\n".join(lines)
