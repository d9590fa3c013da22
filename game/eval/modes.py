"""Which director modes the evaluation runs, checked before any worker starts, and what each run needs.

``static`` and ``rules`` need no model and run in worker processes, as fast as the CPU allows. So does
``replay:PATH`` (``game.eval.recorded``): a recorded director's plans, landing at their recorded ticks, on
the recorded seeds and models. Every other mode is a plan source built from the LLM backend registry
(``local``, ``openai``, ``stub``, or any backend registered there): it runs in this process (a model has one
owner), in lockstep by default, so a slow model is judged on its plans and not on the machine's speed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from game.director.director import STATIC, Director
from game.director.memory import DirectorMemory
from game.director.source import PlanSource
from game.eval.recorded import PREFIX, ReplayedRun, is_replay
from game.headless import RunSummary
from game.sim.world import World

DETERMINISTIC = (STATIC, "rules")
LOCKSTEP_S = 120.0  # lockstep: the simulation waits this long at most for one plan


def known_modes() -> tuple[str, ...]:
    try:
        from coreai.llm.registry import BACKENDS
    except ImportError:  # the LLM stack is optional for the deterministic evaluation
        return DETERMINISTIC
    return (*DETERMINISTIC, *(n for n in BACKENDS.names() if n not in DETERMINISTIC))


def check_mode(mode: str, *, respawn: bool = True, to_end_s: float | None = None) -> str | None:
    """None when ``mode`` can run in a report that plays with ``respawn`` (and to the run's end or
    ``to_end_s``), else why not (in words for the command line)."""
    if is_replay(mode):
        from game.eval.recorded import check

        return check(mode, respawn=respawn, to_end_s=to_end_s)
    known = known_modes()
    if mode not in known:
        return f"unknown director mode '{mode}'; known: {', '.join(known)}, {PREFIX}FILE (a recorded run)"
    return None


def record_file(folder: Path | None, mode: str, skill: str, seed: int) -> Path | None:
    """Where ``--record FOLDER`` keeps the trajectory of the director's run of (``skill``, ``seed``), for a
    later ``replay:FOLDER`` (None: not recorded; static has no plans to record)."""
    if folder is None or mode == STATIC:
        return None
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in mode)[:32]
    return folder / f"{safe}-{skill}-s{seed}.jsonl"


def in_this_process(mode: str) -> bool:
    """An LLM mode's runs go one at a time in this process: its model has one owner."""
    return mode not in DETERMINISTIC and not is_replay(mode)


def lockstep_for(mode: str, real_time: bool) -> float | None:
    """How long the simulation waits for a pending plan (None: not at all). A replayed plan lands at its
    recorded tick, so a replay never waits."""
    return None if real_time or not in_this_process(mode) else LOCKSTEP_S


@cache
def _source(mode: str) -> PlanSource:
    from game.ai.eval_backends import agent_source

    return agent_source(mode)


@dataclass
class RunSetup:
    """What one run in ``mode`` needs beside the bot and the seed."""

    sources: tuple[PlanSource, ...] = ()
    memory: DirectorMemory | None = None
    on_start: Callable[[Director, World], None] | None = None
    replayed: ReplayedRun | None = None

    def verdict(self, summary: RunSummary) -> str:
        """For a replay: whether the run reproduced its recording (``recorded.IDENTICAL``) or where it
        diverged; empty for every other mode."""
        return self.replayed.verdict(summary) if self.replayed is not None else ""


def setup_for(mode: str, seed: int, skill: str) -> RunSetup:
    """The plan sources (none for the deterministic modes) and hooks of one run. An LLM source is built once
    per process and warmed as the game warms it; a replay gets a fresh source per run."""
    if mode in DETERMINISTIC:
        return RunSetup()
    if is_replay(mode):
        run = ReplayedRun(mode, seed, skill)
        return RunSetup((run.source,), run.memory, run.start, run)
    return RunSetup((_source(mode),))
