"""What a player meets on the second launch: ``python -m game --headless --director local`` saves the
director's evaluated prompt prefix when the first session ends, and the next session restores it, so its
first decision costs only the situation and the reply. (Before, every session paid the cold prefix: about
1,400 tokens, 8-30 s on 2 cores, and a 20 s session landed no decision.) The first-ever session pays it
before its clock starts (``warmup.wait_director_warm``), so it lands decisions too (before, none in 20 s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def play(saves: Path, seconds: int) -> list[dict[str, object]]:
    subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--director", "local", "--seconds", str(seconds),
         "--bot", "strong", "--seed", "3", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=seconds + 180, check=True,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    newest = max((saves / "trajectories").glob("*-local-*.jsonl"), key=lambda p: p.stat().st_mtime)
    records = [json.loads(line) for line in newest.read_text().splitlines()]
    return [r for r in records if r["type"] == "decision"]


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(420)
def test_the_second_session_restores_the_directors_prefix(saves_dir: Path, model_path: Path) -> None:
    first = play(saves_dir, 20)  # a first-ever session: the prefix is cold, and the run waits for it
    log = (saves_dir / "logs" / "coreai.log").read_text(encoding="utf-8")
    assert "director prefix warm after" in log
    assert [d for d in first if d["status"] in ("accepted", "guarded")], [d["status"] for d in first]
    (saved,) = (saves_dir / "cache" / "llm").glob("Director-*.kv")
    assert saved.stat().st_size > 10_000_000, "the director's prefix state is on disk"
    decisions = play(saves_dir, 20)
    log = (saves_dir / "logs" / "coreai.log").read_text(encoding="utf-8")
    assert f"prefix tokens restored from {saved.name}" in log
    landed = [d for d in decisions if d["status"] in ("accepted", "guarded")]
    assert landed, [(d["status"], str(d["error"])[:80]) for d in decisions]
    assert landed[0]["backend"] == "local"
