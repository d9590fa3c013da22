"""Held weapons and how each pattern fires, vectorised like the rest of the simulation.

The player holds up to ``MAX_SLOTS`` weapons, each with a level and its own cooldown. Stat upgrades are the
passives that feed every weapon (damage, fire rate, projectile speed and range; multishot and pierce for
projectile weapons), and a weapon at its max level evolves when the player holds its passive.

Patterns: ``blaster`` (aimed shots), ``spread`` (a fan of short-range pellets), ``missile`` (homing
rockets), all three through the bullet pool; ``orbit`` (blades circling the player), ``lance`` (a beam
along the aim that hits everything on its line) and ``chain`` (a bolt jumping between enemies) deal their
damage directly and leave a short-lived ``Fx`` for the renderer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from game.sim import events as ev
from game.sim.config import PLAYER_BASE, PLAYER_BULLET_RADIUS, PlayerBase
from game.sim.spatial import Grid, overlap_pairs
from game.sim.weapon_data import MAX_SLOTS, STARTING_WEAPON, WeaponCatalogue, WeaponSpec, catalogue

if TYPE_CHECKING:
    from game.sim.player import PlayerInput
    from game.sim.world import World

FX_SECONDS = 0.16
BLASTER_SPACING = 0.13  # radians between blaster shots when multishot adds some
PROJECTILE_PATTERNS = ("blaster", "spread", "missile")
NO_TARGET = -1


@dataclass(frozen=True)
class Fx:
    """A beam or a lightning arc, drawn for a moment: (x0, y0) → (x1, y1)."""

    kind: str  # "lance" | "chain"
    weapon: str
    x0: float
    y0: float
    x1: float
    y1: float
    until: float  # world time it disappears
    width: float


@dataclass(frozen=True)
class Effective:
    """A weapon's numbers at its level under the player's passives."""

    damage: float
    cooldown: float
    count: int
    speed: float
    ttl: float
    pierce: int
    radius: float


def effective(spec: WeaponSpec, level: int, stats: PlayerBase, base: PlayerBase = PLAYER_BASE) -> Effective:
    lv = level - 1
    projectile = spec.pattern in PROJECTILE_PATTERNS
    reach = stats.bullet_ttl / base.bullet_ttl
    return Effective(
        damage=spec.damage * (1.0 + spec.per_level.damage * lv) * (stats.damage / base.damage),
        cooldown=spec.cooldown * spec.per_level.cooldown**lv / (stats.fire_rate / base.fire_rate),
        count=spec.count
        + spec.per_level.count * lv
        + (stats.multishot - base.multishot if projectile else 0),
        speed=spec.speed * (stats.bullet_speed / base.bullet_speed if projectile else 1.0),
        ttl=spec.ttl * reach,
        pierce=spec.pierce + (stats.pierce - base.pierce if projectile else 0),
        radius=spec.radius * (reach if spec.pattern in ("lance", "chain") else 1.0),
    )


def sheet_dps(world: World) -> float:
    """The damage a second the player's weapons deal on paper (every shot landing, pierce counted up to 3
    extra hits): a measure of the build's strength, not of what it hits."""
    stats, cat = world.player.stats, world.arsenal.cat
    total = sum(weapon_dps(effective(cat.get(h.key), h.level, stats)) for h in world.arsenal.held)
    return total * world.params.get("player_damage_mult")


def weapon_dps(eff: Effective) -> float:
    """One weapon's damage a second on paper (every shot landing, pierce counted up to 3 extra hits)."""
    return eff.damage * eff.count * (1 + min(eff.pierce, 3)) / eff.cooldown


@dataclass
class HeldWeapon:
    key: str
    level: int = 1
    timer: float = 0.0
    phase: float = 0.0  # orbit angle


