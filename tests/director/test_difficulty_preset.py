"""The difficulty preset ([game] difficulty, the options screen) is a tuning overlay (``[presets.*]`` of
``assets/director/tuning.toml``) that the rules source reads at each decision: the same situation eases
sooner on easy (softer hits first, ``ease_off`` once danger is at its lowest), is raised on hard where normal
holds, and an unknown name plays as normal."""

from __future__ import annotations

from typing import Any

from director_support import quiet_world

from game.director.act import hp_match
from game.director.director import Director
from game.director.knobs import KNOB
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import EASE_FIRST, RulesSource
from game.director.source import DirectorSituation, PlanRequest
from game.director.telemetry import GameSessionSnapshot
from game.director.tuning import preset_names, tuning

EASY, NORMAL, HARD = tuning("easy"), tuning("normal"), tuning("hard")


def situation(knobs: DirectorKnobs | None = None, **snap: Any) -> DirectorSituation:
    base: dict[str, Any] = {"time": 60.0, "hp_fraction": 1.0}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**base, **snap}),
        intensity=0.3,
        pacing=PacingState.BUILD_UP,
        pacing_s=5.0,
        knobs=knobs or DirectorKnobs(),
        prefabs=["grunt", "runner", "spitter", "tank"],
        events=["swarm", "supply"],
    )


def rules_plan(difficulty: str, sit: DirectorSituation) -> dict[str, Any]:
    request = PlanRequest(situation=sit, trace_id="t", seq=1, tick=1)
    reply = RulesSource(lambda: difficulty).request(request).result(0)
    assert reply.plan is not None
    return reply.plan


def pressure(difficulty: str, sit: DirectorSituation) -> str:
    return str(rules_plan(difficulty, sit)["pressure"])


def eases(difficulty: str, sit: DirectorSituation) -> bool:
    """Whether the plan eases: ``ease_off``, or the hold that softens the hits first."""
    p = rules_plan(difficulty, sit)
    return p["pressure"] == "ease_off" or str(p["reason"]).endswith(EASE_FIRST)


def test_the_shipped_presets_are_the_options_choices() -> None:
    assert list(preset_names()) == ["easy", "normal", "hard"]
    assert [t.label for t in (EASY, NORMAL, HARD)] == list(preset_names().values())


def test_easy_eases_sooner() -> None:
    assert EASY.plan.low_hp > NORMAL.plan.low_hp, "the shipped easy preset eases at a higher HP"
    hp = (EASY.plan.low_hp + NORMAL.plan.low_hp) / 2
    hurt = situation(hp_fraction=hp)
    assert not eases("normal", hurt)
    assert eases("easy", hurt) and pressure("easy", hurt) == "hold", "softer hits first"
    assert rules_plan("easy", hurt)["danger"] < hurt.knobs.danger
    lowest = situation(DirectorKnobs(danger=KNOB["danger"].lo), hp_fraction=hp)
    assert pressure("normal", lowest) != "ease_off"
    assert pressure("easy", lowest) == "ease_off", "with danger at its lowest, the crowd comes down too"
    died = situation(DirectorKnobs(danger=KNOB["danger"].lo), hp_fraction=hp, seconds_since_death=5.0)
    assert pressure("easy", died) == "ease_off", "danger at its lowest after a death: the crowd eases too"


def test_a_director_built_outside_the_game_session_plans_under_its_preset() -> None:
    """The evaluation and the headless CLI build the Director without the game session's sources: its own
    rules source reads the preset too (it used to plan as normal, whatever the preset)."""
    preset = ["easy"]
    source = Director("rules", difficulty=lambda: preset[0])._sources["rules"]
    hurt = situation(hp_fraction=(EASY.plan.low_hp + NORMAL.plan.low_hp) / 2)
    request = PlanRequest(situation=hurt, trace_id="t", seq=1, tick=1)
    reply = source.request(request).result(0)
    assert reply.plan is not None and str(reply.plan["reason"]).endswith(EASE_FIRST)
    preset[0] = "normal"  # read at each decision, as the options screen changes it
    reply = source.request(request).result(0)
    assert reply.plan is not None and not str(reply.plan["reason"]).endswith(EASE_FIRST)


def test_hard_raises_where_normal_holds() -> None:
    assert HARD.plan.raise_damage_15s > NORMAL.plan.raise_damage_15s
    scuffed = situation(damage_15s=(HARD.plan.raise_damage_15s + NORMAL.plan.raise_damage_15s) / 2)
    assert pressure("normal", scuffed) == "hold"
    assert pressure("hard", scuffed) == "raise"


def test_unknown_name_plays_as_normal() -> None:
    for sit in (situation(), situation(hp_fraction=(EASY.plan.low_hp + NORMAL.plan.low_hp) / 2)):
        assert rules_plan("nightmare", sit) == rules_plan("normal", sit)


def test_a_weak_build_meets_a_smaller_boss_on_easy_and_a_fuller_one_on_hard() -> None:
    """``[power] boss_par`` per preset: the same weak build at a boss wave meets a boss with a larger share of
    its authored HP the harder the preset (the wave-5 boss is where a weak player's run is decided)."""
    shares = {}
    for name in ("easy", "normal", "hard"):
        world = quiet_world()
        world.wave = 5  # a wave-1 blaster at wave 5: a weak build for it
        shares[name] = hp_match(world, tuning(name))[1]
    assert EASY.power.boss_par > NORMAL.power.boss_par > HARD.power.boss_par
    assert shares["easy"] < shares["normal"] < shares["hard"] <= 1.0, shares
