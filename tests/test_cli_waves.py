"""``python -m game --waves N``: a shorter run, won by surviving wave N (1 to the full run's 20). A bad value
is refused in one line; a headless run stops at the win, its trajectory records the run's length, and the
replay reproduces it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from coreai.settings import Settings
from game.ai.session import AiSession
from game.options import LaunchOptions
from game.sim.config import FINAL_WAVE, wave_duration
from tests.cli_support import arena, summary


def test_bad_wave_counts_are_refused_in_one_line(tmp_path: Path) -> None:
    for value, words in (
        ("0", "1 to 20 waves"),
        (str(FINAL_WAVE + 1), "1 to 20 waves"),
        ("two", "not a number"),
    ):
        out = arena(tmp_path, "--headless", "--bot", "strong", "--waves", value)
        assert out.returncode == 2 and out.stdout == ""
        error = out.stderr.strip().splitlines()[-1]
        assert error.startswith("arena: error: argument --waves:") and words in error, error
        assert "Traceback" not in out.stderr


def test_a_short_run_is_won_at_its_last_wave_and_replays(tmp_path: Path) -> None:
    won = summary(arena(tmp_path, "--headless", "--bot", "strong", "--seed", "1", "--waves", "2",
                        "--seconds", "300", "--json"))  # fmt: skip
    end = wave_duration(1) + wave_duration(2)
    assert won["won"] and not won["died"] and won["waves_reached"] == 2
    assert won["ended_at"] == won["seconds"] and end <= won["seconds"] < end + 10  # the shop step between
    (traj,) = (tmp_path / "trajectories").glob("*.jsonl")
    assert json.loads(traj.read_text().splitlines()[0])["final_wave"] == 2
    replayed = summary(arena(tmp_path, "--replay", str(traj)))
    assert (replayed["won"], replayed["seconds"], replayed["kills"]) == (True, won["seconds"], won["kills"])
    # without --waves the same bot plays on past wave 2
    full = summary(
        arena(tmp_path, "--headless", "--bot", "strong", "--seed", "1", "--seconds", "80", "--json")
    )
    assert not full["won"] and full["waves_reached"] >= 3


def test_a_short_win_earns_no_champion_and_no_meta_win(tmp_path: Path) -> None:
    """A one-wave run is easy to win: it counts in the history and high scores, never as a full win that
    unlocks things."""
    from game.headless import RunSummary
    from game.meta import MetaStore

    meta = MetaStore(tmp_path / "meta.json")
    base = {"seed": 1, "seconds": 30.0, "kills": 5, "deaths": 0, "damage_taken": 1.0, "final_score": 50,
            "ticks": 1800, "ticks_per_second": 1.0, "won": True}  # fmt: skip
    assert meta.record(RunSummary(waves_reached=1, **base)) == []
    assert meta.progress.wins == 0 and "win_a_run" not in meta.progress.achievements
    lines = meta.record(RunSummary(waves_reached=FINAL_WAVE, **base))
    assert any(line.startswith("Champion") for line in lines) and meta.progress.wins == 1


def test_the_session_builds_short_runs_too(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("ARENA_SAVES_DIR", str(tmp_path))
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    session = AiSession(LaunchOptions(headless=True, waves=3), settings=settings, configure_logs=False)
    try:
        assert session.world_factory(5).final_wave == 3  # a window, MCP and LLM-directed headless runs
    finally:
        session.close()
    assert LaunchOptions().waves is None
