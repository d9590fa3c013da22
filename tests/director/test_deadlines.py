"""A decision that misses its time is superseded and counted, never applied, and the previous plan keeps
running: past the source's own ``deadline_s`` (set from its measured latency), or when the model call
timed out."""

from __future__ import annotations

from director_support import ManualSource, ScriptedSource, plan, quiet_world, tick

from coreai.errors import LlmError, LlmErrorCode
from game.director.director import Director
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
