"""The director's spawner: a Risk of Rain 2 style credit budget spent on weighted spawn cards.

Credits per second = base × difficulty coefficient (grows with the wave, the same curve as the static
``WaveSpawner``) × the pacing state's multiplier (``pacing.CREDIT_MULT``) × the plan's pressure knob × the
world's ``spawn_rate_mult``. Each group is one card: prefab, cost, weight (the plan's mix knob), first wave.
Elites cost ``ELITE_COST_MULT`` times the card.

Levers past the income multiplier: above pressure 1 groups come faster and bigger (``group_interval``,
``max_group``) and from every side (``SURROUND_*``), so a high pressure knob buys more than the base group
rate could spend; the ``toughness`` knob multiplies the HP of what it spawns (and a little of its speed), the
lever that adds threat without adding kills; the ``tier`` knob reads the cards and the credit curve that many
waves ahead (tougher prefabs sooner, more credits). Easing: below pressure 1 the live cap shrinks with
pressure (``live_cap_for``), so eased pressure never leaves a first-time player facing dozens of enemies at
once.

A Build Up that follows a Relax starts with ``BUILD_UP_BURST_S`` seconds of income at once (past the bank
cap), so the next mob is on its way when the rest ends instead of trickling in while the player idles.

Variety: the same prefab fills at most ``VARIETY_RUN`` groups in a row while another card is affordable, and
a card so cheap that a full group would barely dent the bank is skipped when a pricier one is affordable.
Boss waves bring the boss, as in static mode, unless the plans have eased pressure below
``BOSS_MIN_PRESSURE`` (a plan may still call the ``boss`` event); while a boss is alive the crowd beside it
is held to ``BOSS_CROWD_SHARE`` of the caps. Positions are just off-screen, biased to the player's rear and
flanks relative to where they move (or aim, when standing still).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from game.director.knobs import MIX_WEIGHT
from game.director.pacing import CREDIT_MULT, PacingState
from game.director.plan import DirectorKnobs
from game.sim.config import ARENA_H, ARENA_W, BOSS_EVERY, SCREEN_H, SCREEN_W
from game.sim.world import World

BASE_CREDITS_PER_S = 1.45
GROWTH_PER_WAVE = 0.45
ELITE_COST_MULT = 3.0
LIVE_CAP = 220
MAX_GROUP = 6
MIN_GROUP = 2
GROUP_INTERVAL_S = 0.5
GROUP_RATE_EXP = 0.8  # group interval = GROUP_INTERVAL_S / pressure ** this (pressure above 1)
GROUP_SIZE_PER_PRESSURE = 2.0  # extra enemies per group per unit of pressure above 1 ...
MAX_GROUP_CAP = 10  # ... up to this
LIVE_CAP_BASE = 8  # live cap at pressure 0 ...
LIVE_CAP_PER_PRESSURE2 = 30  # ... plus this times pressure squared (never above LIVE_CAP): 38 at 1, 128 at 2
# The crowd cap: never more alive than the player kills in CROWD_CLEAR_S (at its kill rate of the last
# minute) plus CROWD_MIN. Past it, pressure stops buying bodies that pile up, unkilled, until they close in.
CROWD_MIN = 30
CROWD_CLEAR_S = 25.0
VARIETY_RUN = 2
TOUGH_SPEED_PER_X = 0.05  # toughness 2 also makes director spawns 5% faster
TOO_CHEAP_GROUPS = 2.0  # a card is "too cheap" when the bank holds this many full groups of it
BUILD_UP_BURST_S = 4.0  # a Build Up after a Relax starts with this many seconds of income at once
DRAW_WAIT_S = 3.0  # below pressure 1, a group is sized to the bank plus this many seconds of income
BANK_MAX_S = 20.0  # the bank never holds more than this many seconds of build-up income
BOSS_CROWD_SHARE = 0.5  # while a boss is alive the crowd may fill only this share of the caps (L4D holds its
# mobs back while a Tank is up): the strong bot died twice in boss fights at pressure 3 with 60+ adds
BOSS_MIN_PRESSURE = 0.6  # a boss wave's boss stays home while the director has eased pressure below this
SPAWN_MARGIN = 30.0  # keep spawns this far inside the arena walls
OFFSCREEN_MARGIN = 60.0  # spawn at least this far past the screen edge
OFFSCREEN_DEPTH = 160.0  # plus up to this much, so a group arrives spread out
# Where groups come from, relative to the player's heading: rear, left flank, right flank, front.
SIDE_OFFSETS = (math.pi, math.pi / 2, -math.pi / 2, 0.0)
SIDE_WEIGHTS = np.array([0.4, 0.25, 0.25, 0.1])
SIDE_SPREAD = 0.35  # radians of jitter around the chosen side
SURROUND_FROM, SURROUND_FULL = 1.0, 2.5  # between these pressures the sides blend to uniform (surrounded)


@dataclass(frozen=True)
class SpawnCard:
    prefab: str
    cost: float
    weight: float
    first_wave: int


class SpawnPlacer:
    """Tracks the player's heading and picks off-screen points on their rear and flanks."""

    def __init__(self) -> None:
        self.heading = 0.0
        self._last: tuple[float, float] | None = None

    def observe(self, world: World) -> None:
        p = world.player
        if self._last is not None:
            dx, dy = p.x - self._last[0], p.y - self._last[1]
            self.heading = math.atan2(dy, dx) if dx * dx + dy * dy > 0.25 else p.aim_angle
        self._last = (p.x, p.y)

    def side_angle(self, rng: np.random.Generator, pressure: float = 1.0) -> float:
        mix = min(1.0, max(0.0, (pressure - SURROUND_FROM) / (SURROUND_FULL - SURROUND_FROM)))
        weights = SIDE_WEIGHTS * (1.0 - mix) + mix / len(SIDE_OFFSETS)
        side = SIDE_OFFSETS[int(rng.choice(len(SIDE_OFFSETS), p=weights))]
        return self.heading + side + float(rng.normal(0.0, SIDE_SPREAD))

    def position(self, world: World, angle: float | None = None) -> tuple[float, float]:
        """A point just past the screen edge in direction ``angle`` (drawn when None), inside the arena."""
        a = (self.side_angle(world.rng) if angle is None else angle) + float(world.rng.normal(0, 0.2))
        return edge_point(world, a, float(world.rng.uniform(0.0, OFFSCREEN_DEPTH)))


