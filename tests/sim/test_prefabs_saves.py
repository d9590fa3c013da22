"""Prefab loading and validation; run history and high scores with atomic writes and corrupt-file recovery."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreai.errors import PersistenceError, UnknownPrefabError
from game.headless import RunSummary
from game.saves import SaveStore
from game.sim.prefabs import PrefabRegistry


def test_shipped_prefabs_load_with_the_required_enemies() -> None:
    reg = PrefabRegistry.load()
    for name in ("grunt", "runner", "tank", "spitter", "boss"):
        pf = reg.get(name)
        assert pf.hp > 0 and pf.cost > 0 and pf.sprite.startswith(":resources:")
    assert reg.get("runner").speed > reg.get("grunt").speed > reg.get("tank").speed
    assert reg.get("spitter").behaviour == "ranged" and reg.get("boss").behaviour == "boss"
    assert reg.get("boss").hp > 10 * reg.get("tank").hp


def test_unknown_prefab_lookup_names_the_whitelist() -> None:
    reg = PrefabRegistry.load()
    allowed = "allowed: boss, charger, exploder, grunt, runner, shielder, spitter, splitling, splitter, tank"
    with pytest.raises(UnknownPrefabError, match=allowed):
        reg.get("nuke")


def test_an_invalid_prefab_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "enemies.json"
    bad.write_text(json.dumps({"version": 1, "prefabs": {"x": {"display_name": "X", "behaviour": "fly"}}}))
    with pytest.raises(PersistenceError, match="invalid prefab file"):
        PrefabRegistry.load(bad)


def _summary(score: int, seed: int = 1) -> RunSummary:
    return RunSummary(
        seed=seed,
        seconds=60,
        waves_reached=2,
        kills=10,
        deaths=1,
        damage_taken=100,
        final_score=score,
        ticks=3600,
        ticks_per_second=5000,
    )


def test_save_round_trip_and_high_score_ranking(saves_dir: Path) -> None:
    store = SaveStore()
    assert store.record_run(_summary(100)) == 1
    assert store.record_run(_summary(300)) == 1
    assert store.record_run(_summary(200)) == 2
    again = SaveStore()
    assert [h.score for h in again.high_scores()] == [300, 200, 100]
    assert len(again.history.runs) == 3 and again.warnings == []
    assert not list(saves_dir.glob("*.tmp")), "no temp files left behind"


def test_a_corrupt_save_is_moved_aside_and_the_game_starts_clean(saves_dir: Path) -> None:
    SaveStore().record_run(_summary(500))
    (saves_dir / "highscores.json").write_text("{ this is not json")
    (saves_dir / "runs.json").write_text(json.dumps({"version": 1, "runs": [{"summary": {"seed": "x"}}]}))
    store = SaveStore()
    assert store.high_scores() == [] and store.history.runs == []
    assert len(store.warnings) == 2 and "moved aside" in store.warnings[0]
    quarantined = sorted(p.name for p in saves_dir.glob("*.corrupt-*"))
    assert len(quarantined) == 2
    assert (saves_dir / quarantined[0]).read_text() != ""  # nothing lost: the bad bytes are kept
    assert store.record_run(_summary(50)) == 1
    assert SaveStore().high_scores()[0].score == 50


def test_is_a_boss_is_one_fact_of_the_prefab() -> None:
    """The HUD, director events, telemetry, spawners and rendering all ask the prefab (``is_boss``), and the
    simulation's behaviour codes are defined once (``prefabs.CHASE/RANGED/BOSS``)."""
    from game.sim import enemy_ai
    from game.sim.prefabs import BEHAVIOUR_CODES, BOSS, PrefabRegistry

    reg = PrefabRegistry.load()
    assert reg.is_boss("boss") and not reg.is_boss("grunt") and not reg.is_boss("dragon")
    assert reg.boss_kinds == (reg.index("boss"),)
    assert "boss" not in reg.regular
    assert enemy_ai.BOSS is BOSS == BEHAVIOUR_CODES["boss"]
