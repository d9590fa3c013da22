"""Shared pieces of the LLM backend tests: the director-plan model, free ports, the real llama.cpp server.

The plan model stands in for the director's (issue 6): an enum, bounded integers, a capped list of prefab
names and a bounded reason, which is what a real plan needs the grammar and the validation to hold.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from coreai.llm.config import DEFAULT_MODEL_PATH

MODEL_PATH = Path(DEFAULT_MODEL_PATH)
PREFABS = ("grunt", "archer", "brute")
Prefab = Literal["grunt", "archer", "brute"]


class DirectorPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pressure: Literal["ease_off", "hold", "raise", "spike"]
    spawn_per_wave: int = Field(ge=0, le=12)
    elite_percent: int = Field(ge=0, le=50)
    prefabs: list[Prefab] = Field(max_length=3)
    reason: str = Field(max_length=80)


DIRECTOR_SYSTEM = (
    "You are the director of a roguelite arena game. Each turn you read the player's state and reply with a "
    "pacing plan: pressure (ease_off, hold, raise or spike), how many enemies to spawn per wave, the percent "
    "of elites, which prefabs to use (grunt, archer, brute) and a one-sentence reason."
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaServer:
    """``python -m llama_cpp.server`` on a free loopback port, serving the default GGUF as ``smollm2``."""

    # one thread, as the in-process model uses (conftest.local_config): with two, every llama.cpp barrier
    # waits for the core the game or another test holds
    def __init__(self, log_path: Path, n_ctx: int = 1024, n_threads: int = 1) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._log = log_path.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                # the game's launcher: the model loads as in the game, without weight repacking (the stock
                # server segfaults in its first decode on this machine's AMX Xeon; coreai/llm/local.py)
                "coreai.llm.serve",
                "--model",
                str(MODEL_PATH),
                "--model_alias",
                "smollm2",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--n_ctx",
                str(n_ctx),
                "--n_threads",
                str(n_threads),
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout_s: float = 60.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=1.0) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"llama_cpp.server did not answer within {timeout_s:g}s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self._log.close()
