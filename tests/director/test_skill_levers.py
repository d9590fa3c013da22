"""The skill estimate, recovery over a longer window, the levers past pressure, saturation, the announcer."""

from __future__ import annotations

from game.difficulty import preset
from game.director.director import Director
from game.director.knobs import KNOB
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import decide, pressure_ceiling
from game.director.saturation import saturation
from game.director.skill import SkillEstimator, label, signals
from game.director.source import DirectorSituation
from game.director.spawner import group_interval, live_cap_for, max_group
from game.director.telemetry import GameSessionSnapshot
from game.sim import events as ev
from tests.director.director_support import ScriptedSource, directed_world, plan, quiet_world, tick


def _situation(**snap: object) -> DirectorSituation:
    knobs = snap.pop("knobs", DirectorKnobs())
    intensity = float(snap.pop("intensity", 0.4))  # type: ignore[arg-type]
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**snap),  # type: ignore[arg-type]
        intensity=intensity,
        pacing=PacingState.BUILD_UP,
        knobs=knobs,  # type: ignore[arg-type]
        prefabs=["grunt", "runner", "tank", "spitter"],
        events=["swarm", "boss"],
    )


def test_signals_rank_a_dominant_player_above_a_struggling_one() -> None:
    strong = signals(kills=90, spawned=95, damage_bars=0.05, minutes=1, accuracy=0.8, alive_s=200)
    weak = signals(kills=30, spawned=90, damage_bars=2.0, minutes=1, accuracy=0.3, alive_s=20)
    assert strong.score() > 0.85 > 0.2 > weak.score()
    # the same damage taken under triple pressure counts for less
    hard = signals(kills=50, spawned=80, damage_bars=1.0, minutes=1, accuracy=0.5, alive_s=60, pressure=3)
    easy = signals(kills=50, spawned=80, damage_bars=1.0, minutes=1, accuracy=0.5, alive_s=60, pressure=0.5)
    assert hard.damage > easy.damage


def test_estimate_starts_at_the_prior_follows_evidence_and_drops_on_death() -> None:
    est = SkillEstimator()
    start = est.value
    good = signals(kills=60, spawned=60, damage_bars=0.0, minutes=1, accuracy=0.9, alive_s=120)
    for t in range(1, 31):
        est.update(good, 1.0, float(t))
    assert est.value > start + 0.3 and label(est.value) in ("average", "strong")
    before = est.value
    est.on_death()
    assert est.value < before


def test_telemetry_counts_deaths_and_damage_over_longer_windows() -> None:
    d = Director("rules")
    w = quiet_world()
    for _ in range(5):
        w.step()
        w.events.append(ev.PlayerDamaged(30.0, 70.0, "test"))
        d.telemetry.update(w)
    w.step()
    w.events.append(ev.PlayerDied(w.time, 1))
    d.telemetry.update(w)
    for _ in range(20 * 60):  # 20 s later the 15 s window is empty, the 30 s one is not
        w.step()
        d.telemetry.update(w)
    snap = d.telemetry.snapshot(w)
    assert snap.damage_15s == 0.0 and snap.damage_30s >= 1.0 and snap.deaths_60s == 1


def test_two_deaths_and_a_bar_lost_in_30s_recover_not_hold() -> None:
    s = _situation(
        time=140,
        wave=4,
        hp_fraction=0.8,
        deaths=2,
        deaths_60s=2,
        seconds_since_death=25,
        damage_15s=0.1,
        damage_30s=1.0,
        damage_60s=1.8,
        enemies_alive=25,
        enemies_near=4,
    )
    assert decide(s)["pressure"] == "ease_off"


def test_skill_sets_the_ceiling_and_escalation_moves_elites_then_tier() -> None:
    assert pressure_ceiling(0.2) < pressure_ceiling(0.5) < pressure_ceiling(0.85)
    assert (
        pressure_ceiling(0.5, preset("easy")) < pressure_ceiling(0.5) < pressure_ceiling(0.5, preset("hard"))
    )
    weak_at_ceiling = _situation(
        time=150, wave=4, hp_fraction=0.9, skill=0.3, knobs=DirectorKnobs(pressure=0.8)
    )
    assert decide(weak_at_ceiling)["pressure"] == "hold"
    strong = dict(time=300, wave=7, level=9, hp_fraction=1.0, skill=0.85, enemies_near=1, intensity=0.05)
    p = decide(_situation(**strong, knobs=DirectorKnobs(pressure=3.0)))  # type: ignore[arg-type]
    assert p["pressure"] == "spike" and p["elite_chance"] > 0
    p = decide(_situation(**strong, knobs=DirectorKnobs(pressure=3.0, elite_chance=0.2)))  # type: ignore[arg-type]
    assert p["tier"] == 1.0
    eased = decide(_situation(time=300, hp_fraction=0.2, knobs=DirectorKnobs(tier=2.0, elite_chance=0.2)))
    assert eased["pressure"] == "ease_off" and eased["tier"] == 1.0 and eased["elite_chance"] < 0.2


