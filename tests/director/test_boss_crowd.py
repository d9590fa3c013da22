"""While a boss is alive the director's crowd beside it is held to ``BOSS_CROWD_SHARE`` of its caps (the
strong bot died in boss fights at pressure 3 with 60+ adds)."""

from __future__ import annotations

from director_support import quiet_world

from game.director.plan import DirectorKnobs
from game.director.spawner import BOSS_CROWD_SHARE, CreditSpawner, live_cap_for
from game.sim.world import World


def _spawns(boss: bool) -> int:
    sp = CreditSpawner(DirectorKnobs(pressure=2.0))
    w: World = quiet_world(seed=2)
    cap = min(live_cap_for(2.0, sp.live_cap), sp.clear_cap)
    crowd = int(cap * BOSS_CROWD_SHARE) + 1  # over the boss-fight share, well under the caps
    for i in range(crowd):
        w.spawn_enemy("grunt", 50.0 + 10.0 * i, 50.0)
    if boss:
        w.spawn_enemy("boss", 1500.0, 1500.0)
    before = w.enemies.n
    for _ in range(240):
        sp.credits = 500.0
        sp.update(w, 1 / 60)
    return w.enemies.n - before


def test_a_boss_fight_holds_the_crowd_back() -> None:
    assert _spawns(boss=False) > 0, "under the caps, the director spawns"
    assert _spawns(boss=True) == 0, "past half the caps beside a boss, it does not"
