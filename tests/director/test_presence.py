"""The presence floor (``CreditSpawner._presence``, set by the act stage): while fewer than ``limits.floor``
enemies are in view or about to enter it, a group just big enough lands just past the screen edge, tagged
``presence``, not paid from the bank, in every pacing state and through a hold; under ``prey_hp`` it is the
weakest kind. HP limits danger, never presence."""

from __future__ import annotations

from collections import Counter

from director_support import directed_world

from game.director.act import presence_floor
from game.director.director import Director
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs
from game.director.tuning import TUNING
from game.sim import events as ev
from game.sim.config import TICK_HZ
from game.sim.player import PlayerInput
from game.sim.spawner import CreditSpawner, Limits
from game.sim.view import ARRIVING_PX, in_view, seen
from game.sim.world import World

FLOOR = TUNING.presence.floor_min + 2
ONE_TICK = 1.0 / TICK_HZ


def _arena(spawner: CreditSpawner, wave: int = 4) -> World:
    w = World(seed=5, spawner=spawner)
    w.wave = wave
    w.wave_time_left = 1e9
    w.player.iframes = 1e9
    w.enemies.clear()  # the wave's opening group, if any: an empty arena
    return w


def _run(w: World, spawner: CreditSpawner, limits: Limits, seconds: float) -> Counter[str]:
    """Step ``w`` with ``limits`` in force, ``present`` read each tick as the act stage does."""
    causes: Counter[str] = Counter()
    for _ in range(round(seconds * TICK_HZ)):
        spawner.limits = Limits(**{**limits.__dict__, "present": in_view(w, ARRIVING_PX)})
        w.step(PlayerInput())
        causes.update(e.source for e in w.events if isinstance(e, ev.EnemySpawned))
    return causes


def test_an_empty_arena_is_topped_up_to_the_floor_with_the_bank_empty_and_held() -> None:
    for pacing in (PacingState.RELAX, PacingState.PEAK_FADE, PacingState.BUILD_UP):
        s = CreditSpawner(DirectorKnobs())
        w = _arena(s)
        s.pacing = pacing
        s.credits = 0.0
        causes = _run(w, s, Limits(floor=FLOOR, hold=True), 3.0)
        assert causes == Counter({"presence": FLOOR}), (pacing, causes)
        assert in_view(w, ARRIVING_PX) == FLOOR == w.enemies.n
        assert s.credits > 0, "nothing taken from the bank (it earned while held)"
        assert s.spawned == FLOOR


def test_the_floor_lands_just_past_the_screen_edge() -> None:
    s = CreditSpawner()
    w = _arena(s)
    _run(w, s, Limits(floor=FLOOR, hold=True), ONE_TICK)
    assert 0 < w.enemies.n <= FLOOR
    assert in_view(w) == 0, "not on screen ..."
    assert in_view(w, ARRIVING_PX) == w.enemies.n, "... but about to enter it"


def test_the_floor_respects_the_crowd_limit_and_no_floor_means_none() -> None:
    s = CreditSpawner()
    w = _arena(s)
    assert _run(w, s, Limits(floor=FLOOR, crowd_max=2, hold=True), 3.0) == Counter({"presence": 2})
    s2 = CreditSpawner()
    w2 = _arena(s2)
    assert _run(w2, s2, Limits(floor=0, hold=True), 3.0) == Counter()


def test_a_full_crowd_left_off_screen_is_brought_back_not_added_to() -> None:
    """The crowd is at its cap but all of it trails far off screen (a player backing away): the floor moves
    the stragglers farthest away to just past the edge instead of spawning, and never moves a boss."""
    s = CreditSpawner()
    w = _arena(s)
    p = w.player
    far = [900.0, 1000.0, 1100.0, 1200.0, 1300.0, 1400.0]
    for d in far:
        w.spawn_enemy("grunt", p.x - d, p.y)
    w.spawn_enemy("boss", p.x - 1500.0, p.y)
    ids = w.enemies.view("id").copy()
    farthest = set(ids[3:6].tolist())  # spawned in order of distance: rows 3-5 are the farthest grunts
    assert in_view(w, ARRIVING_PX) == 0
    causes = _run(w, s, Limits(floor=3, crowd_max=len(far) + 1, hold=True), 0.1)
    assert causes == Counter({"world": len(far) + 1}), "only the test's own: the crowd is at its cap"
    assert (w.enemies.view("id") == ids).all() and s.moved == 3
    near = seen(w, ARRIVING_PX)
    assert near.sum() == 3 and in_view(w) == 0, "three brought to just past the edge"
    assert set(ids[near].tolist()) == farthest, "the farthest first; the boss never"


def test_under_prey_hp_the_floor_brings_the_weakest_kind() -> None:
    s = CreditSpawner()
    w = _arena(s)
    cards = s.cards(w)
    weakest = min(cards, key=lambda c: c.cost).prefab
    s.knobs = DirectorKnobs(mix={c.prefab: (0.0 if c.prefab == weakest else 5.0) for c in cards})
    _run(w, s, Limits(floor=FLOOR, hold=True), 2.0)
    kinds = {w.prefabs.names[k] for k in w.enemies.view("kind")}
    assert w.enemies.n and weakest not in kinds, "without prey: the plan's mix (the weakest weighted out)"
    s2 = CreditSpawner(s.knobs)
    w2 = _arena(s2)
    _run(w2, s2, Limits(floor=FLOOR, hold=True, prey=True), 2.0)
    assert {w2.prefabs.names[k] for k in w2.enemies.view("kind")} == {weakest}


def test_a_player_at_40_percent_hp_still_gets_enemies_in_view() -> None:
    """The director end to end: a hurt player who stands still (the grace holds the bank) sees the floor,
    of prey, while the hits it takes are limited."""
    d = Director("rules", seed=2)
    w = directed_world(d, seed=2)
    w.wave_time_left = 1e9
    hp = 0.4
    assert hp < TUNING.danger.prey_hp and hp < TUNING.danger.hp_full
    causes: Counter[str] = Counter()
    w.step()
    d.on_tick(w)
    w.enemies.clear()  # an empty arena from here on (wave 1's opening group gone)
    for _ in range(4 * TICK_HZ):
        w.player.hp = hp * w.player.stats.max_hp
        w.player.iframes = 1.0
        w.step()
        d.on_tick(w)
        causes.update(e.source for e in w.events if isinstance(e, ev.EnemySpawned))
    assert d.read is not None and d.credit_spawner.limits.prey
    floor = presence_floor(d.read, TUNING)
    assert floor >= TUNING.presence.floor_min > 0
    assert in_view(w, ARRIVING_PX) >= floor, "HP never gates presence"
    assert set(causes) == {"presence"} and causes["presence"] >= floor
    weakest = min(d.credit_spawner.cards(w), key=lambda c: c.cost).prefab
    assert {w.prefabs.names[k] for k in w.enemies.view("kind")} == {weakest}, "prey"
    assert w.params.get("enemy_damage_mult") < d.knobs.danger, "but it limits the danger"