def edge_point(
    world: World, angle: float, depth: float = 0.0, wall: float = SPAWN_MARGIN
) -> tuple[float, float]:
    """The point ``depth`` px past the screen edge from the player along ``angle``, kept ``wall`` px inside
    the arena: where every director spawn and move (groups, nudges, the ``surround`` ring) lands."""
    p = world.player
    d = offscreen_distance(angle) + depth
    x = min(ARENA_W - wall, max(wall, p.x + math.cos(angle) * d))
    y = min(ARENA_H - wall, max(wall, p.y + math.sin(angle) * d))
    return x, y


def offscreen_distance(angle: float) -> float:
    """Distance from the player (the view follows them) to just past the screen edge along ``angle``."""
    c, s = abs(math.cos(angle)), abs(math.sin(angle))
    half_w, half_h = SCREEN_W / 2, SCREEN_H / 2
    to_edge = min(half_w / c if c > 1e-9 else math.inf, half_h / s if s > 1e-9 else math.inf)
    return to_edge + OFFSCREEN_MARGIN


def group_interval(pressure: float) -> float:
    """Seconds between groups: the base interval, shorter as pressure rises above 1."""
    return GROUP_INTERVAL_S / max(1.0, pressure) ** GROUP_RATE_EXP


def max_group(pressure: float) -> int:
    """The largest group at this pressure: ``MAX_GROUP``, growing above pressure 1 to ``MAX_GROUP_CAP``."""
    return min(MAX_GROUP_CAP, MAX_GROUP + int(GROUP_SIZE_PER_PRESSURE * max(0.0, pressure - 1.0)))


