"""The ``surround`` event, the spike the rules bring a player who kites (``SPIKE_EVENTS``): the crowd trailing
the player off screen is moved onto a ring, a few fast runners join it, from every side, never on screen."""

from __future__ import annotations

import math

import numpy as np

from game.director.events import EventRegistry
from game.director.pacing import PacingState
from game.director.rules import SPIKE_EVENTS, decide
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot
from game.director.tuning import TUNING
from game.sim.placement import SpawnPlacer
from game.sim.set_pieces import spawn_surround, surround_size
from tests.director.director_support import offscreen_distance, quiet_world

NEW_MIN, NEW_MAX = TUNING.events.surround_new


def test_a_due_spike_brings_a_surround_when_it_is_ready_else_a_swarm() -> None:
    due = TUNING.plan.peak_due_s + 1.0

    def spike_event(events: list[str]) -> str | None:
        sit = DirectorSituation(
            snapshot=GameSessionSnapshot(time=200.0, wave=4, hp_fraction=1.0),
            intensity=0.1,
            pacing=PacingState.BUILD_UP,
            pacing_s=due,
            events=events,
        )
        plan = decide(sit)
        assert plan["pressure"] == "spike"
        return plan["event"]

    assert spike_event(["swarm", "surround"]) == "surround" == SPIKE_EVENTS[0]
    assert spike_event(["swarm"]) == "swarm", "the ring on cooldown: the swarm"


def test_surround_moves_the_trailing_crowd_onto_a_ring_and_adds_at_most_a_few() -> None:
    w = quiet_world()
    w.step()
    p = w.player
    # a conga line: 8 grunts trailing the player far off screen to the left, 3 near it
    for i in range(8):
        w.spawn_enemy("grunt", p.x - 900 - 20 * i, p.y + 5 * i)
    for i in range(3):
        w.spawn_enemy("grunt", p.x + 80, p.y + 30 * i)
    before = w.enemies.n
    spawn_surround(w, SpawnPlacer())
    new = max(NEW_MIN, surround_size(w.wave) - 8)
    assert before < w.enemies.n <= before + NEW_MAX
    assert w.enemies.n == before + new  # the 8 trailing ones were moved, the rest of the ring is new
    dx, dy = w.enemies.view("x") - p.x, w.enemies.view("y") - p.y
    ring = np.hypot(dx, dy) > 300  # the three near ones stayed where they were
    assert int(ring.sum()) == 8 + new
    angles = np.arctan2(dy[ring], dx[ring])
    quadrants = {int((a + math.pi) // (math.pi / 2)) % 4 for a in angles}
    assert quadrants == {0, 1, 2, 3}  # every side
    for a, d in zip(angles, np.hypot(dx, dy)[ring], strict=True):
        assert d >= offscreen_distance(float(a)) - 1.0  # just off screen, never on it


def test_surround_is_a_registered_event_with_a_cooldown() -> None:
    reg = EventRegistry()
    w = quiet_world()
    w.step()
    assert "surround" in reg and reg.not_ready("surround", w) is None
    reg.fire("surround", w, SpawnPlacer())
    assert w.enemies.n == min(surround_size(w.wave), NEW_MAX)
    assert "cooldown" in (reg.not_ready("surround", w) or "")


def test_a_surround_always_brings_a_few_fast_ones_even_when_the_crowd_fills_the_ring() -> None:
    # the trailing crowd is slow grunts: a ring of them alone never reached the strong bot (seed 4002)
    w = quiet_world()
    w.step()
    p = w.player
    for i in range(40):
        w.spawn_enemy("grunt", p.x - 900 - 10 * i, p.y)
    spawn_surround(w, SpawnPlacer())
    assert w.enemies.n == 40 + NEW_MIN
    kinds = w.enemies.view("kind")
    assert int((kinds == w.prefabs.index("runner")).sum()) == NEW_MIN


def test_a_surround_is_ready_again_after_its_short_cooldown() -> None:
    # every 12 s, not 20: between two rings a strong player had cleared the field and idled (bored)
    reg = EventRegistry()
    w = quiet_world()
    w.step()
    reg.fire("surround", w, SpawnPlacer())
    w.time += TUNING.events.surround_cooldown_s - 0.5
    assert reg.not_ready("surround", w) is not None
    w.time += 1.0
    assert reg.not_ready("surround", w) is None
    assert TUNING.events.surround_cooldown_s <= 12.0


def test_an_event_s_new_enemies_get_the_toughness_knob_like_the_bank_s() -> None:
    from game.director.plan import DirectorKnobs
    from game.sim.spawner import CreditSpawner

    w = quiet_world()
    w.step()
    spawner = CreditSpawner(DirectorKnobs(toughness=3.0))
    EventRegistry().fire("surround", w, SpawnPlacer(), spawner.toughen_from)
    hp, max_hp = w.enemies.view("hp"), w.enemies.view("max_hp")
    plain = EventRegistry()
    w2 = quiet_world()
    w2.step()
    plain.fire("surround", w2, SpawnPlacer())
    assert w.enemies.n == w2.enemies.n > 0
    assert np.allclose(max_hp, 3.0 * w2.enemies.view("max_hp")) and np.allclose(hp, max_hp)
