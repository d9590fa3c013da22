"""Movement, dash, shooting, collisions, damage and kills in the headless simulation."""

from __future__ import annotations

import math

import pytest

from coreai.errors import UnknownPrefabError
from game.sim.config import ARENA_H, ARENA_W, DT, PLAYER_BASE
from game.sim.player import PlayerInput
from game.sim.spawner import NullSpawner
from game.sim.world import World


def quiet_world(seed: int = 0) -> World:
    w = World(seed=seed, spawner=NullSpawner())
    w.wave_time_left = 1e9  # no wave end in the middle of a test
    return w


def test_player_moves_at_its_speed_and_diagonals_are_normalised() -> None:
    w = quiet_world()
    x0, y0 = w.player.x, w.player.y
    for _ in range(60):
        w.step(PlayerInput(move_x=1.0, move_y=1.0, aim_x=x0, aim_y=y0 + 500))
    moved = math.hypot(w.player.x - x0, w.player.y - y0)
    assert moved == pytest.approx(PLAYER_BASE.speed, rel=1e-6)
    assert w.player.x - x0 == pytest.approx(w.player.y - y0)


def test_player_is_clamped_inside_the_arena() -> None:
    w = quiet_world()
    for _ in range(60 * 20):
        w.step(PlayerInput(move_x=-1.0, move_y=-1.0))
    r = PLAYER_BASE.radius
    assert (w.player.x, w.player.y) == (pytest.approx(r), pytest.approx(r))
    for _ in range(60 * 30):
        w.step(PlayerInput(move_x=1.0, move_y=1.0))
    assert w.player.x == pytest.approx(ARENA_W - r)
    assert w.player.y == pytest.approx(ARENA_H - r)


def test_dash_is_faster_has_a_cooldown_and_grants_iframes() -> None:
    w = quiet_world()
    x0 = w.player.x
    w.step(PlayerInput(move_x=1.0, dash=True))
    assert w.player.invulnerable
    assert w.player.x - x0 == pytest.approx(PLAYER_BASE.speed * PLAYER_BASE.dash_speed_mult * DT)
    ticks = round(PLAYER_BASE.dash_time / DT)
    for _ in range(ticks + 5):
        w.step(PlayerInput(move_x=1.0, dash=True))  # holding dash does not re-trigger during the cooldown
    x1 = w.player.x
    w.step(PlayerInput(move_x=1.0, dash=True))
    assert w.player.x - x1 == pytest.approx(PLAYER_BASE.speed * DT)


def test_bullets_fly_toward_the_aim_and_damage_an_enemy() -> None:
    w = quiet_world()
    p = w.player
    eid = w.spawn_enemy("tank", p.x + 300, p.y)
    hp0 = float(w.enemies.view("hp")[0])
    w.enemies.view("speed")[:] = 0.0
    for _ in range(40):
        w.step(PlayerInput(aim_x=p.x + 300, aim_y=p.y, shoot=True))
    assert w.stats.shots > 0
    assert w.stats.hits > 0
    assert w.enemies.view("id")[0] == eid
    assert float(w.enemies.view("hp")[0]) < hp0


def test_killing_an_enemy_scores_and_drops_xp() -> None:
    w = quiet_world()
    p = w.player
    w.spawn_enemy("runner", p.x + 120, p.y)
    w.enemies.view("speed")[:] = 0.0
    for _ in range(60):
        w.step(PlayerInput(aim_x=p.x + 120, aim_y=p.y, shoot=True))
        if w.stats.kills:
            break
    assert w.stats.kills == 1
    assert w.enemies.n == 0
    assert w.stats.score >= 8
    assert w.pickups.n >= 1


def test_pierce_lets_one_bullet_hit_several_enemies() -> None:
    w = quiet_world()
    p = w.player
    w.stacks["pierce"] = 2
    from game.sim.upgrades import stats_for

    p.stats = stats_for(w.stacks)
    for k in range(3):
        w.spawn_enemy("tank", p.x + 150 + 70 * k, p.y)
    w.enemies.view("speed")[:] = 0.0
    w.step(PlayerInput(aim_x=p.x + 500, aim_y=p.y, shoot=True))
    for _ in range(40):
        w.step(PlayerInput(aim_x=p.x + 500, aim_y=p.y, shoot=False))
    hurt = w.enemies.view("hp") < w.enemies.view("max_hp")
    assert hurt.sum() == 3
    assert w.stats.hits == 3


