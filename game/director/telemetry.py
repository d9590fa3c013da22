"""Telemetry: what the director knows about the player, sampled on the main thread once per tick.

``Telemetry.update(world)`` folds the tick's events into fixed-size ring buffers of quarter-second buckets
(damage, kills, kills near the player, shots, hits, spawns, deaths), so the per-tick cost is constant however
long the run. Once a second it also feeds the online skill estimate (``skill.py``).
``Telemetry.snapshot(world)`` digests them into a ``GameSessionSnapshot``: the compact, JSON-able situation
the rules policy, the LLM sources, the trajectory and the decision suite all share.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from game.director.skill import SkillEstimator, signals
from game.director.tuning import TUNING
from game.sim import events as ev
from game.sim.config import DT, TICK_HZ
from game.sim.view import boss_in_view
from game.sim.world import World

BUCKET_TICKS = TICK_HZ // 4  # one bucket = 0.25 s of game time
BUCKETS_PER_S = TICK_HZ // BUCKET_TICKS
WINDOW_S = 60  # the longest window kept
N_BUCKETS = WINDOW_S * BUCKETS_PER_S
NEAR_RADIUS = 300.0  # "enemies near the player" in the snapshot
NEVER = 999.0  # seconds-since value for "has not happened"
_DAMAGE, _KILLS, _NEAR_KILLS, _SHOTS, _HITS, _SPAWNS, _DEATHS = range(7)
_ROWS = 7
SKILL_EVERY_TICKS = TICK_HZ  # the skill estimate is refreshed once a second


class GameSessionSnapshot(BaseModel):
    """The player's situation at one moment. Damage windows are fractions of max HP (1.0 = a full bar)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    time: float = Field(0.0, ge=0, description="game time in seconds")
    tick: int = Field(0, ge=0)
    wave: int = Field(1, ge=0)
    wave_time_left: float = Field(0.0, ge=0)
    level: int = Field(1, ge=1)
    hp_fraction: float = Field(1.0, ge=0, le=1)
    max_hp: float = Field(100.0, gt=0)
    deaths: int = Field(0, ge=0)
    seconds_since_death: float = Field(NEVER, ge=0, description=f"{NEVER:g} = never died")
    seconds_since_low: float = Field(0.0, ge=0, description="since HP was last in real danger (or the start)")
    damage_5s: float = Field(0.0, ge=0)
    damage_15s: float = Field(0.0, ge=0)
    damage_30s: float = Field(0.0, ge=0)
    damage_60s: float = Field(0.0, ge=0)
    deaths_60s: int = Field(0, ge=0, description="deaths in the last 60 s")
    kills_per_min: float = Field(0.0, ge=0)
    accuracy: float = Field(0.0, ge=0, le=1, description="hits / shots over the last 60 s")
    enemies_alive: int = Field(0, ge=0)
    enemies_near: int = Field(0, ge=0, description=f"within {NEAR_RADIUS:g} px")
    elites_alive: int = Field(0, ge=0)
    boss_alive: bool = False
    boss_in_view: bool = False  # ... and in view or about to enter it: the player is in a boss fight
    seconds_since_hit: float = Field(NEVER, ge=0, description=f"{NEVER:g} = never hit")
    upgrades: int = Field(0, ge=0)
    player_dps: float = Field(0.0, ge=0, description="estimated damage per second the player deals")
    spawned_per_min: float = Field(0.0, ge=0, description="enemies spawned per minute, last 60 s")
    skill: float = Field(0.5, ge=0, le=1, description="online skill estimate, 0..1 (0.5 = average)")


