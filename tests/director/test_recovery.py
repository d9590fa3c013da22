"""Recovery: the 'full bar lost in 30 s' rule judges the current life, not the bar that killed the player
(easing went on 20-30 s after a death at full HP: weak bot, seed 3004)."""

from __future__ import annotations

from typing import Any

from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.rules import RECENT_DEATH_S, decide
from game.director.source import DirectorSituation
from game.director.telemetry import GameSessionSnapshot


def _sit(**snap: Any) -> DirectorSituation:
    base: dict[str, Any] = {"time": 230, "wave": 5, "level": 9, "skill": 0.4, "kills_per_min": 60}
    return DirectorSituation(
        snapshot=GameSessionSnapshot(**{**base, **snap}),
        intensity=0.2,
        pacing=PacingState.BUILD_UP,
        knobs=DirectorKnobs(pressure=0.6),
        prefabs=["grunt", "runner"],
        events=["supply", "swarm"],
    )


def test_a_bar_lost_before_a_death_does_not_keep_easing_a_respawned_player() -> None:
    after_death = {"hp_fraction": 1.0, "deaths": 1, "deaths_60s": 1, "damage_15s": 0.05, "damage_30s": 1.1}
    assert decide(_sit(**after_death, seconds_since_death=RECENT_DEATH_S - 5))["pressure"] == "ease_off"
    assert decide(_sit(**after_death, seconds_since_death=25))["pressure"] != "ease_off"


def test_a_bar_lost_in_30s_without_a_death_still_eases() -> None:
    beaten = {"hp_fraction": 0.6, "damage_15s": 0.05, "damage_30s": 0.95}
    assert decide(_sit(**beaten))["pressure"] == "ease_off"
    assert decide(_sit(**beaten, deaths=1, seconds_since_death=40))["pressure"] == "ease_off"
