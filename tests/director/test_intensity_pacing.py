"""L4D intensity (rise, decay, freeze, clamp) and the pacing state machine's transitions and timings."""

from __future__ import annotations

import pytest

from game.director.intensity import IntensityTracker
from game.director.pacing import Pacing, PacingState, income
from game.director.tuning import TUNING
from game.sim import events as ev
from game.sim.config import DT

IT = TUNING.intensity


def step(
    t: IntensityTracker,
    events: list[ev.Event] | None = None,
    *,
    hp: float = 1.0,
    max_hp: float = 100.0,
    engaged: bool = False,
    n: int = 1,
) -> float:
    for _ in range(n):
        t.update(events or [], hp_fraction=hp, max_hp=max_hp, engaged=engaged, dt=DT)
        events = None
    return t.value


def test_damage_raises_intensity_scaled_by_max_hp() -> None:
    a, b = IntensityTracker(), IntensityTracker()
    step(a, [ev.PlayerDamaged(10.0, 90.0, "contact")], hp=0.9, max_hp=100.0)
    step(b, [ev.PlayerDamaged(10.0, 190.0, "contact")], hp=0.95, max_hp=200.0)
    assert a.value == pytest.approx(IT.damage_gain * 0.10)
    assert b.value == pytest.approx(a.value / 2)  # the same hit means half as much at twice the max HP


def test_near_kills_raise_far_kills_do_not() -> None:
    t = IntensityTracker()
    near = ev.EnemyKilled(1, "grunt", 0, 0, False, 10, True)
    far = ev.EnemyKilled(2, "grunt", 0, 0, False, 10, False)
    step(t, [far, far, far], engaged=True)
    assert t.value == 0.0
    step(t, [near, near], engaged=True)
    assert t.value == pytest.approx(2 * IT.near_kill_gain)


def test_near_death_counts_once_until_hp_recovers() -> None:
    t = IntensityTracker()
    low = ev.PlayerDamaged(5.0, 20.0, "contact")
    step(t, [low], hp=0.2)
    first = t.value
    assert first == pytest.approx(IT.damage_gain * 0.05 + IT.near_death_gain)
    step(t, [low], hp=0.15)
    assert t.value - first == pytest.approx(IT.damage_gain * 0.05)  # not re-armed yet
    step(t, hp=0.8, engaged=True)  # healed above the re-arm line
    before = t.value
    step(t, [low], hp=0.2)
    assert t.value - before == pytest.approx(IT.damage_gain * 0.05 + IT.near_death_gain)


def test_death_pins_intensity_to_one_and_clamps() -> None:
    t = IntensityTracker()
    step(t, [ev.PlayerDied(3.0, 1)])
    assert t.value == 1.0
    step(t, [ev.PlayerDamaged(500.0, 0.0, "contact")], hp=0.0)
    assert t.value == 1.0


def test_decays_when_out_of_combat() -> None:
    t = IntensityTracker()
    t.value = 0.8
    secs = 4.0
    step(t, n=int(secs / DT))
    assert t.value == pytest.approx(0.8 - IT.decay_per_s * secs, abs=1e-6)
    assert not t.frozen
    step(t, n=int(30 / DT))
    assert t.value == 0.0


def test_frozen_while_enemies_engage() -> None:
    t = IntensityTracker()
    t.value = 0.6
    step(t, engaged=True, n=600)
    assert t.value == pytest.approx(0.6)
    assert t.frozen


def test_frozen_for_a_grace_period_after_a_hit() -> None:
    t = IntensityTracker()
    step(t, [ev.PlayerDamaged(20.0, 80.0, "projectile")], hp=0.8)
    peak = t.value
    step(t, hp=0.8, n=int(IT.engage_grace_s / DT) - 2)
    assert t.value == pytest.approx(peak)  # still "in combat"
    step(t, hp=0.8, n=60)
    assert t.value < peak


def run_pacing(p: Pacing, intensity: float, seconds: float) -> list[tuple[float, PacingState]]:
    """(time, state) at each transition while feeding a constant intensity."""
    out = []
    state = p.state
    for i in range(round(seconds / DT)):
        p.update(intensity, DT)
        if p.state is not state:
            state = p.state
            out.append(((i + 1) * DT, state))
    return out


PT = TUNING.pacing


