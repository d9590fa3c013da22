"""The first wave for a player who is still finding the controls: one who touches nothing (the grace: hits
scaled by ``[danger] low_factor`` until it moves or fires) and one who never moves (the ``still`` bot,
whose shots end the grace: the danger knob limited by HP carries it) live through wave 1 with the director
and die under static difficulty; the ``first-wave`` evaluation reports both modes."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.eval.__main__ import main as eval_main
from game.headless import run_headless
from game.headless_runs.run import build

REPO = Path(__file__).resolve().parents[2]
WAVE_1_S = 30.0


def _idle_death_time(seed: int, mode: str, seconds: float) -> float:
    director, world = build(seed, mode, respawn=False)
    summary = run_headless(seed, seconds, None, world=world, on_tick=director.on_tick)
    return summary.seconds if summary.died else math.inf


@pytest.mark.parametrize("seed", [0, 1])
def test_a_player_who_touches_nothing_is_never_kept_alive(seed: int) -> None:
    """Director 3: the opening grace ends, and a player who presses nothing loses within 60 s."""
    assert _idle_death_time(seed, "static", 60.0) < 60.0
    assert _idle_death_time(seed, "rules", 60.0) < 60.0


def _still_run(saves: Path, director: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--bot", "novice", "--director", director,
         "--seed", "0", "--seconds", f"{WAVE_1_S:g}", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_the_novice_lives_through_wave_1_with_the_director(saves_dir: Path) -> None:
    static = _still_run(saves_dir / "static", "static")
    directed = _still_run(saves_dir / "rules", "rules")
    assert not directed["died"] and directed["deaths"] == 0  # issue 34: the novice's first wave holds
    assert directed["seconds"] >= static["seconds"]


def test_first_wave_cli_reports_both_modes(capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_main(["first-wave", "--seeds", "1", "--first-seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "novice   static" in out and "novice   rules      1/1  met" in out
