"""``--mode replay:PATH`` for ``python -m game.eval ab`` and ``stakes``: a recorded director's plans are the
plan source, on the recorded seeds and models. A replay of an unchanged game reproduces the recording (its
row equals the recorded mode's own row), a changed recording is reported as diverged, and every file the
evaluation cannot use is refused with a clear error before any run starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.eval.__main__ import main as eval_main
from game.headless_runs.run import run_directed

REPO = Path(__file__).resolve().parents[2]


def record(path: Path, seed: int, bot: str, seconds: float, *, respawn: bool) -> Path:
    run_directed(seed, seconds, bot, "rules", respawn=respawn, trajectory=path)
    return path


def ab_row(out: str, model: str) -> str:
    """The model's row of the player-facing table (the first table of the report)."""
    return next(line for line in out.splitlines() if line.startswith(model) and "|" in line)


def test_ab_replays_a_recorded_run_and_matches_the_mode_that_recorded_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = record(tmp_path / "novice.jsonl", 3, "novice", 25.0, respawn=True)
    assert (
        eval_main(["ab", "--mode", f"replay:{rec}", "--workers", "1", "--json", str(tmp_path / "r.json")])
        == 0
    )
    replayed = capsys.readouterr().out
    assert "1 seeds (3) x 25 s game time" in replayed  # the recording's seed and length
    assert "Replay: 1 of 1 replayed runs reproduced their recording." in replayed
    rows = json.loads((tmp_path / "r.json").read_text())["runs"]
    assert [(r["skill"], r["seed"], r["mode"].split(":")[0]) for r in rows] == [
        ("novice", 3, "replay"),
        ("novice", 3, "static"),
    ]
    assert rows[0]["replay"] == "identical" and "replay" not in rows[1]

    argv = ["ab", "--mode", "rules", "--seeds", "1", "--first-seed", "3", "--skills", "novice"]
    assert eval_main([*argv, "--seconds", "25", "--workers", "1"]) == 0
    live = capsys.readouterr().out
    assert ab_row(replayed, "novice") == ab_row(live, "novice")  # the same figures as the recorded mode


