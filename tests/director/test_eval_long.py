"""The A/B evaluation that cannot fool us: long runs, per-minute shares, novice bot, and the direction of the
director's effect on a few short runs (never timings).

Each test plays seconds of CPU time on a quiet machine (about 15 s in all), and many times that on a 2-core
machine that other work loads: the bound is generous; how fast runs go is ``make bench``'s (``bench_sim``)."""

from __future__ import annotations

import pytest

from game.eval.__main__ import main as eval_main
from game.eval.ab import run_ab, summarize
from game.eval.ab_targets import target_misses
from game.headless_runs.run import run_directed

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_ab_cli_bounds_seconds_and_knows_the_novice(capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_main(["ab", "--seconds", "1201", "--seeds", "1"]) == 2
    assert "1200" in capsys.readouterr().err
    assert eval_main(["ab", "--skills", "expert", "--seeds", "1"]) == 2
    assert eval_main(["ab", "--seconds", "30", "--report-at", "40", "--seeds", "1"]) == 2
    code = eval_main(
        ["ab", "--seeds", "1", "--seconds", "70", "--report-at", "20", "--skills", "novice", "--workers", "1"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "x 20 s game time" in out and "x 70 s game time" in out  # both times from the same runs
    assert "novice" in out and "Empty screen per minute" in out and "Per seed" in out
    header = next(line for line in out.splitlines() if line.startswith("model    |") and "1" in line)
    assert header.split() == ["model", "|", "1", "2"]  # a column per minute of the 70 s run


def test_a_checkpoint_equals_a_separate_shorter_run() -> None:
    _, short = run_directed(4, 20.0, "average", "rules")
    _, long = run_directed(4, 32.0, "average", "rules", checkpoints=(20.0,))
    (mark,) = long.checkpoints
    assert (mark.flow_share, mark.bored_share, mark.deaths, mark.ticks) == (
        short.flow_share,
        short.bored_share,
        short.deaths,
        short.ticks,
    )


def test_novice_survives_the_first_wave_with_the_director() -> None:
    survived = 0
    for seed in (0, 5):
        summary, _ = run_directed(seed, 30.0, "novice", "rules", respawn=True)
        survived += summary.deaths == 0
    assert survived == 2


def test_the_director_gives_the_weak_an_opening_and_pushes_the_strong_in_what_they_meet() -> None:
    # the first two minutes, in what the player sees and suffers, never the intensity the director steers:
    # a weak player gets a start static does not give (the run can still be lost later: the stakes report)
    results = run_ab(seeds=[1], seconds=120.0, skills=("weak", "strong"), workers=1, progress=False)
    table = summarize(results, "rules")
    weak, strong = table["weak"], table["strong"]
    assert weak["deaths_director"] < weak["deaths_static"]
    assert weak["danger_director"] < weak["danger_static"]
    assert weak["kills_director"] >= 0.7 * weak["kills_static"]
    assert strong["deaths_director"] == strong["deaths_static"] == 0
    assert strong["kills_director"] > strong["kills_static"]
    assert strong["damage_director"] > strong["damage_static"], "a strong player is challenged, not left idle"
    assert target_misses(weak) == []
