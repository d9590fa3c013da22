"""The difficulty preset ([game] difficulty, the options screen) moves the rules director's targets: the same
situation is a hold on normal, a raise on hard, and on easy the director eases off at a higher HP."""

from __future__ import annotations

from typing import Any

from game.difficulty import PRESETS, preset
from game.director.pacing import PacingState
from game.director.rules import RulesSource
from game.director.source import DirectorSituation, PlanRequest
from game.director.telemetry import GameSessionSnapshot


def situation(intensity: float, **snap: Any) -> DirectorSituation:
    base: dict[str, Any] = {"time": 60.0, "hp_fraction": 0.9}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**base, **snap}),
        intensity=intensity,
        pacing=PacingState.BUILD_UP,
        prefabs=["grunt", "runner", "spitter", "tank"],
        events=["swarm"],
    )


def pressure(difficulty: str, sit: DirectorSituation) -> str:
    request = PlanRequest(situation=sit, trace_id="t", seq=1, tick=1)
    reply = RulesSource(lambda: difficulty).request(request).result(0)
    assert reply.plan is not None
    return str(reply.plan["pressure"])


def test_presets_move_the_intensity_target() -> None:
    middling = situation(0.5)
    assert pressure("normal", middling) == "hold"
    assert pressure("hard", middling) == "raise"
    assert pressure("easy", situation(0.35)) == "hold"  # normal would raise at 0.35
    assert pressure("normal", situation(0.35)) == "raise"


def test_easy_eases_off_sooner() -> None:
    hurt = situation(0.3, hp_fraction=0.4)
    assert pressure("normal", hurt) != "ease_off"
    assert pressure("easy", hurt) == "ease_off"


def test_unknown_name_is_normal() -> None:
    assert preset("nightmare") == PRESETS["normal"]
