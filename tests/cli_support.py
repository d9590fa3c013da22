"""Shared pieces of the CLI tests: ``python -m game ARGS`` in a subprocess with its own saves folder, and
the ``--json`` summary it prints last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def arena(saves: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip


def summary(out: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result
