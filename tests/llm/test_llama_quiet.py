"""Loading the model on its owner thread must not swallow what other threads print (llama-cpp-python's
``verbose=False`` redirects the process's stdout/stderr to /dev/null while it loads)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = """
import time
from coreai.llm.config import LocalLlmConfig
from coreai.llm.local import LocalLlmClient
client = LocalLlmClient(LocalLlmConfig(n_ctx=512))
for i in range(60):
    print("line", i, flush=True)
    time.sleep(0.01)
client.close()
"""


@pytest.mark.real_llm
def test_printing_during_a_model_load_is_never_lost() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith("line ")]
    assert len(lines) == 60, f"{60 - len(lines)} lines were swallowed"
