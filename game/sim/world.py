"""The headless simulation: one ``World`` per run, stepped at a fixed 60 Hz with a seeded RNG.

Same seed + same inputs → same run. Views only read this state; bots and humans drive it through
``PlayerInput``. It never imports arcade.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from game.sim import combat, enemy_ai, enemy_kinds, readout, weapons
from game.sim import events as ev
from game.sim.config import (
    ARENA_H,
    ARENA_W,
    CELL_SIZE,
    DT,
    FINAL_WAVE,
    HIT_CELL_MIN,
    PLAYER_BULLET_RADIUS,
    enemy_hp_scale,
    enemy_speed_scale,
    wave_duration,
    xp_for_level,
)
from game.sim.params import Params
from game.sim.player import IDLE, Player, PlayerInput
from game.sim.pools import FIELDS_BULLET, FIELDS_ENEMY, FIELDS_PICKUP, Pool
from game.sim.prefabs import BEHAVIOUR_CODES, PrefabRegistry
from game.sim.spatial import Grid
from game.sim.spawner import Spawner, WaveSpawner
from game.sim.upgrades import WEAPON_PREFIX, ModUpgrade, roll_choices, stats_for
from game.sim.weapons import Arsenal, Fx

Phase = Literal["playing", "upgrade", "dead", "won"]
RESPAWN_IFRAMES = 2.0
UPGRADE_STREAM = 1  # mixed into the seed for the upgrade offers' own random stream


@dataclass
class RunStats:
    kills: int = 0
    bosses_killed: int = 0
    deaths: int = 0
    damage_taken: float = 0.0
    score: int = 0
    shots: int = 0
    hits: int = 0


@dataclass
class World:
    seed: int = 0
    prefabs: PrefabRegistry = field(default_factory=PrefabRegistry.load)
    spawner: Spawner = field(default_factory=WaveSpawner)
    respawn: bool = False  # evaluation mode: count deaths and keep playing
    available_weapons: frozenset[str] | None = None  # what picks may offer (None: the always-on set)
    final_wave: int | None = FINAL_WAVE  # surviving it wins the run (None: endless, for sandboxes and tests)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        # level-up offers draw from their own stream: a run's upgrade luck is the seed's, whatever spawned
        # or dropped before (static and directed runs of one seed see the same offers)
        self.upgrade_rng = np.random.default_rng((self.seed, UPGRADE_STREAM))
        self.params = Params()
        self.player = Player()
        self.enemies = Pool(FIELDS_ENEMY, 1024)
        self.bullets = Pool(FIELDS_BULLET, 512)
        self.enemy_bullets = Pool(FIELDS_BULLET, 256)
        self.pickups = Pool(FIELDS_PICKUP, 512)
        self.stats = RunStats()
        self.events: list[ev.Event] = []
        self._between: list[ev.Event] = []  # raised between ticks; delivered with the next tick's events
        self._in_step = False
        self.tick = 0
        self.time = 0.0
        self.wave = 0
        self.wave_time_left = 0.0
        self.phase: Phase = "playing"
        self.stacks: dict[str, int] = {}
        self.arsenal = Arsenal()
        if self.available_weapons is None:
            self.available_weapons = self.arsenal.cat.always_available()
        self.mod_upgrades: dict[str, ModUpgrade] = {}
        self.evolutions: list[str] = []  # evolved weapons, in the order they evolved
        self.fx: list[Fx] = []
        self.choices: list[str] = []
        self.pending_picks = 0
        self._next_id = 1
        reg = self.prefabs
        self.kind_score = np.array([reg.by_index(i).score for i in range(len(reg))], dtype=np.int64)
        self.kind_xp = np.array([reg.by_index(i).xp for i in range(len(reg))], dtype=np.float64)
        self.kind_keep_distance = np.array([reg.by_index(i).keep_distance for i in range(len(reg))])
        self.kind_fire_interval = np.array([reg.by_index(i).fire_interval for i in range(len(reg))])
        self.kind_projectile_speed = np.array([reg.by_index(i).projectile_speed for i in range(len(reg))])
        self.kind_dash_speed = np.array([reg.by_index(i).dash_speed for i in range(len(reg))])
        self.kind_blast_radius = np.array([reg.by_index(i).blast_radius for i in range(len(reg))])
        self.kind_recoil = np.array([reg.by_index(i).recoil for i in range(len(reg))])
        self.kind_boss = np.array([reg.by_index(i).is_boss for i in range(len(reg))])
        self.kind_splits = np.array([reg.by_index(i).split_count > 0 for i in range(len(reg))])
        # crowd separation groups enemies by cells as large as the biggest enemy; collisions use cells sized
        # for the regular (non-boss) enemies and bullets, and test anything bigger directly (game.sim.spatial)
        self.crowd_cell = max(CELL_SIZE, 1.25 * max(reg.by_index(i).radius for i in range(len(reg))) + 8.0)
        regular = [reg.get(n).radius for n in reg.regular] or [reg.by_index(0).radius]
        self._cell = max(HIT_CELL_MIN, 1.25 * max(regular) + PLAYER_BULLET_RADIUS + 2.0)
        self.start_wave(1)

    # ------------------------------------------------------------------ the tick
    def step(self, inp: PlayerInput = IDLE) -> list[ev.Event]:
        """Advance one fixed tick; returns this tick's events (also kept in ``self.events``)."""
        self.events, self._between = self._between, []
        if self.phase != "playing":
            return self.events
        self._in_step = True
        try:
            self._tick(inp)
        finally:
            self._in_step = False
        return self.events

    def emit(self, event: ev.Event) -> None:
        """Record an event: in this tick's list during a step, else in the next tick's."""
        (self.events if self._in_step else self._between).append(event)

    def _tick(self, inp: PlayerInput) -> None:
        self.tick += 1
        self.time += DT
        p = self.player
        if p.move(inp, DT, self.params.get("player_speed_mult")):
            self.events.append(ev.Dashed())
        if p.stats.regen:
            p.heal(p.stats.regen * DT)
        self.spawner.update(self, DT)
        dx, dy, dist = enemy_ai.move_enemies(self, DT)
        enemy_kinds.detonate(self, dist, DT)
        if len(dist) != self.enemies.n:  # an exploder went off: distances for those left
            dx, dy, dist = enemy_ai.to_player(self)
        enemy_ai.separate(self, DT)
        enemy_ai.keep_off_player(self)  # those it moves still touch: ``dist`` stays right for contact hits
        grid = Grid(self.enemies.view("x"), self.enemies.view("y"), self._cell)
        weapons.prune_fx(self)
        weapons.update(self, inp, grid, DT)
        enemy_ai.enemy_attacks(self, dx, dy, dist, DT)
        weapons.steer_missiles(self, DT)
        combat.move_bullets(self, DT)
        combat.bullets_hit_enemies(self, grid)
        combat.damage_player(self, dist)
        combat.resolve_kills(self)
        combat.collect_pickups(self, DT)
        if p.hp <= 0.0:
            self._player_died()
        self.wave_time_left -= DT
        if self.phase == "playing" and self.wave_time_left <= 0.0:
            self._end_wave()

    def fire_enemy_bullets(
        self, x: np.ndarray, y: np.ndarray, vx: np.ndarray, vy: np.ndarray, damage: np.ndarray
    ) -> None:
        self.enemy_bullets.add(len(x), x=x, y=y, vx=vx, vy=vy, damage=damage, ttl=4.0, pierce=0, last_hit=-1)

    def hurt_player(self, amount: float, source: str) -> None:
        p = self.player
        if amount <= 0 or p.invulnerable or not p.alive:
            return
        p.hp -= amount
        p.iframes = p.stats.hit_iframes
        self.stats.damage_taken += amount
        self.emit(ev.PlayerDamaged(amount, max(0.0, p.hp), source))

    def _player_died(self) -> None:
        self.stats.deaths += 1
        self.events.append(ev.PlayerDied(self.time, self.wave))
        if self.respawn:
            p = self.player
            p.hp = p.stats.max_hp
            p.iframes = RESPAWN_IFRAMES
            near = np.hypot(self.enemies.view("x") - p.x, self.enemies.view("y") - p.y) < 300.0
            self.enemies.keep(~near)
            self.enemy_bullets.clear()
        else:
            self.player.alive = False
            self.player.hp = 0.0
            self.phase = "dead"

    # ------------------------------------------------------------------ waves and upgrades
    def start_wave(self, wave: int) -> None:
        self.wave = wave
        self.wave_time_left = wave_duration(wave)
        self.phase = "playing"
        self.emit(ev.WaveStarted(wave, self.wave_time_left))
        self.spawner.on_wave_start(self, wave)

    def _end_wave(self) -> None:
        self.events.append(ev.WaveEnded(self.wave))
        if self.final_wave is not None and self.wave >= self.final_wave:
            self.enemy_bullets.clear()
            self.phase = "won"
            self.events.append(ev.RunWon(self.time, self.wave))
            return
        self.pending_picks += 1
        self.enemy_bullets.clear()
        self.phase = "upgrade"
        self.choices = self._roll()

    def choose_upgrade(self, key: str) -> None:
        """Take one of the offered upgrades; the next wave starts once no picks are pending."""
        if self.phase != "upgrade":
            raise ValueError("no upgrade pick is open")
        if key not in self.choices:
            raise ValueError(f"'{key}' is not among the offered upgrades {self.choices}")
        if key.startswith(WEAPON_PREFIX):
            held = self.arsenal.take(key[len(WEAPON_PREFIX) :])
            self.emit(ev.WeaponGained(held.key, held.level))
        else:
            self.stacks[key] = self.stacks.get(key, 0) + 1
            self._restat()
            if key == "max_hp":
                self.player.heal(25.0)
        for weapon, evolved in self.arsenal.evolutions_ready(self.stacks):
            self.arsenal.evolve(weapon, evolved)
            self.evolutions.append(evolved)
            self.emit(ev.WeaponEvolved(weapon, evolved))
        self.pending_picks -= 1
        if self.pending_picks > 0:
            self.choices = self._roll()
        else:
            self.choices = []
            self.start_wave(self.wave + 1)

    def _roll(self) -> list[str]:
        return roll_choices(
            self.upgrade_rng,
            self.stacks,
            arsenal=self.arsenal,
            available=self.available_weapons,
            extra=self.mod_upgrades,
        )

    def _restat(self) -> None:
        old_max = self.player.stats.max_hp
        self.player.stats = stats_for(self.stacks, extra=self.mod_upgrades)
        self._apply_max_hp_param(old_max)

    def register_upgrade(self, upgrade: ModUpgrade) -> None:
        """A mod's passive joins this run's upgrade offers (from the next roll on)."""
        self.mod_upgrades[upgrade.key] = upgrade
        if self.stacks.get(upgrade.key):
            self._restat()

    def _apply_max_hp_param(self, old_max: float) -> None:
        """Scale max HP by ``player_max_hp_mult``. The rule: a max-HP change never adds current HP (healing
        is always explicit, e.g. Vitality's "heal 25"); a lower max clamps it. So toggling a mod that halves
        max HP (glass_cannon) off and on cannot heal the player."""
        from dataclasses import replace

        p = self.player
        p.stats = replace(p.stats, max_hp=p.stats.max_hp * self.params.get("player_max_hp_mult"))
        p.hp = min(p.hp, p.stats.max_hp)

    def set_param(self, name: str, value: float) -> float:
        old_max = self.player.stats.max_hp
        applied = self.params.set(name, value)
        if name == "player_max_hp_mult":
            self.player.stats = stats_for(self.stacks, extra=self.mod_upgrades)
            self._apply_max_hp_param(old_max)
        return applied

    def gain_xp(self, amount: float) -> None:
        p = self.player
        # whole points now, the fraction carried: rounding each pickup lost every 1-point gem under 0.5x
        total = amount * self.params.get("xp_mult") + p.xp_carry
        whole = int(total + 1e-9)
        p.xp_carry = max(0.0, total - whole)
        p.xp += whole
        self.stats.score += int(amount)
        while p.xp >= xp_for_level(p.level):
            p.xp -= xp_for_level(p.level)
            p.level += 1
            self.pending_picks += 1  # a level-up banks an extra pick for the next upgrade screen
            self.emit(ev.LevelUp(p.level))

    # ------------------------------------------------------------------ world commands (prefab whitelist)
    def boss_alive(self) -> bool:
        """Whether any boss prefab is alive."""
        en = self.enemies
        return bool(en.n) and bool(np.isin(en.view("kind"), self.prefabs.boss_kinds).any())

    def spawn_enemy(
        self, prefab: str, x: float, y: float, *, elite: bool = False, source: ev.SpawnCause = "world"
    ) -> int:
        pf = self.prefabs.get(prefab)  # raises UnknownPrefabError naming the allowed ones
        kind = self.prefabs.index(prefab)
        scale = 3.0 if elite else 1.0
        r = pf.radius * (1.25 if elite else 1.0)
        x = min(ARENA_W - r, max(r, float(x)))
        y = min(ARENA_H - r, max(r, float(y)))
        hp = pf.hp * scale * self.params.get("enemy_hp_mult") * enemy_hp_scale(max(1, self.wave))
        eid = self._next_id
        self._next_id += 1
        self.enemies.add(
            1,
            id=eid,
            kind=kind,
            behaviour=BEHAVIOUR_CODES[pf.behaviour],
            x=x,
            y=y,
            hp=hp,
            max_hp=hp,
            speed=pf.speed * (1.1 if elite else 1.0) * enemy_speed_scale(max(1, self.wave)),
            damage=pf.damage * (1.5 if elite else 1.0),
            radius=r,
            elite=elite,
            cooldown=pf.fire_interval * float(self.rng.uniform(0.5, 1.0)),
            pattern=0,
            charge=0.0,
        )
        self.emit(ev.EnemySpawned(eid, prefab, x, y, elite, source))
        return eid

    def _index_of(self, entity_id: int) -> int | None:
        hits = np.nonzero(self.enemies.view("id") == entity_id)[0]
        return int(hits[0]) if len(hits) else None

    def move_enemy(self, entity_id: int, x: float, y: float) -> bool:
        i = self._index_of(entity_id)
        if i is None:
            return False
        r = float(self.enemies.radius[i])
        self.enemies.x[i] = min(ARENA_W - r, max(r, float(x)))
        self.enemies.y[i] = min(ARENA_H - r, max(r, float(y)))
        return True

    def destroy_enemy(self, entity_id: int) -> bool:
        i = self._index_of(entity_id)
        if i is None:
            return False
        keep = np.ones(self.enemies.n, dtype=bool)
        keep[i] = False
        self.emit(ev.EnemyRemoved(entity_id, self.prefabs.names[int(self.enemies.kind[i])]))
        self.enemies.keep(keep)
        return True

    def list_enemies(self, limit: int = 50) -> list[dict[str, Any]]:
        """The ``limit`` nearest enemies, nearest first, JSON-able (``game.sim.readout``)."""
        return readout.enemy_list(self, limit)

    # ------------------------------------------------------------------ read-only views
    @property
    def alive(self) -> bool:
        return self.phase != "dead"

    @property
    def over(self) -> bool:
        """The run has ended: lost (dead) or won (the final wave survived)."""
        return self.phase in ("dead", "won")

    @property
    def won(self) -> bool:
        return self.phase == "won"

    def nearest_enemy_distance(self) -> float:
        if self.enemies.n == 0:
            return math.inf
        return float(
            np.hypot(self.enemies.view("x") - self.player.x, self.enemies.view("y") - self.player.y).min()
        )

    def game_state(self) -> dict[str, Any]:
        """A compact, JSON-able snapshot for mods, agents and MCP (``game.sim.readout``)."""
        return readout.game_state(self)