def test_a_changed_recording_is_run_and_reported_as_diverged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = record(tmp_path / "weak.jsonl", 5, "weak", 30.0, respawn=True)
    lines = rec.read_text().splitlines()
    decisions = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "decision"]
    target = json.loads(lines[decisions[0]])
    assert target["reply_plan"] is not None
    target["reply_plan"]["pressure"] = "spike" if target["reply_plan"]["pressure"] != "spike" else "hold"
    lines[decisions[0]] = json.dumps(target)
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(lines) + "\n")

    assert eval_main(["ab", "--mode", f"replay:{changed}", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Replay: 0 of 1 replayed runs reproduced their recording" in out
    assert f"weak seed 5: diverged at decision {target['seq']}" in out


def test_stakes_replays_recordings_played_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    record(folder / "a.jsonl", 2, "idle", 120.0, respawn=False)  # presses nothing: lost well before 120 s
    record(folder / "b.jsonl", 3, "idle", 120.0, respawn=False)
    out_json = tmp_path / "s.json"
    assert eval_main(["stakes", "--mode", f"replay:{folder}", "--workers", "2", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "2 seeds (2-3) per model" in out and "Replay: 2 of 2 replayed runs reproduced" in out
    rows = json.loads(out_json.read_text())
    assert sorted((r["mode"] == "static", r["seed"]) for r in rows) == [
        (False, 2),
        (False, 3),
        (True, 2),
        (True, 3),
    ]
    assert all(r["died"] and r["ended_s"] < 60 for r in rows)
    assert all(r.get("replay", "identical") == "identical" for r in rows)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert eval_main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "bot A/B:" not in captured.err and "stakes:" not in captured.err  # no run started
    return captured.err


def test_files_the_evaluation_cannot_replay_are_refused_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    assert "no such trajectory file" in _refused(["ab", "--mode", f"replay:{missing}"], capsys)
    assert "needs a trajectory file" in _refused(["ab", "--mode", "replay:"], capsys)
    (tmp_path / "empty").mkdir()
    assert "holds no trajectory files" in _refused(
        ["stakes", "--mode", f"replay:{tmp_path / 'empty'}"], capsys
    )

    good = record(tmp_path / "good.jsonl", 1, "idle", 60.0, respawn=False)
    header = json.loads(good.read_text().splitlines()[0])
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({**header, "version": 1}) + "\n")
    err = _refused(["stakes", "--mode", f"replay:{old}"], capsys)
    assert "format 1" in err and "record the run again" in err

    human = tmp_path / "human.jsonl"
    human.write_text(
        json.dumps({**header, "bot": None}) + "\n" + "\n".join(good.read_text().splitlines()[1:])
    )
    assert "played by a human" in _refused(["stakes", "--mode", f"replay:{human}"], capsys)

    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text(
        good.read_text().splitlines()[0] + "\n{not json\n" + good.read_text().splitlines()[-1] + "\n"
    )
    assert "line 2" in _refused(["stakes", "--mode", f"replay:{corrupt}"], capsys)

    # a run without respawn is no A/B recording, and the stakes report plays to the run's end
    err = _refused(["ab", "--mode", f"replay:{good}"], capsys)
    assert "respawn off" in err and "with --respawn" in err
    cut = record(tmp_path / "cut.jsonl", 1, "novice", 20.0, respawn=False)
    assert "before the run ended" in _refused(["stakes", "--mode", f"replay:{cut}"], capsys)
    # a replay runs what was recorded: no other seeds, models or difficulty, and no longer than recorded
    for extra in (["--seeds", "3"], ["--skills", "weak"], ["--first-seed", "7"]):
        assert "runs the recorded seeds and models" in _refused(
            ["stakes", "--mode", f"replay:{good}", *extra], capsys
        )
    assert "normal only" in _refused(["stakes", "--mode", f"replay:{good}", "--difficulty", "hard"], capsys)
    short = tmp_path / "short.jsonl"
    run_directed(1, 120.0, "strong", "rules", respawn=False, trajectory=short, final_wave=1)
    assert "a shorter run (--waves 1)" in _refused(["stakes", "--mode", f"replay:{short}"], capsys)
    ab_rec = record(tmp_path / "ab.jsonl", 1, "weak", 20.0, respawn=True)
    assert "cover only 20 s" in _refused(["ab", "--mode", f"replay:{ab_rec}", "--seconds", "30"], capsys)


def test_the_command_line_refuses_a_bad_mode_in_one_line(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "ARENA_SAVES_DIR": str(tmp_path),
        "ARENA_DISCOVER_PORTS": "",
        "PYTHONPATH": str(REPO),
    }
    for argv in (
        ["ab", "--mode", "nonsense", "--workers", "2"],
        ["stakes", "--mode", f"replay:{tmp_path / 'missing.jsonl'}", "--workers", "2"],
    ):
        out = subprocess.run(
            [sys.executable, "-m", "game.eval", *argv],
            cwd=REPO, capture_output=True, text=True, timeout=120, env=env,
        )  # fmt: skip
        assert out.returncode == 2, out.stderr
        assert out.stdout == "" and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
        assert "unknown director mode 'nonsense'" in out.stderr or "no such trajectory file" in out.stderr
    assert "replay:FILE" in subprocess.run(
        [sys.executable, "-m", "game.eval", "ab", "--mode", "nonsense"],
        cwd=REPO, capture_output=True, text=True, timeout=120, env=env,
    ).stderr  # fmt: skip


def test_a_recorded_evaluation_replays_to_the_same_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--record FOLDER`` keeps each director run (an LLM source's too, in lockstep); ``replay:FOLDER``
    judges those plans again without the model, to the same figures."""
    folder = tmp_path / "stub-runs"
    argv = [
        "ab",
        "--seeds",
        "2",
        "--first-seed",
        "8",
        "--seconds",
        "15",
        "--skills",
        "weak",
        "--workers",
        "2",
    ]
    assert eval_main([*argv, "--mode", "stub", "--record", str(folder)]) == 0
    live = capsys.readouterr().out
    assert sorted(p.name for p in folder.iterdir()) == ["stub-weak-s8.jsonl", "stub-weak-s9.jsonl"]
    assert eval_main(["ab", "--mode", f"replay:{folder}", "--workers", "2"]) == 0
    replayed = capsys.readouterr().out
    assert "Replay: 2 of 2 replayed runs reproduced their recording." in replayed
    assert ab_row(replayed, "weak") == ab_row(live, "weak") and "2 seeds (8-9) x 15 s" in replayed

    stakes = tmp_path / "stakes-runs"
    assert eval_main(["stakes", "--seeds", "2", "--skills", "idle", "--record", str(stakes)]) == 0
    live = capsys.readouterr().out
    assert eval_main(["stakes", "--mode", f"replay:{stakes}"]) == 0
    replayed = capsys.readouterr().out
    assert "Replay: 2 of 2" in replayed
    row = next(line for line in live.splitlines() if line.startswith("idle"))
    assert row == next(line for line in replayed.splitlines() if line.startswith("idle"))
    # nothing to record for static or a replay, and no difficulty but normal
    for extra in (["--mode", "static"], ["--mode", f"replay:{stakes}"], ["--difficulty", "hard"]):
        assert "--record" in _refused(["stakes", "--record", str(tmp_path / "x"), *extra], capsys)