@dataclass
class Arsenal:
    """The weapons the player holds, in slot order."""

    held: list[HeldWeapon] = field(default_factory=lambda: [HeldWeapon(STARTING_WEAPON)])
    cat: WeaponCatalogue = field(default_factory=catalogue)

    @property
    def keys(self) -> list[str]:
        return [h.key for h in self.held]

    def get(self, key: str) -> HeldWeapon | None:
        return next((h for h in self.held if h.key == key), None)

    def level(self, key: str) -> int:
        h = self.get(key)
        return h.level if h else 0

    def can_take(self, key: str) -> bool:
        """A new weapon with a free slot, or a held one below its max level."""
        spec = self.cat.get(key)
        h = self.get(key)
        if h is None:
            evolved_held = spec.evolves_into is not None and self.get(spec.evolves_into) is not None
            return not spec.evolved and not evolved_held and len(self.held) < MAX_SLOTS
        return h.level < spec.max_level

    def take(self, key: str) -> HeldWeapon:
        if not self.can_take(key):
            raise ValueError(f"weapon '{key}' cannot be taken now (slots full or max level)")
        h = self.get(key)
        if h is None:
            h = HeldWeapon(key)
            self.held.append(h)
        else:
            h.level += 1
        return h

    def evolutions_ready(self, passives: dict[str, int]) -> list[tuple[str, str]]:
        """(weapon, evolved weapon) pairs whose weapon is maxed and whose passive is held."""
        out = []
        for h in self.held:
            spec = self.cat.get(h.key)
            if spec.evolves_into and h.level >= spec.max_level and passives.get(spec.evolves_with or "", 0):
                out.append((h.key, spec.evolves_into))
        return out

    def evolve(self, key: str, into: str) -> None:
        h = self.get(key)
        if h is None:
            raise ValueError(f"weapon '{key}' is not held")
        h.key, h.level, h.timer = into, 1, 0.0


# ---------------------------------------------------------------------- firing
def update(world: World, inp: PlayerInput, grid: Grid, dt: float) -> None:
    """Advance every held weapon one tick; fire those whose cooldown ran out."""
    p = world.player
    stats = p.stats
    cat = world.arsenal.cat
    mult = world.params.get("player_damage_mult")
    for h in world.arsenal.held:
        spec = cat.get(h.key)
        eff = effective(spec, h.level, stats)
        h.timer = max(0.0, h.timer - dt)
        if spec.pattern == "orbit":
            h.phase = (h.phase + spec.speed * dt) % (2 * math.pi)
            if h.timer <= 0.0:
                h.timer += eff.cooldown
                _orbit_cut(world, h, spec, eff.damage * mult, eff.count, grid)
            continue
        if not inp.shoot or h.timer > 0.0:
            continue
        h.timer += eff.cooldown
        if spec.pattern in PROJECTILE_PATTERNS:
            _projectiles(world, h.key, spec, eff, eff.damage * mult)
        elif spec.pattern == "lance":
            _lance(world, h.key, spec, eff, eff.damage * mult)
        else:
            _chain(world, h.key, spec, eff, eff.damage * mult)


