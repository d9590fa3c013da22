"""The rescue reflex (``game/director/rescue.py``): when the HP bar falls fast under a crowd the director
shoves the crowd back, softens hits briefly, holds its spawns and drops supply; at most every COOLDOWN_S s,
never under static difficulty, and visible in F10 and the log."""

from __future__ import annotations

import math

import numpy as np
import pytest
from director_support import quiet_world, tick
from loguru import logger

from game.director import rescue
from game.director.director import Director
from game.sim import events as ev
from game.sim.combat import HEALTH
from game.sim.config import TICK_HZ
from game.sim.player import PlayerInput
from game.sim.world import World


@pytest.mark.parametrize(
    "hp, fell, crowd, expected",
    [
        (0.55, 0.35, 5, True),  # a third of a bar in 2 s, half HP, a crowd on the player
        (0.55, 0.35, 2, False),  # ... but no crowd: a spitter's volley, the ease_off handles it
        (0.8, 0.35, 8, False),  # still healthy
        (0.6, 0.1, 8, False),  # not falling: a crowd the player is handling
        (0.2, 0.2, 4, True),  # the last stand: low and still falling
        (0.2, 0.0, 4, False),  # low but nothing lands any more
    ],
)
def test_when_to_rescue(hp: float, fell: float, crowd: int, expected: bool) -> None:
    assert rescue.should_rescue(hp, fell, crowd) is expected


def _surrounded(director: Director, n: int = 8) -> World:
    """A quiet world a few seconds in, the player at 55% HP after a 40%-of-a-bar hit, ``n`` grunts on it."""
    w = quiet_world()
    director.watch.state.last_nudge = float("inf")  # no calm nudge: the test places every enemy
    for _ in range(10):  # the player acts (the gentle opening ends)
        w.step(PlayerInput(move_x=1.0))
        director.on_tick(w)
    tick(director, w, 2 * TICK_HZ)
    w.wave = 3  # past wave 1's opening (its softer hits for a low-rated player)
    p = w.player
    for i in range(n):
        a = 2 * math.pi * i / n
        w.spawn_enemy("grunt", p.x + math.cos(a) * 40, p.y + math.sin(a) * 40)
    w.spawn_enemy("grunt", p.x + 900, p.y)  # far away: not shoved
    p.iframes = 0.0
    p.hp = 0.95 * p.stats.max_hp
    w.hurt_player(0.4 * p.stats.max_hp, "contact")  # delivered with the next tick's events
    return w


def test_a_fast_fall_under_a_crowd_is_rescued_once_and_shown() -> None:
    d = Director("rules")
    w = _surrounded(d)
    lines: list[str] = []
    sink = logger.add(
        lambda m: lines.append(str(m)), filter=lambda r: r["extra"].get("feature") == "director.rescue"
    )
    try:
        tick(d, w)
    finally:
        logger.remove(sink)
    st = d.watch.rescue.state
    assert st.rescues == 1 and st.shoved == 8
    p = w.player
    dist = np.hypot(w.enemies.view("x") - p.x, w.enemies.view("y") - p.y)
    assert (np.sort(dist)[:8] > rescue.RADIUS + 50).all(), "the crowd was pushed back"
    assert dist.max() > 800, "an enemy far away stays where it was"
    assert w.params.get("enemy_damage_mult") == pytest.approx(rescue.DAMAGE)
    assert d.credit_spawner.crowd_cap == 0, "no director spawns while the player gets clear"
    assert (w.pickups.view("kind") == HEALTH).sum() >= 2, "supply dropped at once"
    assert "RESCUE" in d.panel(w).watch and "rescues 1" in d.panel(w).watch
    assert any("rescue 1" in line and "8 shoved" in line for line in lines), lines
    tick(d, w)
    assert any(isinstance(e, ev.Rescued) for e in w.events), "the views get the shockwave event"
    # soft hits end after SOFT_S, the spawn hold after HOLD_S
    tick(d, w, round(rescue.SOFT_S * TICK_HZ))
    assert w.params.get("enemy_damage_mult") == pytest.approx(1.0)
    tick(d, w, round((rescue.HOLD_S - rescue.SOFT_S) * TICK_HZ) + 2)
    assert d.credit_spawner.crowd_cap != 0, "the hold is over (a low-skill crowd cap may remain)"
    assert "RESCUE" not in d.panel(w).watch


def test_a_second_fall_within_the_cooldown_is_not_rescued() -> None:
    d = Director("rules")
    w = _surrounded(d)
    tick(d, w)
    assert d.watch.rescue.state.rescues == 1
    tick(d, w, round(rescue.SOFT_S * TICK_HZ))
    p = w.player
    for i in range(6):
        w.spawn_enemy("grunt", p.x + 30 + i, p.y)
    p.iframes = 0.0
    w.hurt_player(0.4 * p.stats.max_hp, "contact")
    tick(d, w, 2)
    assert d.watch.rescue.state.rescues == 1, "at most one rescue every COOLDOWN_S s: no god mode"


def test_static_difficulty_never_rescues() -> None:
    d = Director("static")
    w = _surrounded(d)
    tick(d, w, 3)
    assert d.watch.rescue.state.rescues == 0
    assert w.params.get("enemy_damage_mult") == 1.0


def test_one_last_stand_inside_the_cooldown_then_none() -> None:
    d = Director("rules")
    w = _surrounded(d)
    tick(d, w)
    assert d.watch.rescue.state.rescues == 1
    tick(d, w, round(rescue.LAST_STAND_GAP_S * TICK_HZ) + 2)
    p = w.player

    def collapse() -> None:
        for i in range(6):
            w.spawn_enemy("grunt", p.x + 30 + i, p.y)
        p.iframes = 0.0
        p.hp = 0.5 * p.stats.max_hp
        w.hurt_player(0.3 * p.stats.max_hp, "contact")  # 20% HP left, falling
        tick(d, w, 2)

    collapse()
    assert d.watch.rescue.state.rescues == 2 and d.watch.rescue.state.stand, "a last stand"
    tick(d, w, round(rescue.LAST_STAND_GAP_S * TICK_HZ) + 2)
    collapse()
    assert d.watch.rescue.state.rescues == 2, "one last stand per cooldown"
