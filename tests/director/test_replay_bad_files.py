"""Bad trajectory files through the real CLI (``python -m game --replay FILE``): one line naming the file
and the problem, exit code 2, never a traceback; header fields are bounded (issue 12 item 6)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.cli import dispatch
from game.headless_runs.run import run_directed


@pytest.fixture(scope="module")
def good_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    import os

    old = os.environ.get("ARENA_SAVES_DIR")
    os.environ["ARENA_SAVES_DIR"] = str(tmp_path_factory.mktemp("saves"))
    try:
        _, metrics = run_directed(7, 5.0, "weak", "rules", trajectory=True)
    finally:
        if old is None:
            os.environ.pop("ARENA_SAVES_DIR", None)
        else:
            os.environ["ARENA_SAVES_DIR"] = old
    return Path(metrics.trajectory or "").read_text(encoding="utf-8").splitlines()


def _header(lines: list[str], **change: object) -> list[str]:
    header = json.loads(lines[0])
    header.update(change)
    return [json.dumps(header), *lines[1:]]


def _cases(lines: list[str]) -> dict[str, bytes | None]:
    deep = "[" * 100_000
    decision = next(json.loads(x) for x in lines if json.loads(x)["type"] == "decision")
    bad_tick = json.dumps({**decision, "applied_tick": -5})
    return {
        "missing": None,
        "empty": b"",
        "binary": bytes(range(256)) * 4,
        "not_json": b"hello world\nmore\n",
        "deep": (deep + "\n" + deep + "\n").encode(),
        "array_line": b"[1, 2, 3]\n[4]\n",
        "header_only_type": b'{"type": "header"}\n{"type": "summary"}\n',
        "seconds_1e12": "\n".join(_header(lines, seconds=1e12)).encode(),
        "seconds_negative": "\n".join(_header(lines, seconds=-5)).encode(),
        "seconds_zero": "\n".join(_header(lines, seconds=0)).encode(),
        "seconds_nan": "\n".join(_header(lines)).replace('"seconds": 5.0', '"seconds": NaN').encode(),
        "seed_huge": "\n".join(_header(lines, seed=2**70)).encode(),
        "seed_string": "\n".join(_header(lines, seed="abc")).encode(),
        "bot_unknown": "\n".join(_header(lines, bot="superbot")).encode(),
        "version_99": "\n".join(_header(lines, version=99)).encode(),
        "decision_first": "\n".join(lines[1:] + lines[:1]).encode(),
        "negative_tick": "\n".join([lines[0], bad_tick, *lines[1:]]).encode(),
    }


def test_every_bad_trajectory_is_one_clear_line(
    good_lines: list[str], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert json.loads(good_lines[0])["seconds"] == 5.0
    for name, data in _cases(good_lines).items():
        path = tmp_path / f"{name}.jsonl"
        if data is not None:
            path.write_bytes(data)
        started = time.perf_counter()
        rc = dispatch(["--replay", str(path)])
        took = time.perf_counter() - started
        out, err = capfd.readouterr()
        lines = [x for x in err.splitlines() if x.strip() and " | " not in x]  # loguru lines aside
        assert rc == 2, (name, rc, out, err)
        assert "Traceback" not in err, (name, err)
        assert len(lines) == 1 and lines[0].startswith("replay failed: "), (name, err)
        assert path.name in lines[0], (name, lines[0])
        assert took < 10, f"{name} took {took:.1f}s"
    (tmp_path / "folder.jsonl").mkdir()
    assert dispatch(["--replay", str(tmp_path / "folder.jsonl")]) == 2
    assert "is a folder" in capfd.readouterr().err


def test_the_seconds_bound_is_named(
    good_lines: list[str], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(_header(good_lines, seconds=1e12)), encoding="utf-8")
    assert dispatch(["--replay", str(path)]) == 2
    err = capfd.readouterr().err
    assert "seconds" in err and "21600" in err


def test_the_real_cli_process_prints_one_line(good_lines: list[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("{oops\n", encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "game", "--replay", str(path)], capture_output=True,
                          text=True, cwd=root, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "replay failed:" in done.stderr and "bad.jsonl" in done.stderr


def test_a_trajectory_of_the_old_format_is_refused_with_what_to_do(
    good_lines: list[str], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A run recorded by the first director (format 1) cannot be reproduced by this one: the replay says so
    (the format, an older director, record again) instead of calling the file corrupt or replaying it
    wrong."""
    assert json.loads(good_lines[0])["version"] == 2
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(_header(good_lines, version=1)), encoding="utf-8")
    assert dispatch(["--replay", str(path)]) == 2
    err = capfd.readouterr().err
    assert "format 1" in err and "older director" in err and "record the run again" in err, err
    assert "not a valid" not in err
