"""A wave start or a new Build Up asks for a decision without throwing away a slow model's reply in flight;
a death still does (a plan made before it is stale). Before, every wave start superseded the request in
flight, so a local model that needs 5-8 s under load rarely landed a decision (seen in a real window)."""

from __future__ import annotations

from director_support import ManualSource, plan, tick

from game.director.director import Director
from game.director.pacing import PacingState
from game.sim.world import World


def setup() -> tuple[ManualSource, Director, World]:
    src = ManualSource()
    d = Director(src.name, sources=(src,))
    w = World(seed=1, spawner=d.spawner)
    w.player.iframes = 1e9
    return src, d, w


def test_a_wave_start_lets_the_reply_in_flight_land() -> None:
    src, d, w = setup()
    tick(d, w)
    assert len(src.pending) == 1
    d.spawner.on_wave_start(w, 2)
    tick(d, w, 3)
    assert len(src.pending) == 1 and d.superseded == 0, "the wave start kept the request in flight"
    src.answer(0, plan("hold"))
    tick(d, w)
    assert d.accepted == 1 and d.last_plan is not None and d.last_plan.pressure == "hold"


def test_a_new_build_up_lets_the_reply_in_flight_land() -> None:
    src, d, w = setup()
    tick(d, w)
    d.pacing.state, d.pacing.time_in_state = PacingState.RELAX, 100.0  # a Relax past its end
    tick(d, w)
    assert d.pacing.state is PacingState.BUILD_UP, "the director's tick began a new Build Up"
    tick(d, w, 2)
    assert d.superseded == 0 and len(src.pending) == 1


def test_a_death_still_supersedes_the_reply_in_flight() -> None:
    src, d, w = setup()
    w.respawn = True
    tick(d, w)
    w.player.iframes = 0.0
    w.hurt_player(w.player.hp + 1.0, "test")
    tick(d, w, 2)
    assert w.stats.deaths == 1
    assert d.superseded == 1 and len(src.pending) == 2 and src.pending[0][1].cancelled()
