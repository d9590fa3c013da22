"""A decision that misses its time is superseded and counted, never applied, and the previous plan keeps
running: past the source's own ``deadline_s`` (set from its measured latency), or when the model call
timed out."""

from __future__ import annotations

from types import SimpleNamespace

from director_support import ManualSource, ScriptedSource, plan, quiet_world, tick

from coreai.errors import LlmError, LlmErrorCode
from coreai.settings import Settings
from game.director.director import PENDING_MAX_S, Director
from game.director.tuning import TUNING
from game.sim.config import TICK_HZ


def test_a_reply_past_the_sources_deadline_is_superseded() -> None:
    src = ManualSource("slow")
    src.deadline_s = 2.0  # type: ignore[attr-defined]
    director = Director("slow", sources=(src,))
    world = quiet_world()
    tick(director, world)
    knobs = director.knobs
    assert len(src.pending) == 1
    tick(director, world, int(2.5 * TICK_HZ))
    assert director.superseded == 1 and src.pending[0][1].cancelled(), "the late request was cancelled"
    assert director.failed == 0 and director.knobs == knobs, "the previous plan keeps running"
    src.pending[0][1].cancel()
    assert director.accepted == 0


def test_a_model_call_that_timed_out_counts_as_superseded_not_failed() -> None:
    src = ScriptedSource("timing-out", [LlmError(LlmErrorCode.TIMEOUT, "no reply within 30s", backend="x")])
    director = Director("timing-out", sources=(src,))
    world = quiet_world()
    tick(director, world)
    assert director.superseded == 1 and director.failed == 0 and "timeout" in director.last_error
    director.request_now()
    src.replies.append(plan("ease_off"))
    tick(director, world)
    assert director.accepted == 1


def test_a_source_with_a_long_deadline_keeps_its_request_past_the_schedule() -> None:
    """A first decision pays the cold prompt (``COLD_DEADLINE_S``): the next scheduled request waits for it
    instead of superseding it at ``PENDING_MAX_S`` (on a loaded machine a server's first reply took 30 s,
    every request was superseded at 25 s and none landed in a minute)."""
    src = ManualSource("cold")
    src.deadline_s = PENDING_MAX_S + 20.0  # type: ignore[attr-defined]
    director = Director("cold", sources=(src,))
    world = quiet_world()
    world.wave_time_left = 1e9
    tick(director, world)
    tick(director, world, int((PENDING_MAX_S + 5) * TICK_HZ))
    assert len(src.pending) == 1 and director.superseded == 0, "still waiting on the first reply"
    src.answer(0, plan("raise"))
    tick(director, world)
    assert director.accepted == 1
    tick(director, world, int(TUNING.decide.interval_s * TICK_HZ) + 1)
    assert len(src.pending) == 2, "the schedule goes on"
    tick(director, world, int((PENDING_MAX_S + 21) * TICK_HZ))
    assert director.superseded == 1, "past the source's own deadline it is superseded all the same"


def test_the_agents_first_decision_may_take_longer_than_the_next() -> None:
    from game.ai.director_agent import COLD_DEADLINE_S, MAX_DEADLINE_S, MIN_DEADLINE_S, AgentPlanSource

    source = AgentPlanSource.__new__(AgentPlanSource)
    source.runtime = SimpleNamespace(settings=Settings())  # type: ignore[assignment]
    source._latency_s = None
    assert source.deadline_s == COLD_DEADLINE_S > MAX_DEADLINE_S
    source.runtime.settings.llm.timeout_s = 120.0
    assert source.deadline_s == 120.0, "never shorter than what the player allowed a model call"
    source._latency_s = 2.0
    assert MIN_DEADLINE_S <= source.deadline_s <= MAX_DEADLINE_S