class Telemetry:
    """Ring-buffered per-tick accounting; ``engaged`` and ``hp_fraction`` are refreshed every tick."""

    def __init__(self, low_mark: float = 0.4) -> None:
        self.low_mark = low_mark  # HP share under which the player was last "in real danger"
        self.last_low_time = 0.0  # game time the HP was last under ``low_mark`` (the run's start if never)
        self._buckets = np.zeros((_ROWS, N_BUCKETS), dtype=np.float64)
        self._cursor = 0
        self._ticks_in_bucket = 0
        self._filled = 1  # buckets that hold data (for windows longer than the run so far)
        self.last_hit_time: float | None = None
        self.last_death_time: float | None = None
        self.engaged = False
        self.died = False  # the player died this tick
        self.hp_fraction = 1.0
        self.max_hp = 100.0
        self.skill = SkillEstimator()
        self._ticks = 0
        self.shots_total = 0  # shots the player fired this run
        self.kills_per_min = 0.0  # over the last minute, refreshed once a second
        self.pressure = 1.0  # the director's pressure knob (1 under static difficulty), for the skill signals

    def update(self, world: World, events: Iterable[ev.Event] | None = None) -> None:
        """Fold this tick's events (default ``world.events``) in; once per simulation tick, after the step."""
        col = self._buckets[:, self._cursor]
        self.died = False
        for e in world.events if events is None else events:
            if isinstance(e, ev.PlayerDamaged):
                col[_DAMAGE] += e.amount
                self.last_hit_time = world.time
            elif isinstance(e, ev.EnemyKilled):
                col[_KILLS] += 1
                if e.near_player:
                    col[_NEAR_KILLS] += 1
            elif isinstance(e, ev.ShotFired):
                col[_SHOTS] += e.count
                self.shots_total += e.count
            elif isinstance(e, ev.EnemyHit):
                col[_HITS] += e.count
            elif isinstance(e, ev.EnemySpawned):
                col[_SPAWNS] += 1
            elif isinstance(e, ev.PlayerDied):
                col[_DEATHS] += 1
                self.last_death_time = world.time
                self.died = True
                self.skill.on_death()
        p = world.player
        self.max_hp = p.stats.max_hp
        self.hp_fraction = p.hp_fraction
        if self.hp_fraction < self.low_mark:
            self.last_low_time = world.time
        en = world.enemies  # (empty views when there are none: not engaged)
        dx, dy = en.view("x") - p.x, en.view("y") - p.y
        r = TUNING.intensity.engage_radius + en.view("radius")
        self.engaged = bool(((dx * dx + dy * dy) < r * r).any())
        self._ticks += 1
        if self._ticks % SKILL_EVERY_TICKS == 0:
            self._update_skill(world.time)
        self._ticks_in_bucket += 1
        if self._ticks_in_bucket >= BUCKET_TICKS:
            self._ticks_in_bucket = 0
            self._cursor = (self._cursor + 1) % N_BUCKETS
            self._buckets[:, self._cursor] = 0.0
            self._filled = min(N_BUCKETS, self._filled + 1)

    def _update_skill(self, now: float) -> None:
        self.kills_per_min = self._per_min(_KILLS)
        sig = signals(
            kills=self.window_sum(_KILLS, WINDOW_S),
            spawned=self.window_sum(_SPAWNS, WINDOW_S),
            damage_bars=self.window_sum(_DAMAGE, WINDOW_S) / max(1.0, self.max_hp),
            minutes=self._covered_s(WINDOW_S) / 60.0,
            accuracy=self._accuracy(),
            alive_s=now - (self.last_death_time or 0.0),
            pressure=self.pressure,
        )
        self.skill.update(sig, SKILL_EVERY_TICKS * DT, now)

    def window_sum(self, row: int, seconds: float) -> float:
        """One counter summed over the last ``seconds`` (quarter-second buckets, the current one included)."""
        k = min(self._filled, max(1, round(seconds * BUCKETS_PER_S)))
        idx = (self._cursor - np.arange(k)) % N_BUCKETS
        return float(self._buckets[row, idx].sum())

    def damage_fraction(self, seconds: float) -> float:
        """Max-HP bars lost in the last ``seconds``."""
        return self.window_sum(_DAMAGE, seconds) / max(1.0, self.max_hp)

    def _covered_s(self, seconds: float) -> float:
        return max(DT, min(seconds, (self._filled - 1) / BUCKETS_PER_S + self._ticks_in_bucket * DT))

    def _per_min(self, row: int) -> float:
        """One counter's rate per minute over the last ``WINDOW_S`` (or the run so far)."""
        return self.window_sum(row, WINDOW_S) * 60.0 / self._covered_s(WINDOW_S)

    def _accuracy(self) -> float:
        """Hits / shots over the last ``WINDOW_S``; 0 before a shot."""
        shots = self.window_sum(_SHOTS, WINDOW_S)
        return min(1.0, self.window_sum(_HITS, WINDOW_S) / shots) if shots else 0.0

    def snapshot(self, world: World) -> GameSessionSnapshot:
        p = world.player
        max_hp = p.stats.max_hp
        en = world.enemies
        now = world.time
        d2 = (en.view("x") - p.x) ** 2 + (en.view("y") - p.y) ** 2
        near = int((d2 < NEAR_RADIUS * NEAR_RADIUS).sum())
        elites = int(en.view("elite").sum())
        accuracy = self._accuracy()
        s = p.stats
        dps = s.damage * world.params.get("player_damage_mult") * s.fire_rate * s.multishot
        dps *= accuracy if self.window_sum(_SHOTS, WINDOW_S) else 0.5
        return GameSessionSnapshot(
            time=round(now, 3),
            tick=world.tick,
            wave=world.wave,
            wave_time_left=round(max(0.0, world.wave_time_left), 2),
            level=p.level,
            hp_fraction=round(min(1.0, p.hp_fraction), 4),
            max_hp=round(max_hp, 2),
            deaths=world.stats.deaths,
            seconds_since_death=_since(now, self.last_death_time),
            seconds_since_low=round(max(0.0, now - self.last_low_time), 2),
            damage_5s=round(self.window_sum(_DAMAGE, 5) / max_hp, 4),
            damage_15s=round(self.window_sum(_DAMAGE, 15) / max_hp, 4),
            damage_30s=round(self.window_sum(_DAMAGE, 30) / max_hp, 4),
            damage_60s=round(self.window_sum(_DAMAGE, 60) / max_hp, 4),
            deaths_60s=int(self.window_sum(_DEATHS, 60)),
            kills_per_min=round(self._per_min(_KILLS), 2),
            accuracy=round(accuracy, 4),
            enemies_alive=en.n,
            enemies_near=near,
            elites_alive=elites,
            boss_alive=world.boss_alive(),
            boss_in_view=boss_in_view(world),
            seconds_since_hit=_since(now, self.last_hit_time),
            upgrades=sum(world.stacks.values()),
            player_dps=round(dps, 2),
            spawned_per_min=round(self._per_min(_SPAWNS), 2),
            skill=round(min(1.0, max(0.0, self.skill.value)), 4),
        )


def _since(now: float, then: float | None) -> float:
    if then is None:
        return NEVER
    return round(min(NEVER, max(0.0, now - then)), 3)
