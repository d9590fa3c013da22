"""Bots play the real game headless through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.headless import run_headless

REPO = Path(__file__).resolve().parents[2]


def test_cli_strong_bot_reaches_wave_three(saves_dir: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "--headless",
            "--bot",
            "strong",
            "--seconds",
            "120",
            "--seed",
            "1",
            "--json",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir)},
        check=True,
    )
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    for key in (
        "seed",
        "seconds",
        "waves_reached",
        "kills",
        "deaths",
        "damage_taken",
        "final_score",
        "ticks_per_second",
    ):
        assert key in summary
    assert summary["seed"] == 1
    assert summary["waves_reached"] >= 3
    assert summary["ticks_per_second"] > 60, "headless runs faster than real time"
    assert (saves_dir / "runs.json").exists()


@pytest.mark.timeout(300)  # ten 100 s runs: slow on a loaded 2-core box
def test_weak_bots_die_more_often_than_strong_bots() -> None:
    seeds = range(1, 6)
    weak = sum(run_headless(seed=s, seconds=100, bot="weak").deaths for s in seeds)
    strong = sum(run_headless(seed=s, seconds=100, bot="strong").deaths for s in seeds)
    assert weak > strong


@pytest.mark.timeout(480)  # three CLI runs of 150 s of game time
def test_bots_of_different_skill_build_different_weapons_through_the_cli(saves_dir: Path) -> None:
    # static difficulty: the builds are the bots' own; which upgrades a run offers depends on how it plays,
    # and the director's tuning must not decide whether the average bot is offered its weapons
    held: dict[str, list[str]] = {}
    for bot in ("weak", "average", "strong"):
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "game",
                "--headless",
                "--bot",
                bot,
                "--seconds",
                "150",
                "--seed",
                "2",
                "--director",
                "static",
                "--json",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=240,
            env={**os.environ, "ARENA_SAVES_DIR": str(saves_dir)},
            check=True,
        )
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        held[bot] = summary["weapons"]
        assert summary["weapons"][0] in ("blaster", "gatling"), "everyone starts with the blaster"
        assert set(summary["weapon_levels"]) == set(summary["weapons"])
    assert held["weak"] == ["blaster"], "the weak bot sticks to its blaster"
    assert {"lance", "orbit", "sunbeam", "whirlwind"} & set(held["strong"]), held
    assert {"spread", "missile", "dragon_breath"} & set(held["average"]), held
    assert len({tuple(v) for v in held.values()}) == 3, f"three different builds: {held}"


def test_the_still_bot_aims_and_shoots_but_never_leaves_its_spot() -> None:
    from game.bot import LADDER, SKILL_NAMES, SKILLS

    assert "still" in SKILL_NAMES and "still" not in LADDER, "measured on request, not in the default A/B"
    spots: set[tuple[float, float]] = set()
    summary = run_headless(
        seed=2, seconds=8, bot="still", on_tick=lambda w: spots.add((w.player.x, w.player.y))
    )
    assert len(spots) == 1 and summary.kills > 0
    novice, still = SKILLS["novice"], SKILLS["still"]
    assert (still.reaction_ticks, still.aim_error) == (novice.reaction_ticks, novice.aim_error)
    assert novice.moves and not still.moves


def test_the_eval_cli_takes_the_still_bot_and_skills_split_by_spaces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from game.eval.__main__ import main as eval_main

    args = ["--seeds", "1", "--seconds", "5", "--workers", "1"]
    assert eval_main(["ab", *args, "--skills", "still", "weak"]) == 0
    out = capsys.readouterr().out
    assert "\nstill    |" in out and "\nweak     |" in out
    assert eval_main(["first-wave", "--seeds", "1", "--skill", "still"]) == 0
    assert "still    rules" in capsys.readouterr().out
