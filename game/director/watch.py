"""The director's per-tick reflexes, between its decisions (which come every 5–10 s): what a low-skill or
first-time player needs faster than a plan can bring it.

- **Gentle opening** – while the player has neither moved nor fired since the run began (reading the
  controls, looking around), for at most ``GRACE_MAX_S`` s, the director spawns nothing for
  ``GRACE_HOLD_S`` s, then at most ``GRACE_CROWD`` enemies, and enemy damage is scaled by ``GRACE_DAMAGE``
  (the world's ``enemy_damage_mult`` param, restored the moment the player acts). A player who starts
  playing at once, as every bot does, never sees it (the spawner holds for their first tick or two). In
  wave 1 a player rated under ``LOW_SKILL`` and below ``OPENING_HP`` takes hits at ``OPENING_DAMAGE``.
- **Crowd cap** – a player the skill estimate rates under ``LOW_SKILL`` never faces more than
  ``low_skill_cap(skill, hp)`` enemies at once (plus ``cap_bonus``, which grows while the player stays calm
  and shrinks when it is hurt): easing lowers the income, but the crowd already on the field is what kills
  a novice in wave 1.
- **Calm nudge** – a calm, healthy player (intensity under ``CALM_INTENSITY``, HP at least ``CALM_HP``,
  outside a Sustain Peak or Peak Fade) for ``CALM_S`` s gets a small group drawn from the mix
  (``nudge_size``) just past the nearest screen edges, at most every ``NUDGE_COOLDOWN_S`` s and within the
  live cap (and the crowd cap, unless the player is untouched: ``NUDGE_PAST_CAP_HP``); the director decides
  at once, and a Relax that has run ``RELAX_MIN_S`` ends there (Build Up). The pacing loop's next mob takes
  seconds to arrive; this keeps a player who cleared the field from idling in the meantime. The run's first
  nudge (on the first tick the player acts) is ``FIRST_NUDGE_GROUP``: three grunts from the top and bottom
  edges were shot down by a kiting weak bot, whose first hit (and first intensity) then came at 7-15 s;
  with four it comes at ~3.5 s on most seeds.
- **Comeback** – a coasting player (intensity under ``rules.COAST_INTENSITY``, HP at least
  ``rules.COAST_HP``, in Build Up) while the pressure knob is below ``COMEBACK_PRESSURE`` gets a decision
  every ``COMEBACK_S`` s (a soft cue): pressure eased to 0.2-0.4 after a beating came back one x1.3 step per
  10 s decision, and the healed weak bot sat bored for most of that climb.
- **Rescue** – the HP bar falling fast under a crowd: ``rescue.Rescue`` shoves the crowd back, softens
  hits (folded into the damage factor above), holds director spawns and drops supply (its docstring).
- **Planted** – a low-rated player standing still under hits in its first waves: ``planted.py`` softens
  hits (folded in too; its docstring).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from game.director.pacing import RELAX_MIN_S, Pacing, PacingState
from game.director.planted import DAMAGE as PLANTED_DAMAGE
from game.director.planted import HINT, HINT_GAP_S, Feet, is_planted
from game.director.rescue import Rescue
from game.director.rules import COAST_HP, COAST_INTENSITY
from game.director.spawner import MAX_GROUP, CreditSpawner, edge_point, live_cap_for
from game.sim.config import DT
from game.sim.world import World

if TYPE_CHECKING:
    from game.director.director import Director

GRACE_MAX_S = 30.0
GRACE_DAMAGE = 0.25  # enemy damage multiplier while the player has not touched the controls
GRACE_HOLD_S = 10.0  # ... no director spawns for this long ...
GRACE_CROWD = 3  # ... then at most this many enemies
OPENING_S = 30.0  # wave 1 of a run (its first 30 s) ...
OPENING_DAMAGE = 0.6  # ... hits a player rated under LOW_SKILL this hard ...
OPENING_HP = 0.7  # ... once it is below this much HP (the first hits land in full: they are the challenge)
MOVED_PX = 6.0  # the player has "acted" once it moved this far from where it began (or fired a shot)
LOW_SKILL = 0.45  # the crowd cap applies to players rated under this
LOW_CAP_BASE, LOW_CAP_PER_SKILL = 3, 16  # enemies alive at once: 3 + 16 x skill (8 at 0.3) ...
LOW_CAP_HP = 0.5  # ... times (LOW_CAP_HP + (1 - LOW_CAP_HP) x HP fraction): fewer while hurt
# the cap grows while the player is calm (kiting a crowd it cannot be hurt by) and shrinks when it is not
CAP_GROW_PER_S, CAP_SHRINK_PER_S, CAP_BONUS_MAX = 0.5, 2.0, 16.0
CAP_SHRINK_INTENSITY, CAP_SHRINK_HP = 0.6, 0.5
CALM_INTENSITY = 0.3
CALM_HP = 0.7
CALM_S = 1.0
NUDGE_GROUP = 3
NUDGE_GROW_WAVES = 3
FIRST_NUDGE_GROUP = 4  # the run's first nudge (on the first tick the player acts)
NUDGE_SPREAD = 0.15  # radians of jitter around straight up / straight down
NUDGE_COOLDOWN_S = 6.0
NUDGE_PAST_CAP_HP = 0.95  # at this HP or more the nudge ignores the crowd cap (the live cap still holds)
NUDGE_WALL = 30.0
COMEBACK_S = 2.0  # a coasting player at eased pressure gets a decision this often ...
COMEBACK_PRESSURE = 1.0  # ... while the pressure knob is below this


def nudge_size(wave: int) -> int:
    """Enemies in one nudge: ``NUDGE_GROUP``, +1 every ``NUDGE_GROW_WAVES`` waves, up to ``MAX_GROUP``."""
    return min(MAX_GROUP, NUDGE_GROUP + max(0, wave - 1) // NUDGE_GROW_WAVES)


def low_skill_cap(skill: float, hp_fraction: float = 1.0) -> int:
    hp = LOW_CAP_HP + (1.0 - LOW_CAP_HP) * min(1.0, max(0.0, hp_fraction))
    return max(1, int((LOW_CAP_BASE + LOW_CAP_PER_SKILL * max(0.0, skill)) * hp))


@dataclass
class WatchState:
    grace: bool = True  # the gentle opening is on (until the player acts or GRACE_MAX_S passes)
    nudges: int = 0
    relax_cut: int = 0  # Relax windows the nudge ended
    calm_s: float = CALM_S  # a run starts calm: the first nudge comes on the first tick the player acts
    last_nudge: float = -1e9
    crowd_cap: int | None = None  # the cap in force (None: not a low-skill player)
    cap_bonus: float = 0.0  # enemies the crowd cap has grown by while the player stayed calm
    damage_factor: float = 1.0  # the enemy damage multiplier the watch has in force
    rescues: int = 0  # rescue reflexes so far (``rescue.py``)
    rescue_left_s: float = 0.0  # seconds the last rescue still holds spawns
    last_cue: float = -1e9  # game time of the last comeback cue (``COMEBACK_S``)
    planted: bool = False  # a low-rated player standing still under hits (``planted.py``): its mercy is on
    planted_ticks: int = 0  # ticks the planted mercy has been on, this run
    last_hint: float = -1e9  # game time of the last "keep moving" toast (``planted.HINT``)


def describe(st: WatchState) -> str:
    """F10: what the watch has in force, e.g. ``cap 9  nudges 3`` or ``grace: hits x0.25``."""
    parts = []
    if st.rescue_left_s > 0:
        parts.append(f"RESCUE {st.rescue_left_s:.0f}s: hits x{st.damage_factor:g}, no spawns")
    elif st.grace:
        parts.append(f"grace: hits x{st.damage_factor:g}")
    elif st.planted:
        parts.append(f"standing still: hits x{st.damage_factor:g}")
    elif st.damage_factor != 1.0:
        parts.append(f"soft hits x{st.damage_factor:g}")
    if st.crowd_cap is not None:
        parts.append(f"cap {st.crowd_cap}")
    parts.append(f"nudges {st.nudges}")
    if st.rescues:
        parts.append(f"rescues {st.rescues}")
    return "  ".join(parts)


class PlayerWatch:
    """``tick(director, world)`` once per tick, after the pacing update."""

    def __init__(self, spawner: CreditSpawner | None = None) -> None:
        self.state = WatchState()
        if spawner is not None:
            spawner.crowd_cap = 0  # nothing spawns before the watch has seen whether the player acts
        self._start: tuple[float, float] | None = None
        self._damage_base = 1.0
        self._damage_set: float | None = None
        self.rescue = Rescue()
        self._mercy = 1.0  # the rescue's enemy damage factor, folded into the watch's own
        self.feet = Feet()  # where the player last stopped (``planted.py``)

    def tick(self, director: Director, world: World) -> None:
        if director.mode == "static":  # the director is off: no reflexes, full damage
            self.state.grace = False
            self.set_damage(world, 1.0)
            director.credit_spawner.crowd_cap = None
            return
        tel = director.telemetry
        pacing = director.pacing
        nudges = self.state.nudges
        self._watch_feet(director, world)
        self.rescue.tick(director, world)  # the bar falling fast under a crowd: shove, soften, hold
        self._mercy = self.rescue.damage_factor(world.time)
        self.update(
            world,
            director.credit_spawner,
            pacing,
            intensity=director.intensity.value,
            hp_fraction=tel.hp_fraction,
            engaged=tel.engaged,
            skill=tel.skill.value,
            shots=tel.shots_total,
            dt=DT,
        )
        self.state.rescues = self.rescue.state.rescues
        self.state.rescue_left_s = self.rescue.left_s(world.time)
        if self.rescue.holding(world.time):
            director.credit_spawner.crowd_cap = 0  # no director spawns while the player gets clear
        if tel.falling:  # the HP bar is falling (``Telemetry.falling``): decide now, unless a reply is due
            director.request_now(supersede=False)
        if self.state.nudges != nudges:  # a calm player (and maybe a new Build Up): decide now
            director.credit_spawner.pacing = pacing.state
            director.request_now(supersede=False)  # a soft cue: an LLM reply in flight still lands
        elif self._comeback_due(director, world):
            self.state.last_cue = world.time
            director.request_now(supersede=False)

    def _watch_feet(self, director: Director, world: World) -> None:
        """Whether the player stands still under hits (``planted.is_planted``), for this tick's reflexes."""
        tel = director.telemetry
        p = world.player
        still_s = self.feet.update(p.x, p.y, world.time)
        since_hit = math.inf if tel.last_hit_time is None else world.time - tel.last_hit_time
        was = self.state.planted
        self.state.planted = is_planted(still_s, since_hit, tel.skill.value, world.wave, LOW_SKILL)
        self.state.planted_ticks += self.state.planted
        if self.state.planted and not was and world.time - self.state.last_hint >= HINT_GAP_S:
            self.state.last_hint = world.time
            director.announce(HINT)

    def _comeback_due(self, director: Director, world: World) -> bool:
        """Whether a coasting player at eased pressure should get a decision now (``COMEBACK_S``)."""
        tel = director.telemetry
        return (
            not self.state.grace
            and world.time - self.state.last_cue >= COMEBACK_S
            and director.knobs.pressure < COMEBACK_PRESSURE
            and director.pacing.state is PacingState.BUILD_UP
            and director.intensity.value < COAST_INTENSITY
            and tel.hp_fraction >= COAST_HP
        )

    def update(
        self,
        world: World,
        spawner: CreditSpawner,
        pacing: Pacing,
        *,
        intensity: float,
        hp_fraction: float,
        engaged: bool,
        skill: float,
        shots: int,
        dt: float,
    ) -> None:
        self._damage(world, shots, skill, hp_fraction)
        st = self.state
        calm = intensity < CALM_INTENSITY and hp_fraction >= CALM_HP
        if calm:
            st.cap_bonus = min(CAP_BONUS_MAX, st.cap_bonus + CAP_GROW_PER_S * dt)
        elif intensity > CAP_SHRINK_INTENSITY or hp_fraction < CAP_SHRINK_HP:
            st.cap_bonus = max(0.0, st.cap_bonus - CAP_SHRINK_PER_S * dt)
        st.crowd_cap = low_skill_cap(skill, hp_fraction) + int(st.cap_bonus) if skill < LOW_SKILL else None
        if st.grace:  # nothing comes for GRACE_HOLD_S, then a few, until the player first acts
            st.crowd_cap = 0 if world.time < GRACE_HOLD_S else GRACE_CROWD
        spawner.crowd_cap = st.crowd_cap
        calm = calm and pacing.state not in (PacingState.SUSTAIN_PEAK, PacingState.PEAK_FADE)
        st.calm_s = st.calm_s + dt if calm else 0.0
        if st.calm_s < CALM_S or world.time - st.last_nudge < NUDGE_COOLDOWN_S or st.grace:
            return
        if pacing.state is PacingState.RELAX and pacing.time_in_state < RELAX_MIN_S:
            return
        cap = live_cap_for(spawner.knobs.pressure, spawner.live_cap)
        if st.crowd_cap is not None and hp_fraction < NUDGE_PAST_CAP_HP:
            cap = min(cap, st.crowd_cap)  # an untouched player may be nudged past the crowd cap
        if world.enemies.n + self._nudge_size(world, spawner) > cap:
            return
        if pacing.state is PacingState.RELAX:
            pacing.end_relax()
            st.relax_cut += 1
        self._nudge(world, spawner)
        st.last_nudge = world.time
        st.calm_s = 0.0

    def _damage(self, world: World, shots: int, skill: float, hp: float) -> None:
        st = self.state
        p = world.player
        if self._start is None:
            self._start = (p.x, p.y)
        if st.grace:
            moved = math.hypot(p.x - self._start[0], p.y - self._start[1]) > MOVED_PX
            st.grace = not (moved or shots > 0 or world.time >= GRACE_MAX_S)
        if st.grace:
            factor = GRACE_DAMAGE
        elif world.wave <= 1 and world.time < OPENING_S and skill < LOW_SKILL and hp < OPENING_HP:
            factor = OPENING_DAMAGE
        else:
            factor = 1.0
        if st.planted:
            factor *= PLANTED_DAMAGE
        self.set_damage(world, max(GRACE_DAMAGE, factor * self._mercy))  # GRACE_DAMAGE: the param's floor

    def set_damage(self, world: World, factor: float) -> None:
        """Scale enemy damage to ``factor`` x what it was before the watch touched it (left alone if
        something else, a mod or the console, changed the param since). The product is clamped to the
        param's range: a mod's 0.9 under the planted factor 0.25 is 0.225, below the floor 0.25."""
        st = self.state
        if factor == st.damage_factor:
            return
        current = world.params.get("enemy_damage_mult")
        if self._damage_set is None:
            self._damage_base = current
        elif current != self._damage_set:
            return
        st.damage_factor = factor
        # the mod's (or console's) base times the watch's factor: each is in range, their product may not be
        composed = world.params.clamp("enemy_damage_mult", self._damage_base * factor)
        self._damage_set = world.set_param("enemy_damage_mult", composed)

    def _nudge_size(self, world: World, spawner: CreditSpawner) -> int:
        """The next nudge's size: ``FIRST_NUDGE_GROUP`` for the run's first, then ``nudge_size``."""
        return nudge_size(spawner.effective_wave(world)) if self.state.nudges else FIRST_NUDGE_GROUP

    def _nudge(self, world: World, spawner: CreditSpawner) -> None:
        cards = [c for c in spawner.cards(world) if c.weight > 0] or spawner.cards(world)
        if not cards:
            return
        weights = np.array([c.weight for c in cards]) + 1e-9
        card = cards[int(world.rng.choice(len(cards), p=weights / weights.sum()))]
        size = self._nudge_size(world, spawner)
        # just past the nearest screen edges (above and below on a wide screen), alternating sides, so the
        # group closes in from two sides and cannot all be kited one way
        first = world.enemies.n
        for i in range(size):
            side = math.pi / 2 if (i + self.state.nudges) % 2 else -math.pi / 2
            a = side + float(world.rng.normal(0.0, NUDGE_SPREAD))
            x, y = edge_point(world, a, wall=NUDGE_WALL)
            world.spawn_enemy(card.prefab, x, y, source="reflex")
        spawner.toughen_from(world, first)
        spawner.spawned += size
        self.state.nudges += 1
