"""The one spawner: a Risk of Rain 2 style credit bank spent on weighted spawn cards, the presence floor, and
boss waves. Static difficulty and the director both spawn through ``CreditSpawner``; they differ only in who
sets its plan.

- **Static difficulty** (``WaveSpawner``) is the game without a director: a fixed, designed curve. At each
  wave start its plan is read from ``[static]`` of ``assets/director/tuning.toml`` (pressure rising with the
  wave, a growing elite chance); nothing watches the player.
- **The director** writes the plan's knobs, the pacing share of the income and the ``Limits`` every tick
  (``game/director/act.py``).

**The bank.** Credits per second = ``[bank] income`` × (1 + ``income_growth`` × (wave - 1 + ``tier``)) ×
the income share (the director's pacing) × ``pressure`` × the world's ``spawn_rate_mult``. Each group is one
card: prefab, cost, weight (the plan's mix × ``card_weight``: cheaper kinds come more often, so a credit buys
a crowd), first wave. Elites cost ``elite_cost`` times their card. Above pressure 1 groups come faster,
bigger and from every side; below it they come from the player's rear and flanks. Groups land just past the
screen edge. The same prefab fills at most ``VARIETY_RUN`` groups in a row while another is affordable.

**The presence floor.** While fewer than ``limits.floor`` enemies are in view or about to enter it, a group
just big enough to meet it lands just past the screen edge (tagged ``presence``); when the crowd is at its
cap, the stragglers farthest off screen are brought back instead.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from game.director.tuning import TUNING, Tuning
from game.sim.config import BOSS_EVERY
from game.sim.events import SpawnCause
from game.sim.placement import OFFSCREEN_DEPTH, SpawnPlacer
from game.sim.view import ARRIVING_PX, seen

if TYPE_CHECKING:
    from game.sim.world import World

# Where a spawn lands (geometry and engine limits, not balance)
LIVE_CAP = 220  # never more alive than this from the spawner (the simulation's budget)
MAX_GROUP_CAP = 10  # groups grow by one per half unit of pressure above 1, up to this
MIN_GROUP = 2
VARIETY_RUN = 2
MIX_DEFAULT = 1.0  # a prefab the plan's mix does not name weighs this


def card_weight(cost: float) -> float:
    """How often a prefab card is drawn, for its credit cost: cheaper kinds more often (1/sqrt(cost)), so a
    credit buys a crowd rather than a few heavies."""
    return 1.0 / math.sqrt(cost)


class Spawner(Protocol):
    def on_wave_start(self, world: World, wave: int) -> None: ...

    def update(self, world: World, dt: float) -> None: ...


class SpawnKnobs(Protocol):
    """What the spawner reads of a plan (``DirectorKnobs`` has these, and so does static's ``FixedKnobs``)."""

    @property
    def pressure(self) -> float: ...
    @property
    def tier(self) -> float: ...
    @property
    def toughness(self) -> float: ...
    @property
    def elite_chance(self) -> float: ...
    @property
    def mix(self) -> Mapping[str, float]: ...


@dataclass(frozen=True)
class FixedKnobs:
    """A plan nobody changes: static difficulty's, set per wave from its curve."""

    pressure: float = 1.0
    tier: float = 0.0
    toughness: float = 1.0
    elite_chance: float = 0.0
    mix: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SpawnCard:
    prefab: str
    cost: float
    weight: float
    first_wave: int


@dataclass(frozen=True)
class Limits:
    """What the spawner may do this tick (the director's act stage writes them; static keeps these)."""

    crowd_max: int = LIVE_CAP  # alive at once, at most
    floor: int = 0  # the presence floor (0: none)
    present: int = 0  # enemies in view or about to enter it, as last read
    prey: bool = False  # the player is hurt: presence brings the weakest prey
    hold: bool = False  # nothing but the presence floor spawns (the grace, before the player acts)


def group_interval(pressure: float, t: Tuning = TUNING) -> float:
    """Seconds between groups: the base interval, shorter as pressure rises above 1."""
    return t.bank.group_interval_s / max(1.0, pressure)


def max_group(pressure: float, t: Tuning = TUNING) -> int:
    """The largest group at this pressure: ``[bank] max_group``, growing above pressure 1 to
    ``MAX_GROUP_CAP``."""
    return min(MAX_GROUP_CAP, t.bank.max_group + int(2.0 * max(0.0, pressure - 1.0)))


def toughen(world: World, first: int, toughness: float) -> None:
    """Scale the HP of the enemies spawned from pool row ``first`` on: the ``toughness`` knob, threat that
    adds no kills (the XP a kill gives is unchanged)."""
    if toughness == 1.0 or world.enemies.n <= first:
        return
    rows = slice(first, world.enemies.n)
    e = world.enemies
    e.hp[rows] *= toughness
    e.max_hp[rows] *= toughness


def stragglers(world: World, n: int) -> np.ndarray:
    """Pool rows of up to ``n`` enemies (no boss) outside the view and its arriving margin, farthest from
    the player first: the crowd left behind, which the presence floor and ``surround`` bring back."""
    en = world.enemies
    if n <= 0 or en.n == 0:
        return np.zeros(0, dtype=np.int64)
    out = ~seen(world, ARRIVING_PX)
    rows = np.flatnonzero(out & ~np.isin(en.view("kind"), world.prefabs.boss_kinds))
    xs, ys = en.view("x"), en.view("y")
    dist = np.hypot(xs[rows] - world.player.x, ys[rows] - world.player.y)
    return rows[np.argsort(-dist)][:n]


class CreditSpawner:
    """Implements ``Spawner``. ``knobs`` is the plan in force, ``income_share`` the share of the income the
    director's pacing lets through, ``limits`` what it may do, ``hp_match`` how much tougher new enemies (not
    the boss) are for a build that outgrew the wave, ``boss_match`` the share of its HP a boss gets for a
    weak build; the director writes them all."""

    source: SpawnCause = "bank"  # the cause the bank's groups carry (static's say "wave")

    def __init__(self, knobs: SpawnKnobs | None = None, tuning: Tuning = TUNING) -> None:
        self.t = tuning
        self.knobs: SpawnKnobs = knobs if knobs is not None else FixedKnobs()
        self.limits = Limits()
        self.income_share = 1.0
        self.hp_match = self.boss_match = 1.0
        self.placer = SpawnPlacer()
        self.credits = 0.0
        self.recent: deque[str] = deque(maxlen=VARIETY_RUN)
        self.spawned = 0
        self.moved = 0  # stragglers the presence floor brought back into view
        self._cooldown = 0.0
        self._floor_cooldown = 0.0
        self._next: tuple[SpawnCard, bool, int] | None = None

    # ------------------------------------------------------------------ the Spawner protocol
    def on_wave_start(self, world: World, wave: int) -> None:
        self.credits += self.t.bank.opening_credits + wave  # an opening group so a wave never starts empty
        self._next = None
        if wave % BOSS_EVERY == 0:
            x, y = self.placer.position(world)
            first = world.enemies.n
            world.spawn_enemy("boss", x, y, source="wave")  # the boss is authored: no knob toughens it ...
            toughen(world, first, self.boss_match)  # ... but under the director it may meet a weak build

    def update(self, world: World, dt: float) -> None:
        self.placer.observe(world)
        lim = self.limits
        bank_max = self.bank_max(world)
        if self.credits < bank_max:  # income stops at the cap; a spike's burst may exceed it
            self.credits = min(self.credits + self.credits_per_second(world) * dt, bank_max)
        room = min(lim.crowd_max, LIVE_CAP) - world.enemies.n
        self._floor_cooldown -= dt
        if lim.present < lim.floor and self._floor_cooldown <= 0.0:
            size = min(lim.floor - lim.present, max_group(self.knobs.pressure, self.t))
            if self._presence(world, size, max(0, room)):
                return
        if lim.hold:
            return
        if self._cooldown > 0.0:
            self._cooldown -= dt
            return
        if room <= 0:
            return
        if self._next is None:
            self._next = self._draw(world)
            if self._next is None:
                return
        card, elite, size = self._next
        unit = card.cost * (self.t.bank.elite_cost if elite else 1.0)
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
            world.spawn_enemy(card.prefab, x, y, elite=elite, source=self.source)
        self.toughen_from(world, first)
        self.credits -= unit * size
        self.spawned += size
        self.recent.append(card.prefab)
        self._next = None
        self._cooldown = group_interval(self.knobs.pressure, self.t)

    def _presence(self, world: World, size: int, room: int) -> bool:
        """Bring ``size`` enemies just past the screen edge (the presence floor), from the rear and flanks:
        new ones while the crowd has ``room``, and the stragglers farthest off screen for the rest (a full
        crowd the player left behind is no reason for an empty screen). True if any came."""
        cards = self.cards(world)
        if not cards or size <= 0:
            return False
        angle = self.placer.side_angle(world.rng, self.knobs.pressure)
        depth = OFFSCREEN_DEPTH / 3
        moved = stragglers(world, size - min(size, room))
        xs, ys = world.enemies.view("x"), world.enemies.view("y")
        for row in moved:
            xs[row], ys[row] = self.placer.position(world, angle, depth=depth)
        new = min(size, room)
        if new:
            if self.limits.prey:
                card = min(cards, key=lambda c: c.cost)
            else:
                card = self._pick(world, [c for c in cards if c.weight > 0] or cards)
            first = world.enemies.n
            for _ in range(new):
                x, y = self.placer.position(world, angle, depth=depth)
                world.spawn_enemy(card.prefab, x, y, source="presence")
            self.toughen_from(world, first)
            self.spawned += new
        if not new and not len(moved):
            return False
        self.moved += len(moved)
        self._floor_cooldown = group_interval(self.knobs.pressure, self.t)
        return True

    def toughen_from(self, world: World, first: int) -> None:
        """Apply the ``toughness`` knob and ``hp_match`` to what was spawned from pool row ``first`` on."""
        toughen(world, first, self.knobs.toughness * self.hp_match)

    # ------------------------------------------------------------------ budget and cards
    def effective_wave(self, world: World) -> int:
        """The wave the cards and the credit curve are read at: the real wave plus the ``tier`` knob."""
        return max(1, world.wave) + round(self.knobs.tier)

    def difficulty(self, world: World) -> float:
        return 1.0 + self.t.bank.income_growth * (self.effective_wave(world) - 1)

    def credits_per_second(self, world: World) -> float:
        return (
            self.t.bank.income
            * self.difficulty(world)
            * self.income_share
            * self.knobs.pressure
            * world.params.get("spawn_rate_mult")
        )

    def bank_max(self, world: World) -> float:
        per_s = self.t.bank.income * self.difficulty(world) * self.knobs.pressure
        return max(self.t.bank.bank_max_s * per_s, self.t.bank.opening_credits + world.wave)

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
            weight = max(0.0, self.knobs.mix.get(name, MIX_DEFAULT))
            out.append(SpawnCard(name, pf.cost, weight, pf.first_wave))
        return out

    def _pick(self, world: World, cards: list[SpawnCard]) -> SpawnCard:
        weights = np.array([c.weight * card_weight(c.cost) for c in cards])  # the plan's mix over the cost
        if weights.sum() <= 0.0:
            weights = np.array([card_weight(c.cost) for c in cards])
        return cards[int(world.rng.choice(len(cards), p=weights / weights.sum()))]

    def _draw(self, world: World) -> tuple[SpawnCard, bool, int] | None:
        cards = self.cards(world)
        if not cards:
            return None
        if len(self.recent) == VARIETY_RUN and len(set(self.recent)) == 1:  # variety: not a third in a row
            cards = [c for c in cards if c.prefab != self.recent[0] and c.weight > 0] or cards
        card = self._pick(world, cards)
        elite = bool(world.rng.random() < self.knobs.elite_chance)
        size = int(world.rng.integers(MIN_GROUP, max_group(self.knobs.pressure, self.t) + 1))
        bank = max(self.bank_max(world), self.credits)
        cost = self.t.bank.elite_cost
        if elite and card.cost * cost > bank:
            elite = False
        unit = card.cost * (cost if elite else 1.0)
        return card, elite, max(1, min(size, int(bank // unit)))


class WaveSpawner(CreditSpawner):
    """Static difficulty: the credit spawner with a fixed plan per wave, read from ``[static]`` of the
    tuning (the player's difficulty preset overlaid): pressure and elite chance rise with the wave."""

    source: SpawnCause = "wave"

    def on_wave_start(self, world: World, wave: int) -> None:
        self.knobs = static_knobs(wave, self.t)
        super().on_wave_start(world, wave)


def static_knobs(wave: int, t: Tuning = TUNING) -> FixedKnobs:
    """Static difficulty's plan for ``wave``: its designed curve."""
    s = t.static
    step = max(0, wave - 1)
    return FixedKnobs(
        pressure=min(s.pressure_max, s.pressure + s.pressure_per_wave * step),
        elite_chance=min(s.elite_max, s.elite_per_wave * step),
    )


class NullSpawner:
    """Spawns nothing: for tests, sandboxes and scripted scenes where every enemy is placed by hand."""

    def on_wave_start(self, world: World, wave: int) -> None:
        return None

    def update(self, world: World, dt: float) -> None:
        return None
