"""The strong player's flow: the early strong read, its looser level cap, and the ``surround`` event."""

from __future__ import annotations

import math

import numpy as np

from game.director.events import (
    SURROUND_COOLDOWN_S,
    SURROUND_NEW_MAX,
    SURROUND_NEW_MIN,
    EventRegistry,
    spawn_surround,
    surround_size,
)
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import decide, level_cap, mend_due, strong_read, surround_due
from game.director.source import DirectorSituation
from game.director.spawner import SpawnPlacer, offscreen_distance
from game.director.telemetry import GameSessionSnapshot
from tests.director.director_support import quiet_world

# a strong player 25 s in: level 1, one blaster, hits nearly every shot, never touched, pressure at the
# plain level cap (1.2 + a raise), the last spike 10 s ago (no spike now)
STRONG_EARLY = dict(
    time=25.0,
    wave=1,
    level=1,
    hp_fraction=1.0,
    skill=0.52,
    accuracy=0.92,
    enemies_alive=20,
    enemies_near=2,
    kills_per_min=62.0,
    spawned_per_min=80.0,
)


def _situation(intensity: float = 0.03, pressure: float = 1.32, **snap: object) -> DirectorSituation:
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**STRONG_EARLY, **snap}),
        intensity=intensity,
        pacing=PacingState.BUILD_UP,
        pacing_s=25.0,
        since_spike_s=10.0,
        knobs=DirectorKnobs(pressure=pressure),
        prefabs=["grunt", "runner", "tank", "spitter"],
        events=["swarm", "boss", "supply", "surround"],
    )


def test_strong_read_needs_accuracy_or_rating_and_no_recent_damage() -> None:
    assert strong_read(_situation().snapshot)
    assert not strong_read(_situation(accuracy=0.75).snapshot)  # the average bot's first 30 s
    assert strong_read(_situation(accuracy=0.75, skill=0.75).snapshot)  # rated strong by the estimate
    assert not strong_read(_situation(damage_30s=0.2).snapshot)  # hit: the read is off until it heals


def test_a_strong_read_lifts_the_level_cap_at_low_levels_only() -> None:
    assert level_cap(1, strong=True) > level_cap(1) + 0.5
    assert level_cap(5, strong=True) == level_cap(5)


def test_a_strong_level1_player_coasting_at_the_plain_level_cap_is_raised() -> None:
    # the old policy held here (pressure 1.32 past the level-1 cap of 1.2) and the strong bot idled
    # through its first minute bored
    assert decide(_situation())["pressure"] == "raise"
    assert decide(_situation(accuracy=0.75))["pressure"] == "hold"  # an average player keeps the cap


def test_a_coasting_strong_player_gets_a_surround_an_average_one_does_not() -> None:
    assert surround_due(_situation())
    assert decide(_situation())["event"] == "surround"
    assert "event" not in decide(_situation(accuracy=0.75))
    assert not surround_due(_situation(damage_15s=0.2))  # hurt: no ring
    assert not surround_due(_situation(intensity=0.6))  # already in the band
    assert not surround_due(_situation(boss_alive=True))


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
    new = max(SURROUND_NEW_MIN, surround_size(w.wave) - 8)
    assert before < w.enemies.n <= before + SURROUND_NEW_MAX
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
    assert w.enemies.n == min(surround_size(w.wave), SURROUND_NEW_MAX)
    assert "cooldown" in (reg.not_ready("surround", w) or "")


def test_a_surround_always_brings_a_few_fast_ones_even_when_the_crowd_fills_the_ring() -> None:
    # the trailing crowd is slow grunts: a ring of them alone never reached the strong bot (seed 4002)
    w = quiet_world()
    w.step()
    p = w.player
    for i in range(40):
        w.spawn_enemy("grunt", p.x - 900 - 10 * i, p.y)
    spawn_surround(w, SpawnPlacer())
    assert w.enemies.n == 40 + SURROUND_NEW_MIN
    kinds = w.enemies.view("kind")
    assert int((kinds == w.prefabs.index("runner")).sum()) == SURROUND_NEW_MIN


def test_a_surround_is_ready_again_after_its_short_cooldown() -> None:
    # every 12 s, not 20: between two rings a strong player had cleared the field and idled (bored)
    reg = EventRegistry()
    w = quiet_world()
    w.step()
    reg.fire("surround", w, SpawnPlacer())
    w.time += SURROUND_COOLDOWN_S - 0.5
    assert reg.not_ready("surround", w) is not None
    w.time += 1.0
    assert reg.not_ready("surround", w) is None
    assert SURROUND_COOLDOWN_S <= 12.0


def test_a_calm_hurt_strong_player_gets_supply_so_the_raises_resume() -> None:
    # seed 5004: the strong bot sat 60 s at 55% HP, untouched, intensity 0: every raise, spike and ring waits
    # for 60-80% HP, so the old policy held (no event) until the run ended
    hurt = _situation(intensity=0.0, hp_fraction=0.55, time=100.0, skill=0.72, pressure=2.23)
    assert decide(hurt)["pressure"] == "hold"
    assert mend_due(hurt)
    assert decide(hurt)["event"] == "supply"
    average = _situation(intensity=0.0, hp_fraction=0.55, accuracy=0.75, skill=0.5)
    assert "event" not in decide(average)
    assert not mend_due(_situation(intensity=0.0, hp_fraction=0.55, damage_30s=0.2))  # still being hit
    assert not mend_due(_situation(intensity=0.3, hp_fraction=0.55))  # not calm
    assert not mend_due(_situation(intensity=0.0, hp_fraction=0.9))  # healthy: the raises take it
    no_supply = _situation(intensity=0.0, hp_fraction=0.55).model_copy(update={"events": ["swarm"]})
    assert "event" not in decide(no_supply)  # supply on cooldown
