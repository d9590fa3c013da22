"""The weak side's comeback (``game/director/watch.py``): a first nudge big enough to reach a kiting player,
and a decision every ``COMEBACK_S`` s for a player who coasts at eased pressure (one x1.3 step per 10 s
decision took 50 s back from 0.26 to 1 while the weak bot sat bored at full HP)."""

from __future__ import annotations

from director_support import ScriptedSource, quiet_world, tick

from game.director.director import Director
from game.director.plan import DirectorKnobs
from game.director.spawner import CreditSpawner
from game.director.watch import COMEBACK_PRESSURE, COMEBACK_S, FIRST_NUDGE_GROUP, PlayerWatch, nudge_size
from game.sim.config import TICK_HZ
from game.sim.world import World


def test_the_first_nudge_is_bigger_than_the_later_ones() -> None:
    world = quiet_world(seed=3)
    watch, spawner = PlayerWatch(), CreditSpawner()
    watch._nudge(world, spawner)
    assert world.enemies.n == FIRST_NUDGE_GROUP > nudge_size(1)
    watch._nudge(world, spawner)
    assert world.enemies.n == FIRST_NUDGE_GROUP + nudge_size(1)


def _requests_while_coasting(pressure: float, seconds: float) -> int:
    src = ScriptedSource("scripted", [])  # every plan a hold: the pressure stays where the test put it
    d = Director(src.name, sources=(src,), decision_interval_s=1000.0)  # no timed decision in the window
    w = World(seed=1, spawner=d.spawner)
    w.player.iframes = 1e9  # untouched, full HP: intensity stays under the coasting line
    d.watch.state.grace = False
    d.watch.state.last_nudge = float("inf")  # no calm nudge (it asks for a decision too)
    tick(d, w)
    d.credit_spawner.knobs = DirectorKnobs(pressure=pressure)
    before = len(src.requests)
    tick(d, w, int(seconds * TICK_HZ))
    return len(src.requests) - before


def test_a_coasting_player_at_eased_pressure_gets_a_decision_every_comeback_s() -> None:
    window = 3 * COMEBACK_S + 0.5
    assert _requests_while_coasting(0.3, window) == 3  # every COMEBACK_S (the last cue was on the first tick)
    assert _requests_while_coasting(COMEBACK_PRESSURE, window) == 0  # not eased: the usual cadence