def test_toughness_rises_with_escalation_and_damage_against_escalated_enemies_eases() -> None:
    strong = dict(time=300, wave=7, level=9, hp_fraction=1.0, skill=0.85, enemies_near=1, intensity=0.05)
    maxed = DirectorKnobs(pressure=3.0, elite_chance=0.35, tier=4.0, pickup_rate=0.25, toughness=2.0)
    p = decide(_situation(**strong, knobs=maxed))  # type: ignore[arg-type]
    assert p["pressure"] == "spike" and p["toughness"] > 2.0  # the lever that still has room moves
    hurt = dict(time=300, wave=7, hp_fraction=0.7, skill=0.85, damage_15s=0.35, intensity=0.6)
    assert decide(_situation(**hurt))["pressure"] != "ease_off"  # type: ignore[arg-type]
    eased = decide(_situation(**hurt, knobs=DirectorKnobs(pressure=2.0, toughness=2.0)))  # type: ignore[arg-type]
    assert eased["pressure"] == "ease_off" and eased["toughness"] < 2.0


def test_unproven_player_gets_no_early_spike_a_proven_one_does() -> None:
    base = dict(time=15, wave=1, hp_fraction=1.0, enemies_near=0, intensity=0.02, spawned_per_min=40)
    assert decide(_situation(**base, skill=0.35, kills_per_min=10))["pressure"] == "raise"  # type: ignore[arg-type]
    assert decide(_situation(**base, skill=0.4, kills_per_min=38))["pressure"] == "spike"  # type: ignore[arg-type]


def test_pressure_buys_faster_bigger_groups_and_eased_pressure_caps_the_crowd() -> None:
    assert group_interval(3.0) < group_interval(1.0) == group_interval(0.5)
    assert max_group(3.0) > max_group(1.0) == max_group(0.3)
    assert live_cap_for(0.3) < 15 < live_cap_for(1.0) < live_cap_for(2.0)


def test_tier_reads_cards_and_credits_waves_ahead() -> None:
    d = Director("rules")
    w = directed_world(d)
    base = {c.prefab for c in d.credit_spawner.cards(w)}
    rate = d.credit_spawner.credits_per_second(w)
    d.credit_spawner.knobs = DirectorKnobs(tier=KNOB["tier"].hi)
    assert {c.prefab for c in d.credit_spawner.cards(w)} > base
    assert d.credit_spawner.credits_per_second(w) > rate


def test_saturated_knobs_are_listed_and_exhaustion_flagged() -> None:
    knobs = DirectorKnobs(pressure=3.0, elite_chance=0.35, tier=4.0, pickup_rate=0.25)
    sat = saturation(knobs)
    assert {"pressure", "elite_chance", "tier", "pickup_rate"} <= set(sat.up)
    assert not sat.escalation_exhausted  # toughness still has room: the lever that adds no kills (no XP)
    sat = saturation(knobs.model_copy(update={"toughness": KNOB["toughness"].hi}))
    assert "toughness" in sat.up and sat.escalation_exhausted and "max" in sat.describe()
    assert not saturation(DirectorKnobs()).escalation_exhausted


def test_hold_after_raise_clears_the_announcer_and_panel_shows_skill_and_saturation() -> None:
    src = ScriptedSource("scripted", [plan("raise", announcer="They're getting bolder."), plan("hold")])
    d = Director("scripted", sources=(src,), decision_interval_s=1.0)
    w = directed_world(d)
    tick(d, w, 2)
    assert d.last_announcer == "They're getting bolder."
    tick(d, w, 40)  # the early decision interval is half of 1 s
    assert d.last_plan is not None and d.last_plan.pressure == "hold"
    assert d.last_announcer == ""
    panel = d.panel(w)
    assert panel.skill_line().startswith("skill 0.") and panel.saturation_line().startswith("saturated:")
