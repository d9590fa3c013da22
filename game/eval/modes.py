"""Which director modes the evaluation runs, checked before any worker starts.

``static`` and ``rules`` need no model and run in worker processes, as fast as the CPU allows. Every other
mode is a plan source built from the LLM backend registry (``local``, ``openai``, ``stub``, or any backend
registered there): it runs in this process (a model has one owner), in lockstep by default, so a slow model
is judged on its plans and not on the machine's speed.
"""

from __future__ import annotations

from functools import cache

from game.director.director import STATIC
from game.director.source import PlanSource

DETERMINISTIC = (STATIC, "rules")
LOCKSTEP_S = 120.0  # lockstep: the simulation waits this long at most for one plan


def known_modes() -> tuple[str, ...]:
    try:
        from coreai.llm.registry import BACKENDS
    except ImportError:  # the LLM stack is optional for the deterministic evaluation
        return DETERMINISTIC
    return (*DETERMINISTIC, *(n for n in BACKENDS.names() if n not in DETERMINISTIC))


def check_mode(mode: str) -> str | None:
    """None when ``mode`` can run, else why not (in words for the command line)."""
    known = known_modes()
    if mode not in known:
        return f"unknown director mode '{mode}'; known: {', '.join(known)}"
    return None


@cache
def _source(mode: str) -> PlanSource:
    from game.ai.eval_backends import agent_source

    return agent_source(mode)


def sources_for(mode: str) -> tuple[PlanSource, ...]:
    """The plan sources a run in ``mode`` needs (none for the deterministic modes); an LLM source is built
    once per process and warmed as the game warms it."""
    return () if mode in DETERMINISTIC else (_source(mode),)
