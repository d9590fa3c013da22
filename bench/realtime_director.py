"""The player's real-time run with the bundled model directing, timed: ``python -m game --headless --director
local --seconds 60 --bot strong --respawn --json``, as ``tests/llm/test_cli_director_real.py`` plays it. The
test asserts what happens (the run keeps to the clock, decisions land); how fast the run ticks and how many
decisions land in the minute are measured here, on a machine to itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SECONDS = 60


def realtime_rows() -> list[tuple[str, str, str]]:
    """(measure, value, target) rows of one real-time minute with ``--director local``."""
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        out = subprocess.run(
            [sys.executable, "-m", "game", "--headless", "--director", "local", "--seconds", str(SECONDS),
             "--bot", "strong", "--seed", "3", "--respawn", "--json"],
            cwd=REPO, capture_output=True, text=True, timeout=SECONDS * 6 + 300, check=True,
            env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
        )  # fmt: skip
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        (trajectory,) = (saves / "trajectories").glob("*-local-*.jsonl")
        records = [json.loads(line) for line in trajectory.read_text().splitlines()]
    decisions = [r for r in records if r["type"] == "decision"]
    landed = sum(d["status"] in ("accepted", "guarded") for d in decisions)
    minutes = summary["seconds"] / 60
    return [
        ("real-time run, ticks/s (wall)", f"{summary['ticks_per_second']:.1f}", "50-70"),
        ("real-time run, decisions landed per minute", f"{landed / minutes:.1f}", ">= 4"),
        ("real-time run, decisions asked per minute", f"{len(decisions) / minutes:.1f}", ""),
    ]


def main() -> None:
    print(f"\n== Real-time director run: --director local, {SECONDS} s, strong bot ==")
    print(f"{'measure':<44} {'value':>14}  target")
    for measure, value, target in realtime_rows():
        print(f"{measure:<44} {value:>14}  {target}")


if __name__ == "__main__":
    main()
