"""Act: the one place that writes what the player meets. Each tick the director hands it the read, the knobs
the last plan set and the reflexes' adjustments; it writes the spawner's limits (crowd, presence floor,
prey, hold) and the world's player-facing multipliers (enemy damage and speed, health drops), and carries
out a rescue's shove and supply. Nothing else writes them.

**Presence** (how many enemies the player sees) and **danger** (how much they hurt) are separate:

- The presence floor is ``[presence] view_kill_s`` of the player's kill pace, between ``floor_min`` and
  ``floor_max``; Peak Fade and Relax keep ``[pacing] relax_income`` of it, the share of the bank's income a
  Relax lets through: a calmer stretch, never an empty one. HP never gates it. The crowd is
  capped at what the player clears (``spawner.crowd_max_for``).
- Danger is the plan's ``danger`` knob, limited by HP: full at ``[danger] hp_full`` and above, falling
  linearly to ``low_factor`` of it at ``hp_low``; times each reflex's factor. Above 1 it is held to
  ``hit_cap``: no escalation makes one hit of the hardest hitter alive a falling bar on its own.
  Enemy speed follows the knob ``speed_share`` of the way. Under ``prey_hp`` the floor brings the weakest
  prey and health drops are ``prey_pickup`` times as likely: a way back up that is still something to
  fight.

While a boss is in view (a fight the player is in) the bank gets ``[pacing] boss_income`` of its income:
the boss is the peak, as Left 4 Dead's Tank is. New enemies (not the boss) get ``hp_match``: a build that
outgrew its wave (``[power]``) meets enemies that live long enough to reach it; a build under ``boss_par``
meets a boss sized to it.

A multiplier is composed with whatever a mod or the console set: the director's factor times their value,
clamped to the param's range; a change of theirs becomes the new base.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from game.director.events import EventRegistry
from game.director.pacing import PacingState, income
from game.director.plan import DirectorKnobs
from game.director.read import PlayerRead
from game.director.reflexes import Adjustment
from game.director.tuning import TUNING, Tuning
from game.sim import events as ev
from game.sim.config import ARENA_H, ARENA_W, PLAYER_BASE, enemy_hp_scale
from game.sim.spawner import LIVE_CAP, CreditSpawner, Limits
from game.sim.weapon_data import STARTING_WEAPON
from game.sim.weapons import effective, sheet_dps, weapon_dps
from game.sim.world import World

SUPPLY_EVENT = "supply"
WHY_SHOWN_S = 4.0  # F10 keeps showing a reflex (a rescue acts in one tick) this long after it acted
SHOVE_WALL = 30.0  # a shoved enemy stays this far inside the arena walls


@dataclass(frozen=True)
class Acted:
    """What the act stage has in force (F10, tests)."""

    danger: float = 1.0  # the enemy damage factor applied
    speed: float = 1.0
    pickup: float = 1.0
    limits: Limits = field(default_factory=Limits)
    why: str = ""  # the reflexes in force
    hp_match: float = 1.0  # new enemies' HP factor for the build's power ([power])


def hp_limit(hp: float, t: Tuning) -> float:
    """How much of the plan's danger HP allows: 1 at ``hp_full`` and above, ``low_factor`` at ``hp_low``."""
    d = t.danger
    if hp >= d.hp_full:
        return 1.0
    share = max(0.0, (hp - d.hp_low) / (d.hp_full - d.hp_low))
    return d.low_factor + (1.0 - d.low_factor) * share


def hit_cap(world: World, t: Tuning) -> float:
    """How far danger above 1 may scale hits now: until the hardest hitter alive would take ``[read]
    fall_bars`` of a bar in one hit (one hit alone would make the bar fall). Never under 1: hits as
    authored stay, only the escalation's extra is held back."""
    en = world.enemies
    if not en.n:
        return math.inf
    return max(1.0, t.read.fall_bars * world.player.stats.max_hp / max(1e-9, float(en.view("damage").max())))


def hp_match(world: World, t: Tuning) -> tuple[float, float]:
    """How much tougher new enemies are for this build, and how much of its authored HP a boss gets: the
    build's power (damage a second on paper over a wave-1 blaster's, over the wave's designed enemy
    toughness) past ``[power] par``, and under ``boss_par``, to the power ``follow``. A build that outgrew
    the wave still kills faster, but enemies live long enough to reach it; a boss is a peak, not a wall."""
    start = weapon_dps(effective(world.arsenal.cat.get(STARTING_WEAPON), 1, PLAYER_BASE))
    power, p = sheet_dps(world) / (start * enemy_hp_scale(max(1, world.wave))), t.power
    return max(1.0, power / p.par) ** p.follow, min(1.0, power / p.boss_par) ** p.follow


def crowd_max_for(kills_per_min: float, t: Tuning = TUNING) -> int:
    """How many enemies may be alive for a player who kills ``kills_per_min``: the crowd it clears."""
    return min(LIVE_CAP, int(t.bank.crowd_min + kills_per_min * t.bank.crowd_clear_s / 60.0))


