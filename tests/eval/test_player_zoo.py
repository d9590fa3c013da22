"""The zoo of player models: each plays the real game headless, and each plays the way its line says."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.headless import run_headless
from game.sim import events as ev
from game.sim.config import ARENA_H, ARENA_W
from game.sim.world import World
from game.zoo import GROUPS, MODELS, UnknownPlayer, expand, make_player, resolve


class Trace:
    """Per tick: the player's position, HP, enemy distances, dashes and pickups collected."""

    def __init__(self) -> None:
        self.pos: list[tuple[float, float]] = []
        self.nearest: list[float] = []
        self.dashes = 0
        self.pickups = 0
        self.aims: list[float] = []

    def __call__(self, w: World) -> None:
        p = w.player
        self.pos.append((p.x, p.y))
        self.nearest.append(w.nearest_enemy_distance())
        self.aims.append(p.aim_angle)
        self.dashes += sum(isinstance(e, ev.Dashed) for e in w.events)
        self.pickups += sum(isinstance(e, ev.PickupCollected) for e in w.events)

    def still_ticks(self) -> int:
        return sum(a == b for a, b in zip(self.pos, self.pos[1:], strict=False))


def _play(name: str, seconds: float = 25.0, seed: int = 3) -> Trace:
    t = Trace()
    run_headless(seed, seconds, name, respawn=True, on_tick=t)
    return t


def test_every_model_has_a_line_and_plays() -> None:
    assert len(GROUPS["zoo"]) >= 8
    for name in GROUPS["all"]:
        assert MODELS[name].summary and "\n" not in MODELS[name].summary
        summary = run_headless(1, 6.0, name, respawn=True)
        assert summary.ticks == 360, name


def test_the_charger_stays_closer_to_enemies_than_the_sniper() -> None:
    charger, sniper = _play("charger"), _play("sniper")
    c = float(np.median([d for d in charger.nearest[600:] if math.isfinite(d)]))
    s = float(np.median([d for d in sniper.nearest[600:] if math.isfinite(d)]))
    assert c < 120.0 and s > max(200.0, 3 * c), (c, s)


def test_the_camper_parks_against_a_wall() -> None:
    t = _play("camper")
    late = t.pos[900:]
    wall = [min(x, ARENA_W - x, y, ARENA_H - y) for x, y in late]
    assert max(wall) < 150.0
    assert t.still_ticks() > len(t.pos) // 3


def test_the_afk_player_lets_go_of_the_keys_now_and_then() -> None:
    afk, weak = _play("afk", 40.0), _play("weak", 40.0)
    assert afk.still_ticks() > weak.still_ticks() + 3 * 60  # at least one idle break of 3 s or more


def test_the_dasher_dashes_far_more_than_the_average_bot() -> None:
    assert _play("dasher").dashes > 3 * max(1, _play("average").dashes)


def test_the_stick_aims_in_eight_directions() -> None:
    t = _play("stick")
    steps = {round(a / (math.pi / 4)) * (math.pi / 4) - a for a in t.aims[120:]}
    assert max(abs(s) for s in steps) < 1e-3


def test_the_circler_runs_laps_around_the_middle() -> None:
    t = _play("circler")
    radii = [math.hypot(x - ARENA_W / 2, y - ARENA_H / 2) for x, y in t.pos[600:]]
    assert 450.0 < float(np.median(radii)) < 850.0
    angles = [math.atan2(y - ARENA_H / 2, x - ARENA_W / 2) for x, y in t.pos[600:]]
    assert max(angles) - min(angles) > math.pi  # it went around, not back and forth in one spot


def test_the_looter_collects_more_than_the_novice() -> None:
    assert _play("looter", 40.0).pickups > _play("novice", 40.0).pickups


def test_the_panicker_flees_without_shooting_at_low_hp() -> None:
    w = World(seed=2)
    model = make_player("panicker", 2)
    for _ in range(120):
        w.step(model.act(w))
    w.player.hp = w.player.stats.max_hp * 0.3
    w.spawn_enemy("grunt", w.player.x + 80, w.player.y)
    inp = model.act(w)
    assert not inp.shoot and inp.dash and inp.move_x < 0


def test_names_groups_and_outside_models_resolve() -> None:
    assert expand(["ladder"]) == ("novice", "weak", "average", "strong")
    assert expand(["zoo,still", "charger"]) == (*GROUPS["zoo"], "still")
    outside = resolve("game.zoo.models:Wanderer")
    assert outside.make(0).act(World(seed=0)) is not None
    with pytest.raises(UnknownPlayer, match="known: novice"):
        resolve("expert")
    with pytest.raises(UnknownPlayer, match="cannot load"):
        resolve("game.zoo.models:Nope")


def test_the_cli_plays_a_zoo_model_and_refuses_an_unknown_one_in_words() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--bot", "charger", "--seconds", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert '"bot": "charger"' in ok.stdout.replace('"bot":"charger"', '"bot": "charger"')
    bad = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--bot", "expert", "--seconds", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "unknown player model 'expert'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_eval_judges_the_director_on_models_from_outside_the_game() -> None:
    # docs/examples/outside_models.py: the player models of the fourth pass's check, loaded by module path
    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    env = {**os.environ, "PYTHONPATH": str(examples)}
    names = ("Flustered", "Brawler", "Orbiter", "Kiter")
    skills = ",".join(f"outside_models:{n}" for n in names)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "game.eval",
            "ab",
            "--seconds",
            "15",
            "--seeds",
            "1",
            "--workers",
            "1",
            "--skills",
            skills,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith("outside_models:")]
    cells = [[c.strip() for c in r.split("|")] for r in rows[: len(names)]]
    assert [c[0].rstrip("* ") for c in cells] == [f"outside_models:{n}" for n in names]
    assert all(len(c) == 8 and all(c) for c in cells), "each row reads every measure"
    targets = [[c.strip() for c in r.split("|")] for r in rows[len(names) : 2 * len(names)]]
    assert [c[0] for c in targets] == [f"outside_models:{n}" for n in names]
    assert all(len(c) == 6 and all(x.startswith(("pass", "FAIL")) for x in c[1:5]) for c in targets), (
        "and each of the four targets, passed or failed"
    )


def test_the_eval_lists_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    from game.eval.__main__ import main as eval_main

    assert eval_main(["players"]) == 0
    out = capsys.readouterr().out
    for name in GROUPS["all"]:
        assert f"  {name} " in out
    assert eval_main(["first-wave", "--skill", "expert", "--seeds", "1"]) == 2
