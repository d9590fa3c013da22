"""The deterministic ``rules`` director: situation in, plan out, no model. It is the offline default and the
yardstick the LLM backends are measured against; its plans go through the same validation as theirs.

Policy, first match wins:

1. **Recovery** – the player died in the last ``RECENT_DEATH_S`` s, died ``DEATHS_WINDOW_MIN`` times in the
   last 60 s (the last under ``DEATHS_WINDOW_EASE_S`` ago), is below ``LOW_HP`` HP, lost more than
   ``HEAVY_DAMAGE_15S`` of a bar in 15 s (``ESCALATED_DAMAGE_15S`` while elites, tier or toughness are up) or
   ``HEAVY_DAMAGE_30S`` in 30 s (none of it before a death), or, in the first minute and not yet
   rated above ``EARLY_SKILL``, lost ``EARLY_DAMAGE_15S`` in 15 s: ``ease_off`` (more pickups, fewer elites,
   a lower tier, a softer mix).
2. **Warm-up** – under ``WARMUP_S`` s into the run there is nothing to judge yet: ``hold``.
3. **Boss fight** – a boss is alive: ``hold`` (``ease_off`` under ``BOSS_LOW_HP``, or above the flow band
   under ``BOSS_OVER_HP``; ``raise`` for a player coasting through it untouched); the boss is the pressure.
4. **Pacing windows** – Sustain Peak, Peak Fade and Relax are the pacing loop's job: ``hold``.
5. **Build Up** – peak debt first: ``CLIMAX_DUE_S`` without a Sustain Peak, ``hold`` with ``climax``
   (``climax_due``). Then the skill estimate (``snapshot.skill``) sets a pressure ceiling
   (``pressure_ceiling``).
   Coasting (intensity under ``COAST_INTENSITY``, HP at least ``COAST_HP``, under ``COAST_DAMAGE_15S`` lost
   in 15 s, at most ``COAST_NEAR_MAX`` enemies near): ``spike`` with a swarm (``raise`` before
   ``FIRST_SPIKE_S`` unless rated ``EARLY_SPIKE_SKILL``); pressure far past the ceiling while taking damage:
   ``ease_off``; ``PEAK_DUE_S`` of Build Up without a peak: ``spike``; under-challenged (intensity under
   ``RAISE_INTENSITY``, HP at least ``RAISE_HP``, little recent damage): ``raise`` up to the ceiling, and
   past it only for a player rated ``ESCALATE_SKILL`` or more; otherwise ``hold`` (with ``supply`` for a
   strong read that is calm and untouched but below ``COAST_HP``: ``mend_due``).

A raise or spike for a skilled player near the ceiling (from ``ESCALATE_FROM_S`` on) also moves the levers
past pressure: elite chance up ``ELITE_STEP`` and ``toughness`` (HP of new spawns) up ``TOUGHNESS_STEP``,
then (once elites are ``TIER_FROM_ELITE`` common) the enemy ``tier`` up one; ``ease_off`` brings all three
back down.

The player's difficulty preset (``[game] difficulty``, ``game.difficulty``) scales the intensity targets
(``COAST_INTENSITY``, ``RAISE_INTENSITY``), the HP thresholds of Recovery (``LOW_HP``, ``BOSS_LOW_HP``) and
the skill-based pressure ceiling; ``normal`` is the tuned policy unchanged.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from game.difficulty import NORMAL, Preset, preset
from game.director.knobs import KNOB, MIX_WEIGHT
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs, Pressure
from game.director.source import DirectorSituation, PlanReply, PlanRequest
from game.director.spawner import clear_cap_for
from game.director.telemetry import GameSessionSnapshot

WARMUP_S = 10.0
RECENT_DEATH_S = 20.0
DEATHS_WINDOW_MIN = 2  # this many deaths in the last 60 s ...
DEATHS_WINDOW_EASE_S = 45.0  # ... keep easing until the last one is this old
LOW_HP = 0.35
HEAVY_DAMAGE_15S = 0.45
HEAVY_DAMAGE_30S = 0.9  # a full bar lost in 30 s (older than the 15 s window) is still a beating ...
HEAVY_WINDOW_S = 30.0  # ... unless a death (and a full bar on respawn) lies inside that window: the bar that
# killed the player was eased for RECENT_DEATH_S already; the new life is judged by the 5 s and 15 s windows
BOSS_LOW_HP = 0.5
BOSS_OVER_INTENSITY, BOSS_OVER_HP = 0.75, 0.75  # a boss fight above the flow band and hurt: thin the adds
ESCALATED_DAMAGE_15S = 0.3  # with elites, a tier or toughness up, this much lost in 15 s eases (not 0.45)
COAST_INTENSITY = 0.15
COAST_HP = 0.75
COAST_DAMAGE_15S = 0.1
COAST_NEAR_MAX = 3
RAISE_INTENSITY = 0.45
RAISE_HP = 0.6
RAISE_DAMAGE_15S = 0.25
# In the first minute a player the estimate rates under EARLY_SKILL is raised only below the flow band, and
# only untouched.
LOW_SKILL_RAISE_INTENSITY = 0.25
LOW_SKILL_RAISE_DAMAGE_15S = 0.1
EASE_PICKUP, EASE_ELITE = +0.5, -0.08  # knob shifts per ease_off plan (kept in the knob table's ranges)
RAISE_PICKUP = -0.25  # pickup shift per raise / spike plan
EARLY_S = 60.0  # the first minute: a player the estimate does not yet rate ...
EARLY_SKILL = 0.45  # ... above this ...
EARLY_DAMAGE_15S = 0.2  # ... who loses this much of a bar in 15 s is eased at once (a first-time player)
FIRST_SPIKE_S = 30.0  # no spike before this unless the skill estimate says the player is strong
EARLY_SPIKE_SKILL = 0.6
EARLY_SPIKE_KILL_SHARE = 0.8  # ... or unless it has killed this share of what spawned, untouched
PEAK_DUE_S = 45.0  # a Build Up this long without reaching a peak is pushed into one (a spike)
PEAK_DUE_HP = 0.6
# The skill estimate (telemetry ``skill``, 0..1) sets how far plain pressure may go: the ceiling.
CEILING_BASE, CEILING_PER_SKILL = -0.2, 3.3
CEILING_RANGE = (0.6, 2.5)
OVER_CEILING_MARGIN = 1.35  # well above the ceiling while taking damage: ease back toward it
OVER_CEILING_DAMAGE_15S = 0.15
# Escalation past pressure (what a raise or spike moves once pressure reached its ceiling).
ESCALATE_SKILL = 0.55  # elites and tiers are for players the estimate rates above this
ESCALATE_FROM_S = 45.0  # ... and not before this (the estimate is still young; levers would pile up)
ELITE_STEP = 0.04
TIER_FROM_ELITE = 0.12  # once elites are this common, a raise also moves the enemy tier up one
TOUGHNESS_STEP = 0.25  # ... and every such raise makes new spawns this much tougher (HP multiplier)
EASE_TIER = -1.0
EASE_TOUGHNESS = -0.5
EASE_MIX = {"grunt": +1.0, "spitter": -1.0, "tank": -0.5}  # mix shift per ease_off plan
RAISE_MIX = {"runner": +1.0, "grunt": +0.5, "tank": -0.5}  # mix shift per raise / spike plan
STRONG_RAISE_MIX = {"runner": +1.0, "grunt": +0.5, "spitter": +0.25}  # for a skilled player
# Falling behind: the crowd fills the spawner's crowd cap (what the player kills in ``CROWD_CLEAR_S``):
# threat in the bank, not challenge. No spike and no lever past pressure then.
BEHIND_FILL = 0.9
FALLING_DAMAGE_5S = 0.25  # this much of a bar lost in 5 s: the bar is falling, ease at once (any skill)
# A player's power grows with its level (weapons, stats): plain pressure may rise past LEVEL_CAP_BASE only
# LEVEL_CAP_PER_LEVEL per level gained, and the levers past pressure wait for ESCALATE_LEVEL (from which the
# cap is the knob's top). Triple pressure on a level-2 player with one blaster is how the strong bot died.
LEVEL_CAP_BASE, LEVEL_CAP_PER_LEVEL = 1.2, 0.3
ESCALATE_LEVEL = 5
SUPPLY_HP = 0.5  # an ease_off with the player under this HP also drops health packs beside them (``supply``)
EASE_EVENT, SPIKE_EVENT = "supply", "swarm"  # the events the policy names (prompts/roles/Director.md too)
SURROUND_EVENT = "surround"  # ... and the strong player's peak (``surround_due``)
SPIKE_GAP_S = 20.0  # at most one spike in this long: spikes are not stacked on each other
# The strong read: a player who hits nearly every shot, kills most of what spawned and has not been touched
# in 30 s is strong before the skill estimate (an average of a minute) can say so; so is one rated
# STRONG_SKILL. The average bot hits 60-85% and kills 35-50% of what spawned in its first 30 s, the strong
# one 85-95% and 55%. A strong read lifts the level cap by STRONG_CAP_BONUS while the player is untouched.
STRONG_READ_ACCURACY, STRONG_READ_DAMAGE_30S = 0.86, 0.1
STRONG_SKILL = 0.7
STRONG_CAP_BONUS = 0.8
# ... and, in Build Up while it is untouched (under COAST_DAMAGE_15S in 15 s, HP at least SURROUND_HP) and
# below SURROUND_INTENSITY, every plan that is not an ease also calls the ``surround`` event (a ring from
# every side, on its own cooldown): what a player who kites every crowd at range meets as a peak.
SURROUND_INTENSITY = 0.45
SURROUND_HP = 0.8
# A strong read hurt below COAST_HP waits for the heal every raise, spike and ring needs (COAST_HP, RAISE_HP,
# SURROUND_HP); the strong bot sat 60 s at 55% HP, untouched, intensity 0 (seed 5004). Calm (intensity under
# MEND_INTENSITY) and untouched in 30 s in Build Up, its hold drops ``supply`` (``mend_due``).
MEND_INTENSITY = 0.15
# Peak debt: CLIMAX_DUE_S without a Sustain Peak (``since_peak_s``) in Build Up, the player at PEAK_DUE_HP or
# more and under OVER_CEILING_DAMAGE_15S lost in 15 s: ``hold`` with the ``climax`` event (two tougher rings;
# ``climax.py``), past the spike gap and a crowd the player is not clearing, which hold back a plain spike.
# The strong bot cleared every crowd at range and went minutes without a peak (seeds 6000-6004: 7/10 windows).
# 40 s (and a 30 s cooldown: climax.py) leaves room for a second climax inside a 90 s window when the first
# brings no peak; at 55 s / 45 s the first window missed on 2 of 10 tuning seeds.
CLIMAX_DUE_S = 40.0
CLIMAX_EVENT = "climax"
CLIMAX_PRESSURE: Pressure = "hold"  # the rings are the peak: pressure holds (a x1.3 spike on top of them
# wore a level-3 strong player down in 20 s: seed 7001)

_ANNOUNCER: dict[str, str] = {
    "ease_off": "Catch your breath.",
    "hold": "",
    "raise": "They're getting bolder.",
    "spike": "Here they come!",
}


def escalated(k: DirectorKnobs) -> bool:
    """Whether any lever past pressure is raised (elites, tier, toughness)."""
    return k.elite_chance > 0.0 or k.tier > 0.0 or k.toughness > KNOB["toughness"].lo


def behind(snap: GameSessionSnapshot) -> bool:
    """Whether the crowd has (nearly) filled what the player clears: the spawner's crowd cap."""
    return snap.enemies_alive >= BEHIND_FILL * clear_cap_for(snap.kills_per_min)


