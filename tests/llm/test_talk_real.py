"""What a player meets with the bundled model, through ``python -m game ask`` (real model, opted in): the
Merchant asked for healing names the Medkit at its shelf price, the Chat asked a controls question names the
key, the first words come at once (the grounded answer) and the reply ends within its 8 s; never raw tool
output or a repeat. The same Merchant question through a real ``llama_cpp.server`` on loopback (the suite's
one shared server). Latencies here are on a 2-core machine other work is loading."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.eval.talk import degenerate

REPO = Path(__file__).resolve().parents[2]


def ask(saves: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = subprocess.run(
        [sys.executable, "-m", "game", "ask", *args, "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=240,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    lines = out.stdout.strip().splitlines()
    assert out.returncode == 0 and lines, out.stderr[-3000:]
    return out, json.loads(lines[-1])


def grounded(out: subprocess.CompletedProcess[str], summary: dict[str, Any], *facts: str) -> None:
    reply = summary["reply"]
    for fact in facts:
        assert fact in reply, summary
    assert not degenerate(reply), summary
    shown = out.stdout.rsplit("\n{", 1)[0]  # what the player read, before the JSON line
    assert "returned" not in shown and "{" not in shown, out.stdout
    # the grounded answer shows at once; the turn is over by its 8 s deadline (plus a frame's slack)
    assert summary["first_piece_s"] < 1.5 and summary["latency_s"] < 8.5, summary


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_bundled_merchant_answers_a_healing_question_from_the_shelf(
    saves_dir: Path, model_path: Path
) -> None:
    out, summary = ask(saves_dir, "Merchant", "do you have anything to heal me?", "--backend", "local",
                       "--coins", "10")  # fmt: skip
    assert summary["backend"] == "local" and summary["tools"] == []
    grounded(out, summary, "Medkit", "6")


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_bundled_chat_answers_a_controls_question(saves_dir: Path, model_path: Path) -> None:
    out, summary = ask(saves_dir, "Chat", "how do I dash?", "--backend", "local")
    assert summary["backend"] == "local"
    grounded(out, summary, "Shift")


@pytest.mark.real_llm
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_merchant_through_a_real_llama_cpp_server(saves_dir: Path, llama_server: Any) -> None:
    roles = "".join(f'{role} = "openai"\n' for role in ("Creator", "Analyzer", "Merchant", "Chat"))
    (saves_dir / "settings.toml").write_text(
        f'[llm]\ndefault_backend = "openai"\n[llm.openai]\nbase_url = "{llama_server.base_url}"\n'
        f'model = "smollm2"\n[llm.backends]\n{roles}',
        encoding="utf-8",
    )
    out, summary = ask(saves_dir, "Merchant", "do you have anything to heal me?", "--coins", "10")
    assert summary["backend"] == "openai"
    grounded(out, summary, "Medkit", "6")
    log = (saves_dir / "logs" / "coreai.log").read_text(encoding="utf-8")
    assert "talk guard" in log, "the guard's verdict is logged"
