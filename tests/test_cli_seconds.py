"""``--seconds`` on the command line (issue 26 item 2): an out-of-range value is an argparse error in player
words (exit 2, one line, no traceback); a long window or headless MCP session is never refused for its
length, and ``--seconds 0`` is a session with no end (headless: until Ctrl+C, which ends it as its time
running out would)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.options import MAX_HEADLESS_SECONDS, parse_args

REPO = Path(__file__).resolve().parents[1]


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as info:
        parse_args(list(argv))
    assert info.value.code == 2, argv
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith("arena: error: "), err
    assert "Traceback" not in err and "pydantic" not in err and "http" not in err, err
    return last


def test_out_of_range_seconds_are_refused_in_player_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert "at most 21600" in _refused(capsys, "--headless", "--seconds", "100000")
    assert "not a number of seconds" in _refused(capsys, "--headless", "--seconds", "-5")
    assert "not a number of seconds" in _refused(capsys, "--seconds", "nan")
    assert "not a number of seconds" in _refused(capsys, "--seconds", "soon")
    assert "needs an end" in _refused(capsys, "--headless", "--seconds", "0")
    assert "--mcp-port must be at most 65535" in _refused(capsys, "--mcp-port", "70000")


def test_long_and_endless_sessions_are_accepted() -> None:
    assert parse_args(["--headless", "--seconds", str(MAX_HEADLESS_SECONDS)]).seconds == MAX_HEADLESS_SECONDS
    assert parse_args(["--headless", "--mcp", "--seconds", "100000"]).seconds == 100000
    assert parse_args(["--headless", "--mcp", "--seconds", "0"]).seconds == 0
    assert parse_args(["--seconds", "100000"]).seconds == 100000  # a window
    assert "0: no end" in " ".join(_help().split())


def _help() -> str:
    from game.options import build_parser

    return build_parser().format_help()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("seconds", ["100000", "0"])
def test_a_long_headless_mcp_session_starts_and_ctrl_c_ends_it(saves_dir: Path, seconds: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "--headless", "--mcp", "--mcp-port", str(_free_port()),
         "--seconds", seconds, "--bot", "average", "--seed", "2", "--json"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        trajectories = saves_dir / "trajectories"
        while time.monotonic() < deadline and proc.poll() is None:
            if trajectories.is_dir() and any(trajectories.glob("*.jsonl")):
                break
            time.sleep(0.2)
        time.sleep(1.5)  # a second or so of play
        assert proc.poll() is None, proc.communicate()[1][-3000:]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    summary = json.loads(out.strip().splitlines()[-1])
    assert 0 < summary["seconds"] < 60
    (trajectory,) = trajectories.glob("*.jsonl")
    header = json.loads(trajectory.read_text(encoding="utf-8").splitlines()[0])
    assert header["seconds"] == 0, "longer than a replay may run: recorded as open-ended"