def strong_read(snap: GameSessionSnapshot) -> bool:
    """Whether the player plays like a strong one now (rated ``STRONG_SKILL``, or the early read: accurate,
    clearing what spawns, untouched in 30 s)."""
    if snap.damage_30s > STRONG_READ_DAMAGE_30S:
        return False
    return snap.skill >= STRONG_SKILL or snap.accuracy >= STRONG_READ_ACCURACY


def _strong_build_up(s: DirectorSituation) -> bool:
    """A strong read in Build Up, past the warm-up, with no boss: where ``surround`` and ``mend`` may come."""
    snap = s.snapshot
    return (
        strong_read(snap)
        and s.pacing is PacingState.BUILD_UP
        and not snap.boss_alive
        and snap.time >= WARMUP_S
    )


def surround_due(s: DirectorSituation, p: Preset = NORMAL) -> bool:
    """Whether a plan for ``s`` should also call ``surround`` (see ``SURROUND_INTENSITY``)."""
    snap = s.snapshot
    return (
        _strong_build_up(s)
        and snap.hp_fraction >= SURROUND_HP
        and snap.damage_15s < COAST_DAMAGE_15S
        and s.intensity < SURROUND_INTENSITY * p.intensity
    )


def mend_due(s: DirectorSituation) -> bool:
    """Whether a hold for ``s`` should drop ``supply``: a strong read below ``COAST_HP``, calm and untouched
    in 30 s, in Build Up (see ``MEND_INTENSITY``)."""
    snap = s.snapshot
    return (
        _strong_build_up(s)
        and snap.hp_fraction < COAST_HP
        and snap.damage_30s < STRONG_READ_DAMAGE_30S
        and s.intensity < MEND_INTENSITY
    )