def test_a_bullet_overlapping_two_enemies_hits_the_nearer_one() -> None:
    w = quiet_world()
    p = w.player
    far = w.spawn_enemy("tank", p.x + 300, p.y)
    near = w.spawn_enemy("tank", p.x + 320, p.y + 25)  # spawned second: later in the pool and the grid
    w.enemies.view("speed")[:] = 0.0
    w.step(PlayerInput())  # settle separation
    ex, ey = w.enemies.view("x").copy(), w.enemies.view("y").copy()
    # a bullet placed between them, nearer to the second
    bx, by = 0.4 * ex[0] + 0.6 * ex[1], 0.4 * ey[0] + 0.6 * ey[1]
    assert (bx - ex[0]) ** 2 + (by - ey[0]) ** 2 < (26 + 5) ** 2  # it overlaps both
    w.bullets.add(1, x=bx, y=by, vx=0.0, vy=0.0, damage=5.0, ttl=1.0, pierce=0, last_hit=-1, target=-1)
    w.step(PlayerInput())
    hp = dict(zip(w.enemies.view("id").tolist(), w.enemies.view("hp").tolist(), strict=True))
    full = float(w.enemies.view("max_hp")[0])
    assert hp[near] == pytest.approx(full - 5.0)
    assert hp[far] == pytest.approx(full)
    assert w.bullets.n == 0


def test_contact_damage_respects_iframes() -> None:
    w = quiet_world()
    p = w.player
    w.spawn_enemy("grunt", p.x + 5, p.y)
    w.enemies.view("speed")[:] = 0.0
    w.step(PlayerInput())
    assert p.hp == pytest.approx(PLAYER_BASE.max_hp - 10)
    w.step(PlayerInput())
    assert p.hp == pytest.approx(PLAYER_BASE.max_hp - 10), "no second hit while invulnerable"
    for _ in range(round(PLAYER_BASE.hit_iframes / DT) + 1):
        w.step(PlayerInput())
    assert p.hp == pytest.approx(PLAYER_BASE.max_hp - 20)
    assert w.stats.damage_taken == pytest.approx(20)


def test_death_ends_the_run_unless_respawn_is_on() -> None:
    w = quiet_world()
    w.hurt_player(1000, "test")
    w.step(PlayerInput())
    assert w.phase == "dead" and w.stats.deaths == 1
    assert w.step(PlayerInput()) == [] and w.tick == 1

    r = World(seed=0, spawner=NullSpawner(), respawn=True)
    r.hurt_player(1000, "test")
    r.step(PlayerInput())
    assert r.phase == "playing" and r.stats.deaths == 1
    assert r.player.hp == r.player.stats.max_hp


def test_spitters_shoot_projectiles_that_hurt() -> None:
    w = quiet_world()
    p = w.player
    w.spawn_enemy("spitter", p.x + 250, p.y)
    for _ in range(60 * 6):
        w.step(PlayerInput())
        if w.stats.damage_taken:
            break
    assert w.stats.damage_taken > 0


def test_unknown_prefab_is_rejected_naming_the_allowed_ones() -> None:
    w = quiet_world()
    with pytest.raises(UnknownPrefabError) as err:
        w.spawn_enemy("dragon", 10, 10)
    assert "dragon" in str(err.value)
    for name in ("grunt", "runner", "tank", "spitter", "boss"):
        assert name in err.value.allowed
    assert w.enemies.n == 0


def test_world_commands_move_destroy_list_and_clamp() -> None:
    w = quiet_world()
    a = w.spawn_enemy("grunt", -500, 99999)  # clamped into the arena
    b = w.spawn_enemy("tank", 100, 100, elite=True)
    assert 0 < w.enemies.x[0] < ARENA_W and 0 < w.enemies.y[0] <= ARENA_H
    assert w.move_enemy(a, 200, 300)
    assert (w.enemies.x[0], w.enemies.y[0]) == (200, 300)
    listed = {e["id"]: e for e in w.list_enemies()}
    assert listed[b]["elite"] is True and listed[b]["prefab"] == "tank"
    assert w.destroy_enemy(a) and not w.destroy_enemy(a)
    assert w.enemies.n == 1 and not w.move_enemy(12345, 0, 0)