def test_pacing_full_loop_and_timings() -> None:
    p = Pacing(seed=3)
    assert p.state is PacingState.BUILD_UP
    assert run_pacing(p, PT.peak_intensity - 0.05, 30.0) == []  # below the peak threshold: keeps building
    assert run_pacing(p, PT.peak_intensity, DT) == [(DT, PacingState.SUSTAIN_PEAK)]
    sustain = run_pacing(p, 1.0, PT.sustain_s[1] + 1.0)
    assert sustain[0][1] is PacingState.PEAK_FADE
    assert PT.sustain_s[0] <= sustain[0][0] <= PT.sustain_s[1] + DT
    assert run_pacing(p, max(PT.fade_exit, 0.9), 1.0) == []  # fade holds while intensity is high
    assert run_pacing(p, PT.fade_exit - 0.01, DT) == [(DT, PacingState.RELAX)]
    # not yet calm (above relax_exit): the drawn relax window runs out
    relax = run_pacing(p, (PT.relax_exit + PT.fade_exit) / 2, PT.relax_s[1] + 5.0)
    assert relax[0][1] is PacingState.BUILD_UP
    assert PT.relax_s[0] <= relax[0][0] <= PT.relax_s[1] + DT


def test_relax_ends_early_once_the_player_is_calm() -> None:
    p = Pacing(seed=3)
    run_pacing(p, PT.peak_intensity, DT)
    run_pacing(p, 1.0, PT.sustain_s[1] + 1.0)
    run_pacing(p, PT.fade_exit - 0.01, DT)
    assert p.state is PacingState.RELAX
    calm = run_pacing(p, PT.relax_exit - 0.01, PT.relax_s[1] + 5.0)
    assert calm[0] == (pytest.approx(PT.relax_min_s, abs=DT), PacingState.BUILD_UP)


def test_peak_fade_gives_up_after_its_maximum() -> None:
    p = Pacing(seed=1)
    run_pacing(p, 1.0, DT)
    # intensity never falls (an engaged player): the fade still ends after its maximum
    changes = run_pacing(p, 1.0, PT.sustain_s[1] + PT.fade_max_s + 1.0)
    assert [s for _, s in changes[:2]] == [PacingState.PEAK_FADE, PacingState.RELAX]
    assert changes[1][0] - changes[0][0] == pytest.approx(PT.fade_max_s, abs=2 * DT)


def test_pacing_durations_are_seeded() -> None:
    def durations(seed: int) -> list[float]:
        p = Pacing(seed)
        out = []
        for _ in range(3):
            run_pacing(p, 1.0, DT)
            out.append(p.state_duration)
            run_pacing(p, 1.0, PT.sustain_s[1] + 1.0)
            run_pacing(p, 0.0, DT)
            out.append(p.state_duration)
            run_pacing(p, 0.0, PT.relax_s[1] + 1.0)
        return out

    assert durations(5) == durations(5)
    assert durations(5) != durations(6)
    lo, hi = min(PT.sustain_s[0], PT.relax_s[0]), max(PT.sustain_s[1], PT.relax_s[1])
    assert all(lo <= d <= hi for d in durations(5))


def test_pacing_reads_its_tuning() -> None:
    """The loop's timings are data: a Pacing built with other values follows them, not the shipped ones."""
    short = PT.model_copy(update={"sustain_s": (1.0, 1.0), "fade_max_s": 2.0})
    p = Pacing(seed=2, tuning=short)
    run_pacing(p, 1.0, DT)
    changes = run_pacing(p, 1.0, 4.0)
    assert [s for _, s in changes[:2]] == [PacingState.PEAK_FADE, PacingState.RELAX]
    assert changes[0][0] == pytest.approx(1.0, abs=2 * DT)
    assert changes[1][0] - changes[0][0] == pytest.approx(2.0, abs=2 * DT)


def test_income_share_per_state() -> None:
    assert income(PacingState.BUILD_UP) == income(PacingState.SUSTAIN_PEAK) == 1.0
    assert income(PacingState.PEAK_FADE) == PT.fade_income
    assert income(PacingState.RELAX) == PT.relax_income
    other = PT.model_copy(update={"relax_income": 0.1})
    assert income(PacingState.RELAX, other) == 0.1


def test_pacing_counts_the_time_since_the_last_peak() -> None:
    p = Pacing(seed=3)
    for _ in range(100):
        p.update(0.1, 0.5)
    assert p.since_peak == 50.0 and p.state is PacingState.BUILD_UP
    p.update(1.0, 0.5)  # a peak begins
    assert p.state is PacingState.SUSTAIN_PEAK and p.since_peak == 0.0
    for _ in range(10):
        p.update(1.0, 0.5)
    assert p.since_peak == 5.0, "the count runs on through the peak and after it"
