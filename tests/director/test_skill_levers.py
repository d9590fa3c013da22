"""The skill estimate, the pressure ceiling it sets, the levers past pressure, saturation, the announcer."""

from __future__ import annotations

from game.director.act import crowd_max_for
from game.director.director import Director
from game.director.knobs import KNOB
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import EASE_FIRST, decide, pressure_ceiling
from game.director.saturation import saturation
from game.director.skill import SkillEstimator, label, signals
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot
from game.director.tuning import TUNING, tuning
from game.render.ai_panels.director_view import panel_view
from game.sim import events as ev
from game.sim.spawner import group_interval, max_group
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


def test_skill_sets_the_ceiling_and_the_presets_move_it() -> None:
    level = 20  # past the level cap
    assert pressure_ceiling(0.2, level, TUNING) < pressure_ceiling(0.5, level, TUNING)
    assert pressure_ceiling(0.5, level, TUNING) < pressure_ceiling(0.85, level, TUNING)
    easy, hard = tuning("easy"), tuning("hard")
    assert pressure_ceiling(0.5, level, easy) < pressure_ceiling(0.5, level, TUNING)
    assert pressure_ceiling(0.5, level, TUNING) < pressure_ceiling(0.5, level, hard)
    weak = 0.3
    weak_at_ceiling = _situation(
        time=150,
        wave=4,
        level=level,
        hp_fraction=0.9,
        skill=weak,
        knobs=DirectorKnobs(pressure=pressure_ceiling(weak, level, TUNING)),
    )
    assert decide(weak_at_ceiling)["pressure"] == "hold"


def test_escalation_is_one_lever_a_decision_and_easing_brings_them_down() -> None:
    skill = TUNING.plan.escalate_skill + 0.2
    knobs = DirectorKnobs(pressure=pressure_ceiling(skill, 9, TUNING))
    order: list[str] = []
    for _ in range(16):  # a strong player at the ceiling, never hurt: a lever a decision
        p = decide(_situation(time=300, wave=7, level=9, hp_fraction=1.0, skill=skill, knobs=knobs))
        assert p["pressure"] == "hold"
        moved = {n for n in ("danger", "elite_chance", "toughness", "tier") if n in p}
        if not moved:
            break
        assert len(moved) == 1
        order += moved
        knobs = knobs.model_copy(update={n: p[n] for n in moved})
    first_other = next(i for i, n in enumerate(order) if n != "danger")
    assert set(order[:first_other]) == {"danger"} and "danger" not in order[first_other:], order
    lasting = next(i for i, n in enumerate(order) if n not in ("danger", "tier"))
    assert set(order[first_other:lasting]) == {"tier"}, "then later kinds and more credits (adds kills)"
    assert "tier" not in order[lasting:], order
    assert knobs.danger == KNOB["danger"].hi, "the hits are at their hardest before enemies last longer"
    assert knobs.tier == KNOB["tier"].hi, "... and the kinds at their latest"
    assert knobs.elite_chance > 0 and knobs.toughness > KNOB["toughness"].lo, knobs
    hurt = TUNING.plan.low_hp / 2
    eased = decide(_situation(time=300, hp_fraction=hurt, knobs=knobs))
    assert eased["pressure"] == "hold" and eased["reason"].endswith(EASE_FIRST), "softer hits first"
    assert eased["danger"] < knobs.danger and eased["elite_chance"] < knobs.elite_chance
    assert eased["toughness"] < knobs.toughness
    lowest = knobs.model_copy(update={"danger": KNOB["danger"].lo})
    eased = decide(_situation(time=300, hp_fraction=hurt, knobs=lowest))
    assert eased["pressure"] == "ease_off", "danger at its lowest: the crowd comes down too"
    eased = decide(_situation(time=300, hp_fraction=hurt, seconds_since_death=5.0, deaths=1, knobs=lowest))
    assert eased["pressure"] == "ease_off", "danger at its lowest after a death: the crowd's size eases too"
    assert eased["elite_chance"] < knobs.elite_chance and eased["toughness"] < knobs.toughness


def test_pressure_buys_faster_bigger_groups_and_kill_pace_sizes_the_crowd() -> None:
    assert group_interval(3.0) < group_interval(1.0) == group_interval(0.7)
    assert max_group(3.0) > max_group(1.0) == max_group(0.7)
    assert crowd_max_for(0.0) == TUNING.bank.crowd_min < crowd_max_for(60.0) < crowd_max_for(120.0)
    assert crowd_max_for(60.0) == TUNING.bank.crowd_min + int(TUNING.bank.crowd_clear_s)


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
    assert "toughness" in sat.up and not sat.escalation_exhausted  # the danger knob still has room
    sat = saturation(
        knobs.model_copy(update={"toughness": KNOB["toughness"].hi, "danger": KNOB["danger"].hi})
    )
    assert {"toughness", "danger"} <= set(sat.up) and sat.escalation_exhausted and "max" in sat.describe()
    assert not saturation(DirectorKnobs()).escalation_exhausted


def test_hold_after_raise_clears_the_announcer_and_panel_shows_skill_and_saturation() -> None:
    src = ScriptedSource("scripted", [plan("raise", announcer="They're getting bolder."), plan("hold")])
    d = Director("scripted", sources=(src,), decision_interval_s=1.0)
    w = directed_world(d)
    tick(d, w, 2)
    assert d.last_announcer == "They're getting bolder."
    tick(d, w, 70)  # past the 1 s decision interval
    assert d.last_plan is not None and d.last_plan.pressure == "hold"
    assert d.last_announcer == ""
    panel = panel_view(d, w)
    assert panel.skill_line().startswith("skill 0.") and panel.saturation_line().startswith("saturated:")


def test_escalation_goes_on_with_toughness_once_elites_are_at_their_top() -> None:
    # elites at their top, toughness short of the elite pairing: the lever is toughness, not the saturated
    # elite chance (a skilled player's escalation stalled there at toughness 3.5 of 6)
    knobs = DirectorKnobs(
        pressure=3.0, danger=KNOB["danger"].hi, tier=KNOB["tier"].hi,
        elite_chance=KNOB["elite_chance"].hi, toughness=3.5,
    )  # fmt: skip
    out = decide(_situation(hp_fraction=1.0, skill=0.95, level=30, knobs=knobs))
    assert out.get("toughness", 0.0) > 3.5 and "elite_chance" not in out, out
