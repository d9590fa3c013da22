"""Peak debt: a run that went ``CLIMAX_DUE_S`` without a Sustain Peak gets the ``climax`` event (two tougher
rings), each climax that brought no peak makes the next one tougher, and a new run starts with fresh
cooldowns and a fresh climax."""

from __future__ import annotations

from director_support import quiet_world, tick

from game.director import rules
from game.director.climax import CLIMAX_STEP, CLIMAX_TOUGH_PER_LEVEL, CLIMAX_WINDOW_S, Climax
from game.director.director import Director
from game.director.events import EventRegistry, surround_size
from game.director.pacing import Pacing, PacingState
from game.director.panel import limits_text
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot
from game.sim.config import TICK_HZ


def _situation(since_peak: float, **snap: object) -> DirectorSituation:
    fields: dict[str, object] = {"time": 200, "wave": 5, "level": 8, "hp_fraction": 1.0, "skill": 0.8}
    fields.update(snap)
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**fields),  # type: ignore[arg-type]
        intensity=0.1,
        pacing=PacingState.BUILD_UP,
        pacing_s=20.0,
        since_spike_s=8.0,  # a plain spike is held back by the spike gap
        since_peak_s=since_peak,
        events=list(EventRegistry().names()),
    )


def test_pacing_counts_the_time_since_the_last_peak() -> None:
    p = Pacing(seed=3)
    for _ in range(100):
        p.update(0.1, 0.5)
    assert p.since_peak == 50.0 and p.state is PacingState.BUILD_UP
    p.update(0.9, 0.5)  # a peak begins
    assert p.state is PacingState.SUSTAIN_PEAK and p.since_peak == 0.0
    for _ in range(10):
        p.update(0.9, 0.5)
    assert p.since_peak == 5.0, "the count runs on through the peak and after it"


def test_an_owed_peak_is_a_climax_past_the_spike_gap() -> None:
    owed = rules.decide(_situation(rules.CLIMAX_DUE_S + 1))
    assert owed["pressure"] == "hold" and owed["event"] == rules.CLIMAX_EVENT, owed
    assert owed["announcer"], "the climax is announced"
    young = rules.decide(_situation(rules.CLIMAX_DUE_S - 5))
    assert young.get("event") != rules.CLIMAX_EVENT, young


def test_no_climax_for_a_hurt_player_or_during_a_boss() -> None:
    hurt = rules.decide(_situation(90, hp_fraction=0.5))
    assert hurt.get("event") != rules.CLIMAX_EVENT, hurt
    beaten = rules.decide(_situation(90, damage_15s=0.3))
    assert beaten.get("event") != rules.CLIMAX_EVENT, beaten
    boss = rules.decide(_situation(90, boss_alive=True))
    assert boss.get("event") != rules.CLIMAX_EVENT, boss


def test_the_climax_is_two_rings_toughened_by_level() -> None:
    world = quiet_world(seed=4)
    world.player.level = 11
    climax = Climax()
    climax(world, placer=None)  # type: ignore[arg-type]  # the rings do not use the placer
    ring = surround_size(world.wave)
    assert world.enemies.n >= ring + 8, "the surround ring's new runners plus a second ring"
    hp = world.enemies.view("hp")
    max_hp = world.enemies.view("max_hp")
    plain = quiet_world(seed=4)
    eid = plain.spawn_enemy("runner", 10.0, 10.0)
    assert eid >= 0
    base = float(plain.enemies.view("max_hp")[0])
    assert (max_hp > base * (1.0 + CLIMAX_TOUGH_PER_LEVEL * 10) - 1e-6).all(), (base, max_hp)
    assert (hp == max_hp).all()


def test_a_climax_that_brought_no_peak_makes_the_next_tougher() -> None:
    world = quiet_world(seed=5)
    c = Climax()
    c(world, placer=None)  # type: ignore[arg-type]
    assert c.strength == 1.0
    world.time += CLIMAX_WINDOW_S + 10  # no peak came
    c(world, placer=None)  # type: ignore[arg-type]
    assert c.strength == CLIMAX_STEP
    c.note_peak(world.time + 20)  # this one worked
    world.time += 60
    c(world, placer=None)  # type: ignore[arg-type]
    assert c.strength == CLIMAX_STEP, "a climax that brought a peak keeps the strength"
    c.new_run()
    assert c.strength == 1.0 and c.fired_at is None


def test_a_new_run_restarts_event_cooldowns() -> None:
    d = Director("rules")
    w = quiet_world()
    w.time = 500.0
    d.events.fire("surround", w, placer=None)  # type: ignore[arg-type]
    assert "surround" not in d.events.ready(w)
    d.reset(seed=1)
    fresh = quiet_world(seed=1)  # game time starts at 0 again
    assert "surround" in d.events.ready(fresh), "a cooldown from the last run must not block this one"


def test_the_director_reports_peaks_to_the_climax() -> None:
    d = Director("rules")
    w = quiet_world()
    tick(d, w, 2 * TICK_HZ)
    assert d.situation(w).since_peak_s >= 1.9
    d.intensity.value = 0.95  # the next tick peaks
    tick(d, w)
    assert d.pacing.state is PacingState.SUSTAIN_PEAK
    climax = next(h for h in (e.handler for e in d.events._events.values()) if isinstance(h, Climax))
    assert climax.peak_at == w.time
    assert d.situation(w).since_peak_s < 0.1


def test_f10_shows_the_peak_debt() -> None:
    d = Director("rules")
    w = quiet_world()
    tick(d, w, TICK_HZ)
    assert "peak 1s ago" in limits_text(d, w) and "OWED" not in limits_text(d, w)
    d.pacing.since_peak = rules.CLIMAX_DUE_S + 5
    assert f"peak {rules.CLIMAX_DUE_S + 5:.0f}s ago OWED" in limits_text(d, w)