def presence_floor(read: PlayerRead, t: Tuning) -> int:
    p = t.presence
    calm = read.pacing in (PacingState.PEAK_FADE, PacingState.RELAX)
    floor = read.kill_pace / 60.0 * p.view_kill_s * (t.pacing.relax_income if calm else 1.0)
    return min(p.floor_max, max(p.floor_min, round(floor)))


class Actuator:
    def __init__(self, tuning: Tuning) -> None:
        self.t = tuning
        self._base: dict[str, float] = {}
        self._set: dict[str, float] = {}
        self.state = Acted()
        self._why, self._why_at = "", -1e9  # the last reflex that acted, and when (F10)

    def act(
        self,
        world: World,
        read: PlayerRead,
        knobs: DirectorKnobs,
        adjustments: list[Adjustment],
        spawner: CreditSpawner,
        events: EventRegistry,
    ) -> Acted:
        t = self.t
        danger = min(knobs.danger, hit_cap(world, t)) * hp_limit(read.hp, t)
        for adj in adjustments:
            danger *= adj.danger
        speed = 1.0 + t.danger.speed_share * (knobs.danger - 1.0)
        prey = read.hp < t.danger.prey_hp
        pickup = knobs.pickup_rate * (t.danger.prey_pickup if prey else 1.0)
        crowd_max, floor = crowd_max_for(read.kill_pace, t), presence_floor(read, t)
        hold = any(a.hold for a in adjustments)
        limits = Limits(crowd_max=crowd_max, floor=floor, present=read.present, prey=prey, hold=hold)
        spawner.limits = limits
        spawner.income_share = income(read.pacing, t.pacing) * (
            t.pacing.boss_income if read.boss_in_view else 1.0
        )
        spawner.hp_match, spawner.boss_match = hp_match(world, t)
        self._compose(world, "enemy_damage_mult", danger)
        self._compose(world, "enemy_speed_mult", speed)
        self._compose(world, "pickup_rate_mult", pickup)
        for adj in adjustments:
            if adj.shove:
                self._shove(world, np.array(adj.shove, dtype=np.int64))
            if adj.supply and SUPPLY_EVENT in events.names():  # the reflex keeps its own cooldown
                events.fire(SUPPLY_EVENT, world, spawner.placer)
        why = "  ".join(a.why for a in adjustments if a.why)
        if why:
            self._why, self._why_at = why, read.time
        elif read.time - self._why_at < WHY_SHOWN_S:  # a one-tick reflex stays readable on F10
            why = f"{self._why} ({read.time - self._why_at:.0f}s ago)"
        self.state = Acted(
            round(danger, 4), round(speed, 4), round(pickup, 4), limits, why, round(spawner.hp_match, 2)
        )
        return self.state

    def off(self, world: World, spawner: CreditSpawner) -> None:
        """Static difficulty: every multiplier back to its base, no limits."""
        for name in ("enemy_damage_mult", "enemy_speed_mult", "pickup_rate_mult"):
            self._compose(world, name, 1.0)
        spawner.limits = Limits()
        spawner.hp_match = spawner.boss_match = 1.0
        self.state = Acted()

    def _compose(self, world: World, name: str, factor: float) -> None:
        current = world.params.get(name)
        if name not in self._set or current != self._set[name]:  # first touch, or a mod / the console
            self._base[name] = current  # changed it: their value is the base
        value = world.params.clamp(name, self._base[name] * factor)
        if value != current:
            self._set[name] = world.set_param(name, value)
        else:
            self._set[name] = current

    def _shove(self, world: World, rows: np.ndarray) -> None:
        """Push ``rows`` out to ``[rescue] shove_to`` px and clear enemy shots within ``radius``."""
        t = self.t.rescue
        en, p = world.enemies, world.player
        rows = rows[rows < en.n]
        if len(rows):
            xs, ys = en.view("x"), en.view("y")
            dx, dy = xs[rows] - p.x, ys[rows] - p.y
            d = np.hypot(dx, dy)
            # an enemy right on the player goes a way of its own (spread round the circle), not all one way
            angle = np.where(d > 1e-6, np.arctan2(dy, dx), np.linspace(0.0, 2 * np.pi, len(rows)))
            xs[rows] = np.clip(p.x + np.cos(angle) * t.shove_to, SHOVE_WALL, ARENA_W - SHOVE_WALL)
            ys[rows] = np.clip(p.y + np.sin(angle) * t.shove_to, SHOVE_WALL, ARENA_H - SHOVE_WALL)
        eb = world.enemy_bullets
        if eb.n:
            near = np.hypot(eb.view("x") - p.x, eb.view("y") - p.y) < t.radius
            if near.any():
                eb.keep(~near)
        world.emit(ev.Rescued(p.x, p.y, t.radius, len(rows)))