def climax_due(s: DirectorSituation) -> bool:
    """Whether the run is owed a peak now (see ``CLIMAX_DUE_S``)."""
    snap = s.snapshot
    return (
        s.since_peak_s >= CLIMAX_DUE_S
        and CLIMAX_EVENT in s.events
        and s.pacing is PacingState.BUILD_UP
        and not snap.boss_alive
        and snap.time >= WARMUP_S
        and snap.hp_fraction >= PEAK_DUE_HP
        and snap.damage_15s <= OVER_CEILING_DAMAGE_15S
    )


def level_cap(level: int, strong: bool = False) -> float:
    """How far plain pressure may rise for a player of this level (``strong``: ``strong_read``); from
    ``ESCALATE_LEVEL`` on, the knob's own top."""
    if level >= ESCALATE_LEVEL:
        return KNOB["pressure"].hi
    return LEVEL_CAP_BASE + LEVEL_CAP_PER_LEVEL * max(0, level - 1) + (STRONG_CAP_BONUS if strong else 0.0)


def pressure_ceiling(skill: float, p: Preset = NORMAL) -> float:
    """How far the pressure knob may rise for a player of this estimated skill (and difficulty preset)."""
    lo, hi = CEILING_RANGE
    return min(hi, max(lo, (CEILING_BASE + CEILING_PER_SKILL * skill) * p.ceiling))


