"""``python -m game --headless --respawn``: a bot's death is counted and the run goes on to ``--seconds``, as
in ``python -m game.eval``; without it the death ends the run. ``--respawn`` in a window is refused with a
clear error (a death ends a player's run there)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_support import arena, summary

# the novice under static difficulty dies in its first wave on most seeds (game/eval/README.md, first wave)
RUN = ("--headless", "--director", "static", "--bot", "novice", "--seed", "0", "--seconds", "45", "--json")


def test_respawn_counts_the_death_and_plays_on(saves_dir: Path) -> None:
    ended = summary(arena(saves_dir / "ends", *RUN))
    assert ended["died"] and ended["deaths"] == 1 and ended["ticks"] < 45 * 60
    went_on = summary(arena(saves_dir / "goes_on", *RUN, "--respawn"))
    assert not went_on["died"] and went_on["deaths"] >= 1
    assert went_on["ticks"] == 45 * 60 and went_on["seconds"] == 45.0
    (trajectory,) = (saves_dir / "goes_on" / "trajectories").glob("*-static-*.jsonl")
    header = json.loads(trajectory.read_text(encoding="utf-8").splitlines()[0])
    assert header.get("respawn") is True, header


def test_respawn_in_a_window_is_refused_with_a_clear_error(saves_dir: Path) -> None:
    out = arena(saves_dir, "--respawn", "--seconds", "1")
    assert out.returncode == 2
    assert "--respawn needs --headless" in out.stderr
