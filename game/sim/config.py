"""Constants of the simulation: timestep, arena, player base stats. Tuning lives here, not in the views."""

from __future__ import annotations

from dataclasses import dataclass

TICK_HZ = 60
DT = 1.0 / TICK_HZ

ARENA_W = 3200.0
ARENA_H = 2400.0
# The view's visible area; spawns happen just outside it.
SCREEN_W = 1280
SCREEN_H = 720
VIEW_EDGE_MARGIN = 90.0  # how far past the arena border the camera may show (it stops there)
SPAWN_RING_MIN = 720.0
SPAWN_RING_MAX = 900.0


@dataclass(frozen=True)
class PlayerBase:
    max_hp: float = 100.0
    speed: float = 230.0
    radius: float = 16.0
    fire_rate: float = 4.0  # shots per second
    damage: float = 12.0
    bullet_speed: float = 720.0
    bullet_ttl: float = 1.1
    multishot: int = 1
    pierce: int = 0
    dash_speed_mult: float = 3.4
    dash_time: float = 0.18
    dash_cooldown: float = 1.4
    dash_iframes: float = 0.28
    hit_iframes: float = 0.45
    pickup_radius: float = 90.0
    regen: float = 0.0  # hp per second


PLAYER_BASE = PlayerBase()

# Wave N lasts WAVE_BASE_SECONDS + WAVE_GROWTH_SECONDS * (N - 1), capped.
WAVE_BASE_SECONDS = 30.0
WAVE_GROWTH_SECONDS = 5.0
WAVE_MAX_SECONDS = 60.0
BOSS_EVERY = 5
FINAL_WAVE = 20  # surviving this wave wins the run (about 18 minutes of play)

HEALTH_PICKUP_HEAL = 20.0
HEALTH_DROP_CHANCE = 0.03
XP_PER_LEVEL_BASE = 10
XP_PER_LEVEL_GROWTH = 6

ENEMY_BULLET_RADIUS = 7.0
PLAYER_BULLET_RADIUS = 5.0
PICKUP_RADIUS = 10.0
CELL_SIZE = 64.0  # smallest crowd-separation cell
HIT_CELL_MIN = 32.0  # smallest collision cell
ENEMY_HP_GROWTH = 0.18
ENEMY_SPEED_GROWTH = 0.035
ENEMY_SPEED_CAP = 1.4


def wave_duration(wave: int) -> float:
    return min(WAVE_MAX_SECONDS, WAVE_BASE_SECONDS + WAVE_GROWTH_SECONDS * (wave - 1))


def enemy_hp_scale(wave: int) -> float:
    """Enemies spawned in later waves are tougher."""
    return 1.0 + ENEMY_HP_GROWTH * (wave - 1)


def enemy_speed_scale(wave: int) -> float:
    return min(ENEMY_SPEED_CAP, 1.0 + ENEMY_SPEED_GROWTH * (wave - 1))


def xp_for_level(level: int) -> int:
    return XP_PER_LEVEL_BASE + XP_PER_LEVEL_GROWTH * (level - 1)