def _choose(s: DirectorSituation, p: Preset = NORMAL) -> tuple[Pressure, str]:
    snap = s.snapshot
    if snap.seconds_since_death < RECENT_DEATH_S:
        return "ease_off", f"player died {snap.seconds_since_death:.0f}s ago: give room to recover"
    if snap.deaths_60s >= DEATHS_WINDOW_MIN and snap.seconds_since_death < DEATHS_WINDOW_EASE_S:
        return "ease_off", f"{snap.deaths_60s} deaths in 60s: give room to recover"
    if snap.hp_fraction < LOW_HP * p.ease_hp:
        return "ease_off", f"player at {snap.hp_fraction:.0%} HP: ease off"
    if snap.damage_15s > HEAVY_DAMAGE_15S:
        return "ease_off", f"player lost {snap.damage_15s:.0%} HP in 15s: ease off"
    if snap.damage_5s > FALLING_DAMAGE_5S and snap.skill >= EARLY_SKILL:
        return "ease_off", f"player lost {snap.damage_5s:.0%} HP in 5s: ease off"
    if snap.damage_30s > HEAVY_DAMAGE_30S and snap.seconds_since_death >= HEAVY_WINDOW_S:
        return "ease_off", f"player lost {snap.damage_30s:.0%} HP in 30s: ease off"
    if escalated(s.knobs) and snap.damage_15s > ESCALATED_DAMAGE_15S:
        return "ease_off", f"lost {snap.damage_15s:.0%} HP in 15s against escalated enemies: ease off"
    if snap.time < EARLY_S and snap.skill < EARLY_SKILL and snap.damage_15s > EARLY_DAMAGE_15S:
        return "ease_off", f"first minute, {snap.damage_15s:.0%} HP lost in 15s (skill {snap.skill:.2f})"
    if snap.time < WARMUP_S:
        return "hold", f"only {snap.time:.0f}s in: too early to judge"
    if snap.boss_alive:
        if snap.hp_fraction < BOSS_LOW_HP * p.ease_hp:
            return "ease_off", "boss fight at low HP: thin out the adds"
        if (
            s.intensity < COAST_INTENSITY * p.intensity
            and snap.hp_fraction >= COAST_HP
            and snap.damage_15s == 0
        ):
            return "raise", f"boss alive but the player is coasting (intensity {s.intensity:.2f}): raise"
        if s.intensity >= BOSS_OVER_INTENSITY and snap.hp_fraction < BOSS_OVER_HP * p.ease_hp:
            return "ease_off", f"boss fight, overwhelmed (intensity {s.intensity:.2f}): thin out the adds"
        return "hold", "boss alive: the boss is the pressure"
    if s.pacing is not PacingState.BUILD_UP:
        return "hold", f"pacing is in {s.pacing.value}: let the loop run"
    if climax_due(s):
        return CLIMAX_PRESSURE, f"{s.since_peak_s:.0f}s without a peak: bring the climax"
    ceiling = pressure_ceiling(snap.skill, p)
    proven = snap.skill >= EARLY_SPIKE_SKILL or (
        snap.spawned_per_min > 0
        and snap.kills_per_min >= EARLY_SPIKE_KILL_SHARE * snap.spawned_per_min
        and snap.damage_15s == 0.0
    )
    strong = strong_read(snap)
    proven = proven or strong
    cap_now = level_cap(snap.level, strong)
    early = snap.time < FIRST_SPIKE_S and not proven
    # a spike is a peak, not a ratchet: never on a crowd the player is not clearing, nor on the last spike
    stacked = s.since_spike_s < SPIKE_GAP_S and snap.skill >= EARLY_SKILL  # low skill: small spikes, no gap
    can_spike = not early and not behind(snap) and not stacked
    if (
        s.intensity < COAST_INTENSITY * p.intensity
        and snap.hp_fraction >= COAST_HP
        and snap.damage_15s < COAST_DAMAGE_15S
        and snap.enemies_near <= COAST_NEAR_MAX
    ):
        if not can_spike:
            if s.knobs.pressure >= cap_now and snap.level < ESCALATE_LEVEL:
                cap = cap_now  # a raise is x1.3, so the last one may pass the cap
                pk = s.knobs.pressure
                return "hold", f"coasting at level {snap.level}: pressure {pk:.2f} (cap {cap:.2f})"
            return "raise", f"coasting {snap.time:.0f}s in (skill {snap.skill:.2f}): raise, no spike now"
        return "spike", f"player coasting (intensity {s.intensity:.2f}, {snap.hp_fraction:.0%} HP): spike"
    if (
        s.knobs.pressure > ceiling * OVER_CEILING_MARGIN
        and snap.damage_15s > OVER_CEILING_DAMAGE_15S
        and s.intensity > RAISE_INTENSITY * p.intensity
    ):
        return "ease_off", f"pressure {s.knobs.pressure:.2f} past the ceiling {ceiling:.2f}: ease"
    if s.pacing_s > PEAK_DUE_S and snap.hp_fraction >= PEAK_DUE_HP and can_spike:
        return "spike", f"{s.pacing_s:.0f}s of build-up without a peak: bring one"
    low = snap.skill < EARLY_SKILL and snap.time < EARLY_S
    calm = snap.hp_fraction >= RAISE_HP and snap.damage_15s < (
        LOW_SKILL_RAISE_DAMAGE_15S if low else RAISE_DAMAGE_15S
    )
    if s.intensity < (LOW_SKILL_RAISE_INTENSITY if low else RAISE_INTENSITY) * p.intensity and calm:
        if s.knobs.pressure >= ceiling and snap.skill < ESCALATE_SKILL:
            return "hold", f"under-challenged, but pressure {s.knobs.pressure:.2f} is at skill's ceiling"
        if s.knobs.pressure >= cap_now and snap.level < ESCALATE_LEVEL:
            return (
                "hold",
                f"under-challenged at level {snap.level}: pressure {s.knobs.pressure:.2f} (cap "
                f"{cap_now:.2f})",
            )
        return "raise", f"under-challenged (intensity {s.intensity:.2f}): raise"
    return "hold", f"intensity {s.intensity:.2f} in build-up: hold"


