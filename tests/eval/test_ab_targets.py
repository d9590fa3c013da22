"""The respawn A/B judges Director 3's presence and pace targets, each on its own, in the printed table and
in ``--json``; deaths and danger are reported but no longer targets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.eval.__main__ import main as eval_main
from game.eval.ab_targets import target_checks, target_misses

PASSING = {
    "empty_static": 0.10, "empty_director": 0.02,
    "longest_empty_static": 9.0, "longest_empty_director": 4.0,
    "engaged_static": 0.80, "engaged_director": 0.76,
    "kills_static": 40.0, "kills_director": 29.0,
    # deaths and danger well above static's: the point of Director 3, not a miss
    "deaths_static": 0.0, "deaths_director": 5.0, "danger_static": 0.0, "danger_director": 0.2,
}  # fmt: skip


def test_each_target_passes_or_fails_on_its_own() -> None:
    assert target_misses(PASSING) == []
    assert [c.name for c in target_checks(PASSING)] == ["empty", "longest", "engaged", "kills"]
    for key, value, miss in (
        ("empty_director", 0.031, "empty"),
        ("longest_empty_director", 5.1, "longest"),
        ("engaged_director", 0.74, "engaged"),
        ("kills_director", 27.9, "kills"),
    ):
        checks = target_checks({**PASSING, key: value})
        assert [c.name for c in checks if not c.passed] == [miss], key


def test_the_cli_table_and_json_say_pass_or_fail_per_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "ab.json"
    argv = ["ab", "--seeds", "1", "--seconds", "30", "--skills", "novice", "strong", "--workers", "1"]
    assert eval_main([*argv, "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("model") and "empty <= 3%" in line)
    assert "longest <= 5 s" in header and "engaged >= static - 5 pts" in header
    assert "kills/min >= 70% of static" in header and "deaths" not in header and "danger" not in header
    for model in ("novice", "strong"):
        row = next(
            line for line in out.splitlines()[out.splitlines().index(header) :] if line.startswith(model)
        )
        assert row.count("pass") + row.count("FAIL") == 4
    assert "models meet every target." in out
    doc = json.loads(out_json.read_text())
    assert doc["mode"] == "rules" and len(doc["runs"]) == 4
    assert [t["model"] for t in doc["targets"]] == ["novice", "strong"]
    for t in doc["targets"]:
        assert set(t["targets"]) == {"empty", "longest", "engaged", "kills"}
        assert t["met"] == all(c["passed"] for c in t["targets"].values())
        kills = t["targets"]["kills"]
        assert kills["passed"] == (kills["director"] >= kills["bound"])
        assert kills["bound"] == pytest.approx(0.7 * kills["static"], abs=1e-3)