def toughen(world: World, first: int, toughness: float) -> None:
    """Scale the HP (and, by ``TOUGH_SPEED_PER_X``, the speed) of the enemies spawned from pool row ``first``
    on: the ``toughness`` knob. It adds threat without adding kills (the XP a kill gives is unchanged), so
    escalating with it does not also level the player up faster, as more or pricier enemies do."""
    if toughness == 1.0 or world.enemies.n <= first:
        return
    rows = slice(first, world.enemies.n)
    e = world.enemies
    e.hp[rows] *= toughness
    e.max_hp[rows] *= toughness
    e.speed[rows] *= 1.0 + TOUGH_SPEED_PER_X * (toughness - 1.0)


def clear_cap_for(kills_per_min: float) -> int:
    """How many enemies may be alive for a player who kills ``kills_per_min``: the crowd it clears."""
    return int(CROWD_MIN + kills_per_min * CROWD_CLEAR_S / 60.0)


def live_cap_for(pressure: float, cap: int = LIVE_CAP) -> int:
    """How many enemies may be alive at once at this pressure."""
    return min(cap, int(LIVE_CAP_BASE + LIVE_CAP_PER_PRESSURE2 * pressure * pressure))


class CreditSpawner:
    """Implements ``game.sim.spawner.Spawner``; the director sets ``knobs`` and ``pacing``."""

    def __init__(self, knobs: DirectorKnobs | None = None, *, live_cap: int = LIVE_CAP) -> None:
        self.knobs = knobs or DirectorKnobs()
        self.live_cap = live_cap
        self.crowd_cap: int | None = None  # a tighter cap for a low-skill player (``watch.PlayerWatch``)
        self.clear_cap = live_cap  # what the player clears: the director sets it (``clear_cap_for``)
        self.pacing = PacingState.BUILD_UP
        self._last_pacing = PacingState.BUILD_UP
        self.placer = SpawnPlacer()
        self.credits = 0.0
        self.recent: deque[str] = deque(maxlen=VARIETY_RUN)
        self.spawned = 0
        self._cooldown = 0.0
        self._next: tuple[SpawnCard, bool, int] | None = None

    # ------------------------------------------------------------------ the Spawner protocol
    def on_wave_start(self, world: World, wave: int) -> None:
        self.credits += 4.0 + wave  # an opening group so a wave never starts empty
        self._next = None
        if wave % BOSS_EVERY == 0 and self.knobs.pressure >= BOSS_MIN_PRESSURE:
            x, y = self.placer.position(world)
            world.spawn_enemy("boss", x, y, source="wave")

    def update(self, world: World, dt: float) -> None:
        self.placer.observe(world)
        if self.pacing is PacingState.BUILD_UP and self._last_pacing is PacingState.RELAX:
            self.credits += BUILD_UP_BURST_S * self.credits_per_second(world)  # the next mob, at once
        self._last_pacing = self.pacing
        bank_max = self.bank_max(world)
        if self.credits < bank_max:  # income stops at the cap; a spike's burst may exceed it
            self.credits = min(self.credits + self.credits_per_second(world) * dt, bank_max)
        if self._cooldown > 0.0:
            self._cooldown -= dt
            return
        cap = live_cap_for(self.knobs.pressure, self.live_cap)
        cap = min(cap, self.clear_cap)
        if world.boss_alive():
            cap = int(cap * BOSS_CROWD_SHARE)  # the boss is the pressure: half the crowd beside it
        room = (cap if self.crowd_cap is None else min(cap, self.crowd_cap)) - world.enemies.n
        if room <= 0:
            return
        if self._next is None:
            self._next = self._draw(world)
            if self._next is None:
                return
        card, elite, size = self._next
        unit = card.cost * (ELITE_COST_MULT if elite else 1.0)
        if unit * size > max(bank_max, self.credits):  # the knobs changed since the draw: draw again
            self._next = None
            return
        size = min(size, room)
        if self.credits < unit * size:
            return
        angle = self.placer.side_angle(world.rng, self.knobs.pressure)
        first = world.enemies.n
        for _ in range(size):
            x, y = self.placer.position(world, angle)
            world.spawn_enemy(card.prefab, x, y, elite=elite, source="bank")
        self.toughen_from(world, first)
        self.credits -= unit * size
        self.spawned += size
        self.recent.append(card.prefab)
        self._next = None
        self._cooldown = group_interval(self.knobs.pressure)

    def toughen_from(self, world: World, first: int) -> None:
        """Apply the ``toughness`` knob to what was spawned from pool row ``first`` on."""
        toughen(world, first, self.knobs.toughness)

    # ------------------------------------------------------------------ budget and cards
    def effective_wave(self, world: World) -> int:
        """The wave the cards and the credit curve are read at: the real wave plus the ``tier`` knob."""
        return max(1, world.wave) + round(self.knobs.tier)

    def difficulty(self, world: World) -> float:
        return 1.0 + GROWTH_PER_WAVE * (self.effective_wave(world) - 1)

    def credits_per_second(self, world: World) -> float:
        return (
            BASE_CREDITS_PER_S
            * self.difficulty(world)
            * CREDIT_MULT[self.pacing]
            * self.knobs.pressure
            * world.params.get("spawn_rate_mult")
        )

    def bank_max(self, world: World) -> float:
        return max(
            BANK_MAX_S * BASE_CREDITS_PER_S * self.difficulty(world) * self.knobs.pressure, 4.0 + world.wave
        )

    def burst(self, world: World, credits: float) -> float:
        """A spike: grant ``credits`` × difficulty at once (past the bank cap); returns what was granted."""
        granted = credits * self.difficulty(world)
        self.credits += granted
        self._next = None
        return granted

    def cards(self, world: World) -> list[SpawnCard]:
        reg = world.prefabs
        out = []
        wave = self.effective_wave(world)
        for name in reg.names:
            pf = reg.get(name)
            if pf.is_boss or pf.first_wave > wave:
                continue
            weight = max(0.0, self.knobs.mix.get(name, MIX_WEIGHT.default))
            out.append(SpawnCard(name, pf.cost, weight, pf.first_wave))
        return out

    def _draw(self, world: World) -> tuple[SpawnCard, bool, int] | None:
        cards = self.cards(world)
        if not cards:
            return None
        cards = self._apply_variety(cards)
        pricier = [c for c in cards if c.cost * MAX_GROUP * TOO_CHEAP_GROUPS > self.credits]
        if pricier and any(c.cost <= self.credits for c in pricier):
            cards = pricier  # too-cheap cards are skipped while a pricier one is affordable
        weights = np.array([c.weight for c in cards])
        if weights.sum() <= 0.0:
            weights = np.ones(len(cards))
        card = cards[int(world.rng.choice(len(cards), p=weights / weights.sum()))]
        elite = bool(world.rng.random() < self.knobs.elite_chance)
        size = int(world.rng.integers(MIN_GROUP, max_group(self.knobs.pressure) + 1))
        bank = max(self.bank_max(world), self.credits)
        if self.knobs.pressure < 1.0:
            # eased: a group the bank can pay within DRAW_WAIT_S (at low income a full-bank group takes
            # many seconds to save up, and nothing comes meanwhile)
            bank = min(bank, self.credits + DRAW_WAIT_S * self.credits_per_second(world))
        if elite and card.cost * ELITE_COST_MULT > bank:
            elite = False
        unit = card.cost * (ELITE_COST_MULT if elite else 1.0)
        return card, elite, max(1, min(size, int(bank // unit)))

    def _apply_variety(self, cards: list[SpawnCard]) -> list[SpawnCard]:
        if len(self.recent) < VARIETY_RUN or len(set(self.recent)) > 1:
            return cards
        others = [c for c in cards if c.prefab != self.recent[0] and c.weight > 0]
        return others or cards
