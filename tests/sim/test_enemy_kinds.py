"""The special enemies: chargers dash in a straight line, exploders blow up (unless killed first), splitters
split; each is in the prefab whitelist and a director spawn card."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from coreai.errors import PersistenceError
from game.sim import events as ev
from game.sim.enemy_kinds import DASH, WINDUP
from game.sim.player import PlayerInput
from game.sim.prefabs import DEFAULT_PREFAB_FILE, PrefabRegistry
from game.sim.spawner import CreditSpawner, NullSpawner
from game.sim.world import World

NEW = ("charger", "exploder", "splitter")


def unarmed(seed: int = 1) -> World:
    w = World(seed=seed, spawner=NullSpawner())
    w.wave_time_left = 1e9
    w.arsenal.held = []
    return w


def row(w: World, eid: int) -> int:
    i = w._index_of(eid)
    assert i is not None
    return i


def test_charger_winds_up_then_dashes_straight_at_where_the_player_was() -> None:
    w = unarmed()
    p = w.player
    eid = w.spawn_enemy("charger", p.x + 300, p.y)
    w.enemies.cooldown[row(w, eid)] = 0.0
    w.step()
    i = row(w, eid)
    assert w.enemies.pattern[i] == WINDUP and w.enemies.charge[i] > 0
    held = (w.enemies.x[i], w.enemies.y[i])
    w.step()
    assert (w.enemies.x[row(w, eid)], w.enemies.y[row(w, eid)]) == held, "it stands still winding up"
    p.y += 200  # the player steps aside during the wind-up
    while w.enemies.pattern[row(w, eid)] != DASH:
        w.step()
    x0 = float(w.enemies.x[row(w, eid)])
    y0 = float(w.enemies.y[row(w, eid)])
    w.step()
    i = row(w, eid)
    speed = np.hypot(w.enemies.x[i] - x0, w.enemies.y[i] - y0) * 60
    assert speed > 3 * w.prefabs.get("charger").speed, "a dash is fast"
    assert abs(w.enemies.y[i] - y0) < 1.0, "and straight: it does not turn after the player"


def test_exploder_lights_its_fuse_and_blows_up_near_the_player() -> None:
    w = unarmed()
    p = w.player
    w.spawn_enemy("exploder", p.x + 50, p.y)
    events: list[object] = []
    for _ in range(90):
        events += w.step()
    assert any(isinstance(e, ev.Exploded) for e in events)
    hurt = [e for e in events if isinstance(e, ev.PlayerDamaged)]
    assert hurt and hurt[0].source == "explosion"
    assert w.enemies.n == 0 and w.stats.kills == 0, "it is gone, and that is no kill"


def test_an_exploder_killed_first_does_not_explode() -> None:
    w = unarmed()
    p = w.player
    eid = w.spawn_enemy("exploder", p.x + 50, p.y)
    w.step()
    w.enemies.hp[row(w, eid)] = -1.0
    events = w.step()
    assert w.stats.kills == 1 and not any(isinstance(e, ev.Exploded) for e in events)


def test_splitter_splits_into_its_children_on_death() -> None:
    w = unarmed()
    p = w.player
    pf = w.prefabs.get("splitter")
    eid = w.spawn_enemy("splitter", p.x + 400, p.y)
    w.enemies.hp[row(w, eid)] = -1.0
    events = w.step()
    children = [e for e in events if isinstance(e, ev.EnemySpawned) and e.source == "split"]
    assert len(children) == pf.split_count and {c.prefab for c in children} == {pf.split_into}
    assert w.game_state()["enemies_by_prefab"] == {pf.split_into: pf.split_count}


def test_new_enemies_are_whitelisted_director_cards_after_the_opening_waves() -> None:
    w = World(seed=2, spawner=NullSpawner())
    for name in NEW:
        assert name in w.prefabs and name in w.prefabs.regular
    w.wave = 2
    early = {c.prefab for c in CreditSpawner().cards(w)}
    assert not set(NEW) & early, "the first two waves stay as they were"
    w.wave = 4
    assert set(NEW) <= {c.prefab for c in CreditSpawner().cards(w)}


def test_prefab_file_refuses_a_behaviour_without_its_numbers(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_PREFAB_FILE.read_text())
    data["prefabs"]["charger"]["dash_speed"] = 0
    bad = tmp_path / "enemies.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(PersistenceError, match="charger needs dash_speed"):
        PrefabRegistry.load(bad)
    data = json.loads(DEFAULT_PREFAB_FILE.read_text())
    data["prefabs"]["splitter"]["split_into"] = "boss"
    bad.write_text(json.dumps(data))
    with pytest.raises(PersistenceError, match="not a plain prefab"):
        PrefabRegistry.load(bad)


def test_special_enemies_keep_runs_deterministic() -> None:
    def run() -> tuple[int, float, int]:
        w = World(seed=9, spawner=NullSpawner())
        w.wave_time_left = 1e9
        rng = np.random.default_rng(0)
        for k in range(30):
            a = rng.uniform(0, 2 * np.pi)
            w.spawn_enemy(NEW[k % 3], w.player.x + np.cos(a) * 400, w.player.y + np.sin(a) * 400)
        for _ in range(600):
            w.step(PlayerInput(aim_x=w.player.x + 1, aim_y=w.player.y, shoot=True, move_x=0.3))
        return w.stats.kills, round(w.stats.damage_taken, 6), w.enemies.n

    assert run() == run()