def decide(s: DirectorSituation, p: Preset = NORMAL) -> dict[str, Any]:
    """The rules plan for ``s`` as the tool-argument dict (validated and clamped by the director)."""
    pressure, reason = _choose(s, p)
    k = s.knobs
    snap = s.snapshot
    plan: dict[str, Any] = {"pressure": pressure, "reason": reason[:120], "announcer": _ANNOUNCER[pressure]}
    allowed = set(s.prefabs)
    if pressure == "ease_off":
        plan["pickup_rate"] = KNOB["pickup_rate"].clamp(k.pickup_rate + EASE_PICKUP)
        plan["elite_chance"] = KNOB["elite_chance"].clamp(k.elite_chance + EASE_ELITE)
        plan["mix"] = _shift(k.mix, allowed, EASE_MIX)
        if k.tier > 0:
            plan["tier"] = KNOB["tier"].clamp(k.tier + EASE_TIER)
        if k.toughness > KNOB["toughness"].lo:
            plan["toughness"] = KNOB["toughness"].clamp(k.toughness + EASE_TOUGHNESS)
        if snap.hp_fraction < SUPPLY_HP and EASE_EVENT in s.events:
            plan["event"] = EASE_EVENT  # the crowd already on the player: fewer spawns alone come too late
        if snap.seconds_since_death < RECENT_DEATH_S:
            plan["note"] = f"player died at wave {snap.wave} with pressure {k.pressure:.2f}"
    elif pressure in ("raise", "spike"):
        skilled = snap.skill >= ESCALATE_SKILL
        plan["pickup_rate"] = KNOB["pickup_rate"].clamp(k.pickup_rate + RAISE_PICKUP)
        plan["mix"] = _shift(k.mix, allowed, STRONG_RAISE_MIX if skilled else RAISE_MIX)
        # levers past pressure only for a player who is under-challenged, untouched and clearing the crowd
        untouched = snap.damage_15s < COAST_DAMAGE_15S and not behind(snap)
        under = s.intensity < RAISE_INTENSITY * p.intensity and untouched
        if (
            skilled
            and under
            and snap.time >= ESCALATE_FROM_S
            and snap.level >= ESCALATE_LEVEL
            and k.pressure >= pressure_ceiling(snap.skill, p) * 0.75
        ):
            plan["elite_chance"] = KNOB["elite_chance"].clamp(k.elite_chance + ELITE_STEP)
            plan["toughness"] = KNOB["toughness"].clamp(k.toughness + TOUGHNESS_STEP)
            if k.elite_chance >= TIER_FROM_ELITE:
                plan["tier"] = KNOB["tier"].clamp(k.tier + 1.0)
        if pressure == "spike" and SPIKE_EVENT in s.events:
            plan["event"] = SPIKE_EVENT
    if pressure == CLIMAX_PRESSURE and climax_due(s):
        plan["event"] = CLIMAX_EVENT
        plan["announcer"] = _ANNOUNCER["spike"]
    elif pressure != "ease_off" and SURROUND_EVENT in s.events and surround_due(s, p):
        plan["event"] = SURROUND_EVENT
    elif pressure == "hold" and EASE_EVENT in s.events and mend_due(s):
        plan["event"] = EASE_EVENT
    return plan


def _shift(mix: dict[str, float], allowed: set[str], deltas: dict[str, float]) -> dict[str, float]:
    return {
        name: round(MIX_WEIGHT.clamp(mix.get(name, MIX_WEIGHT.default) + d), 4)
        for name, d in deltas.items()
        if name in allowed
    }


class RulesSource:
    """The rules policy as a ``PlanSource``: its future is complete when ``request`` returns."""

    name = "rules"

    def __init__(self, difficulty: Callable[[], str] | None = None) -> None:
        self.difficulty = difficulty or (lambda: "normal")  # the player's preset, read at each decision

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        start = time.perf_counter()
        plan = decide(req.situation, preset(self.difficulty()))
        fut: Future[PlanReply] = Future()
        fut.set_result(
            PlanReply(
                raw=json.dumps(plan, sort_keys=True),
                plan=plan,
                backend=self.name,
                latency_s=time.perf_counter() - start,
                trace_id=req.trace_id,
            )
        )
        return fut
