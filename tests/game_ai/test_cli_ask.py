"""``python -m game ask <Role> "<text>" [--backend B] [--json]`` through the real CLI: the reply streams to
stdout and the last line is the JSON summary; the Merchant calls get_inventory and names the shelf, on the
offline stub and on the bundled model (llama-cpp-python), where the tool call is forced."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.shop.inventory import load_inventory

REPO = Path(__file__).resolve().parents[2]


def ask(
    saves_dir: Path, *args: str, timeout: float = 120
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = subprocess.run(
        [sys.executable, "-m", "game", "ask", *args, "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir)},
    )  # fmt: skip
    lines = out.stdout.strip().splitlines()
    assert lines, out.stderr[-2000:]
    return out, json.loads(lines[-1])


def test_ask_merchant_on_the_stub_lists_the_inventory(saves_dir: Path) -> None:
    out, summary = ask(saves_dir, "Merchant", "what do you have?", "--backend", "stub", "--coins", "30")
    assert out.returncode == 0, out.stderr[-2000:]
    assert set(summary) >= {"role", "backend", "reply", "tools", "latency_s", "trace_id", "first_piece_s"}
    assert summary["role"] == "Merchant" and summary["backend"] == "stub"
    assert summary["tools"] == []  # grounded talk: the shelf is read by the game, not through a tool call
    names = [i.name for i in load_inventory().items]
    assert all(name in summary["reply"] for name in names) and "30 coins" in summary["reply"]
    assert out.stdout.startswith(summary["reply"]), "the reply itself came first, streamed to stdout"
    assert 0 < summary["latency_s"] < 30 and len(summary["trace_id"]) == 12


def test_ask_reports_a_refusal_and_bad_usage(saves_dir: Path) -> None:
    out, summary = ask(saves_dir, "Merchant", "buy hollow points", "--backend", "stub", "--coins", "5")
    assert out.returncode == 0 and summary["tools"] == []  # bought at once (game.talk.purchase), no model
    assert "the Hollow Points cost 24 coins and you have 5 coins, 19 short" in summary["reply"]
    bad = subprocess.run(
        [sys.executable, "-m", "game", "ask", "Merchant", "hi", "--backend", "nope"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir)},
    )  # fmt: skip
    assert bad.returncode == 2 and "backend 'nope' is unavailable for Merchant" in bad.stderr


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(400)
def test_ask_merchant_on_the_bundled_model_answers_from_the_shelf(saves_dir: Path) -> None:
    # grounded talk (game.talk): the reply holds the shelf's facts whether the model's phrasing passed the
    # talk guard or was replaced by the grounded answer; never raw tool output
    out, summary = ask(saves_dir, "Merchant", "what do you have?", "--backend", "local", timeout=360)
    assert out.returncode == 0, out.stderr[-3000:]
    assert summary["backend"] == "local" and summary["tools"] == []
    shown = out.stdout.rsplit("\n{", 1)[0]  # what the player read, before the JSON line
    assert "Medkit" in summary["reply"] and "returned" not in shown and "{" not in shown
    assert summary["latency_s"] < 30
