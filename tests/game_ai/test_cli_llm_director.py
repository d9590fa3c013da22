"""``python -m game --headless --director stub``: the AI session runs headless in real time, the director's
LLM path lands plans, and the trajectory records them (with the events mods offered in its header)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_headless_llm_director_runs_in_real_time_and_records_its_plans(saves_dir: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--director", "stub", "--bot", "strong",
         "--seconds", "2", "--seed", "5", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir)},
    )  # fmt: skip
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["ticks"] == 120
    assert 40 <= summary["ticks_per_second"] <= 75, "paced to real time"
    (trajectory,) = (saves_dir / "trajectories").glob("*-stub-*.jsonl")
    records = [json.loads(line) for line in trajectory.read_text().splitlines()]
    assert records[0]["type"] == "header" and "meteor_storm" in records[0]["events"]
    decisions = [r for r in records if r["type"] == "decision"]
    assert decisions and decisions[0]["backend"] == "stub" and decisions[0]["status"] == "accepted"