def blade_positions(world: World, h: HeldWeapon, count: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    a = h.phase + np.arange(count) * (2 * math.pi / count)
    return world.player.x + np.cos(a) * radius, world.player.y + np.sin(a) * radius


def blades(world: World) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(weapon key, xs, ys) of every orbit weapon's blades, for the renderer."""
    out = []
    for h in world.arsenal.held:
        spec = world.arsenal.cat.get(h.key)
        if spec.pattern == "orbit":
            eff = effective(spec, h.level, world.player.stats)
            xs, ys = blade_positions(world, h, eff.count, spec.radius)
            out.append((h.key, xs, ys))
    return out


def hurt_enemies(world: World, idx: np.ndarray, damage: float) -> None:
    """Direct damage (orbit, lance, chain) to the enemies at ``idx``; kills resolve later in the tick."""
    if len(idx) == 0:
        return
    e = world.enemies
    np.subtract.at(e.view("hp"), idx, damage)
    e.view("hit_flash")[idx] = 0.12


def _projectiles(world: World, key: str, spec: WeaponSpec, eff: Effective, damage: float) -> None:
    p = world.player
    n = eff.count
    if spec.pattern == "blaster":
        spacing = spec.arc / max(1, n - 1) if spec.arc else BLASTER_SPACING
        offsets = (np.arange(n) - (n - 1) / 2.0) * spacing
    else:
        offsets = np.linspace(-spec.arc / 2, spec.arc / 2, n) if n > 1 else np.zeros(1)
    angles = p.aim_angle + offsets
    muzzle = p.stats.radius + PLAYER_BULLET_RADIUS
    world.bullets.add(
        n,
        x=p.x + np.cos(angles) * muzzle,
        y=p.y + np.sin(angles) * muzzle,
        vx=np.cos(angles) * eff.speed,
        vy=np.sin(angles) * eff.speed,
        damage=damage,
        ttl=eff.ttl,
        pierce=eff.pierce,
        last_hit=-1,
        weapon=world.arsenal.cat.index[key],
        turn=spec.turn,
        target=NO_TARGET,
    )
    world.stats.shots += n
    world.events.append(ev.ShotFired(n))


def _orbit_cut(world: World, h: HeldWeapon, spec: WeaponSpec, damage: float, count: int, grid: Grid) -> None:
    e = world.enemies
    if e.n == 0:
        return
    bx, by = blade_positions(world, h, count, spec.radius)
    _, ei = overlap_pairs(bx, by, spec.width, grid, e.view("x"), e.view("y"), e.view("radius"))
    hurt_enemies(world, np.unique(ei), damage)


def _lance(world: World, key: str, spec: WeaponSpec, eff: Effective, damage: float) -> None:
    p = world.player
    e = world.enemies
    n = eff.count
    offsets = np.linspace(-spec.arc / 2, spec.arc / 2, n) if n > 1 else np.zeros(1)
    rx, ry = e.view("x") - p.x, e.view("y") - p.y
    reach = e.view("radius") + spec.width
    for off in offsets.tolist():
        a = p.aim_angle + off
        ux, uy = math.cos(a), math.sin(a)
        if e.n:
            along = rx * ux + ry * uy
            across = np.abs(rx * uy - ry * ux)
            hurt_enemies(world, np.nonzero((along > 0) & (along < eff.radius) & (across < reach))[0], damage)
        world.fx.append(
            Fx(
                "lance",
                key,
                p.x,
                p.y,
                p.x + ux * eff.radius,
                p.y + uy * eff.radius,
                world.time + FX_SECONDS,
                spec.width,
            )
        )


def _chain(world: World, key: str, spec: WeaponSpec, eff: Effective, damage: float) -> None:
    """Each fork starts at one of the nearest enemies in range and jumps ``count - 1`` times to the nearest
    enemy not hit yet within ``width``; an enemy is hit once per volley."""
    p = world.player
    e = world.enemies
    if e.n == 0:
        return
    x, y = e.view("x"), e.view("y")
    d2 = (x - p.x) ** 2 + (y - p.y) ** 2
    hit = np.zeros(e.n, dtype=bool)
    jump2 = spec.width * spec.width
    for _ in range(spec.forks):
        masked = np.where(hit, np.inf, d2)
        j = int(np.argmin(masked))
        if masked[j] > eff.radius * eff.radius:
            break
        cx, cy = p.x, p.y
        for _jump in range(eff.count):
            hit[j] = True
            jx, jy = float(x[j]), float(y[j])
            world.fx.append(Fx("chain", key, cx, cy, jx, jy, world.time + FX_SECONDS, 3.0))
            cx, cy = jx, jy
            near = (x - cx) ** 2 + (y - cy) ** 2
            near[hit] = np.inf
            j = int(np.argmin(near))
            if near[j] > jump2:
                break
    hurt_enemies(world, np.nonzero(hit)[0], damage)


# ---------------------------------------------------------------------- missiles
def steer_missiles(world: World, dt: float) -> None:
    """Homing bullets turn toward their target (the nearest enemy when they pick one) by ``turn`` rad/s."""
    b, e = world.bullets, world.enemies
    if b.n == 0 or e.n == 0:
        return
    turn = b.view("turn")
    homing = np.nonzero(turn > 0.0)[0]
    if len(homing) == 0:
        return
    ids = e.view("id")  # ascending: ids grow and pools keep order
    target = b.view("target")
    t = target[homing]
    pos = np.searchsorted(ids, t)
    pos = np.minimum(pos, e.n - 1)
    lost = ids[pos] != t
    if lost.any():
        li = homing[lost]
        bx, by = b.view("x")[li], b.view("y")[li]
        d2 = (bx[:, None] - e.view("x")[None, :]) ** 2 + (by[:, None] - e.view("y")[None, :]) ** 2
        nearest = np.argmin(d2, axis=1)
        target[li] = ids[nearest]
        pos[lost] = nearest
    vx, vy = b.view("vx")[homing], b.view("vy")[homing]
    speed = np.hypot(vx, vy)
    heading = np.arctan2(vy, vx)
    want = np.arctan2(e.view("y")[pos] - b.view("y")[homing], e.view("x")[pos] - b.view("x")[homing])
    diff = (want - heading + math.pi) % (2 * math.pi) - math.pi
    heading += np.clip(diff, -turn[homing] * dt, turn[homing] * dt)
    b.view("vx")[homing] = np.cos(heading) * speed
    b.view("vy")[homing] = np.sin(heading) * speed


def prune_fx(world: World) -> None:
    if world.fx:
        world.fx = [f for f in world.fx if f.until > world.time]
