"""Keys this game does not know in ``runs.json`` and ``highscores.json`` (issue 26 item 5): the file is
quarantined (``*.corrupt-<time>`` keeps the keys) with a warning, like every other save, and what can be read
is kept, so the next write neither drops the keys silently nor loses the history."""

from __future__ import annotations

import json
from pathlib import Path

from game.headless import RunSummary
from game.saves import SaveStore


def _summary(score: int) -> RunSummary:
    return RunSummary(seed=1, seconds=60, waves_reached=2, kills=10, deaths=1, damage_taken=100,
                      final_score=score, ticks=3600, ticks_per_second=5000)  # fmt: skip


def _edit(path: Path, change: dict[str, object], **nested: object) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(change)
    for key, value in nested.items():
        first = data[key][0]
        first.get("summary", first)["from_the_future"] = value
    path.write_text(json.dumps(data), encoding="utf-8")


def test_unknown_keys_are_quarantined_with_a_warning_and_the_runs_are_kept(saves_dir: Path) -> None:
    store = SaveStore()
    store.record_run(_summary(300))
    store.record_run(_summary(700))
    _edit(saves_dir / "runs.json", {"cloud_sync": True}, runs=1)
    _edit(saves_dir / "highscores.json", {"season": 4}, entries=2)

    again = SaveStore()
    assert len(again.warnings) == 2, again.warnings
    runs_warning, scores_warning = again.warnings
    assert "runs.json" in runs_warning and "cloud_sync" in runs_warning and "moved aside" in runs_warning
    assert "highscores.json" in scores_warning and "season" in scores_warning
    assert "http" not in runs_warning  # player words, not pydantic's
    (runs_copy,) = saves_dir.glob("runs.json.corrupt-*")
    (scores_copy,) = saves_dir.glob("highscores.json.corrupt-*")
    assert "cloud_sync" in runs_copy.read_text() and "from_the_future" in runs_copy.read_text()
    assert "season" in scores_copy.read_text()
    # what could be read is kept: both runs and their high scores
    assert [r.summary.final_score for r in again.history.runs] == [300, 700]
    assert [h.score for h in again.high_scores()] == [700, 300]
    again.record_run(_summary(500))
    final = SaveStore()
    assert final.warnings == [] and [r.summary.final_score for r in final.history.runs] == [300, 700, 500]
