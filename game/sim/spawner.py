"""Spawners decide what enters the arena. The default ``WaveSpawner`` is the static-difficulty baseline: a
credit budget that grows with the wave, spent on weighted prefab cards. The director (a later issue) plugs in
its own spawner through the same two-method protocol."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

import numpy as np

from game.sim.config import ARENA_H, ARENA_W, BOSS_EVERY, SPAWN_RING_MAX, SPAWN_RING_MIN

if TYPE_CHECKING:
    from game.sim.world import World

BASE_CREDITS_PER_S = 1.45  # credit income in wave 1 (the director's bank earns on the same curve) ...
GROWTH_PER_WAVE = 0.45  # ... growing this much of it per wave
ELITE_COST = 3.0  # an elite costs this many times its card
MAX_GROUP = 6  # the most enemies in one group


def card_weight(cost: float) -> float:
    """How often a prefab card is drawn, for its credit cost: cheaper kinds more often (1/sqrt(cost)), so a
    credit buys a crowd rather than a few heavies. Static difficulty and the director's bank share it."""
    return 1.0 / math.sqrt(cost)


class Spawner(Protocol):
    def on_wave_start(self, world: World, wave: int) -> None: ...

    def update(self, world: World, dt: float) -> None: ...


def ring_position(
    rng: np.random.Generator, px: float, py: float, margin: float, angle: float | None = None
) -> tuple[float, float]:
    """A point just off-screen around (px, py), clamped into the arena."""
    a = rng.uniform(0.0, 2 * math.pi) if angle is None else angle
    d = rng.uniform(SPAWN_RING_MIN, SPAWN_RING_MAX)
    x = min(ARENA_W - margin, max(margin, px + math.cos(a) * d))
    y = min(ARENA_H - margin, max(margin, py + math.sin(a) * d))
    return x, y


class WaveSpawner:
    """Static difficulty: credits per second grow linearly with the wave; bosses every few waves."""

    MAX_GROUP = MAX_GROUP

    def __init__(
        self,
        base_credits_per_s: float = BASE_CREDITS_PER_S,
        growth_per_wave: float = GROWTH_PER_WAVE,
        live_cap: int = 700,
        elite_chance_per_wave: float = 0.015,
    ) -> None:
        self.base = base_credits_per_s
        self.growth = growth_per_wave
        self.live_cap = live_cap
        self.elite_chance_per_wave = elite_chance_per_wave
        self.credits = 0.0

    def credits_per_second(self, world: World) -> float:
        return self.base * (1.0 + self.growth * (world.wave - 1)) * world.params.get("spawn_rate_mult")

    def on_wave_start(self, world: World, wave: int) -> None:
        self.credits = 4.0 + wave  # an opening group so a wave never starts empty
        if wave % BOSS_EVERY == 0:
            x, y = ring_position(world.rng, world.player.x, world.player.y, 60.0)
            world.spawn_enemy("boss", x, y, source="wave")

    def cards(self, world: World) -> list[tuple[str, float]]:
        reg = world.prefabs
        return [
            (name, reg.get(name).cost)
            for name in reg.names
            if not reg.get(name).is_boss and reg.get(name).first_wave <= world.wave
        ]

    def update(self, world: World, dt: float) -> None:
        self.credits += self.credits_per_second(world) * dt
        if world.enemies.n >= self.live_cap:
            return
        cards = self.cards(world)
        if not cards:
            return
        cheapest = min(c for _, c in cards)
        if self.credits < cheapest:
            return
        elite_chance = min(0.3, self.elite_chance_per_wave * (world.wave - 1))
        # one group per tick at most, of one prefab, spawned around one angle
        affordable = [(n, c) for n, c in cards if c <= self.credits]
        weights = np.array([card_weight(c) for _, c in affordable])
        name, cost = affordable[int(world.rng.choice(len(affordable), p=weights / weights.sum()))]
        elite = bool(world.rng.random() < elite_chance) and self.credits >= cost * ELITE_COST
        unit = cost * (ELITE_COST if elite else 1)
        count = int(min(self.MAX_GROUP, self.credits // unit, self.live_cap - world.enemies.n))
        if count <= 0:
            return
        angle = float(world.rng.uniform(0, 2 * math.pi))
        for _ in range(count):
            x, y = ring_position(
                world.rng, world.player.x, world.player.y, 30.0, angle + world.rng.normal(0, 0.25)
            )
            world.spawn_enemy(name, x, y, elite=elite, source="wave")
        self.credits -= unit * count


class NullSpawner:
    """Spawns nothing: for tests, sandboxes and scripted scenes where every enemy is placed by hand."""

    def on_wave_start(self, world: World, wave: int) -> None:
        return None

    def update(self, world: World, dt: float) -> None:
        return None
