"""The deterministic ``rules`` director: situation in, plan out, no model. It is the offline default and the
yardstick the LLM backends are measured against; its plans go through the same validation as theirs.

Policy, first match wins:

1. **Recovery** – the player died in the last ``RECENT_DEATH_S`` s, is below ``LOW_HP`` HP, or lost more than
   ``HEAVY_DAMAGE_15S`` of a bar in 15 s (``BOSS_LOW_HP`` while a boss is alive): ``ease_off`` (more pickups,
   fewer elites, a softer mix).
2. **Warm-up** – under ``WARMUP_S`` s into the run there is nothing to judge yet: ``hold``.
3. **Boss fight** – a boss is alive: ``hold``; the boss is the pressure.
4. **Pacing windows** – Sustain Peak, Peak Fade and Relax are the pacing loop's job: ``hold``.
5. **Build Up** – coasting (intensity under ``COAST_INTENSITY``, HP at least ``COAST_HP``, under
   ``COAST_DAMAGE_15S`` of a bar lost in 15 s, at most ``COAST_NEAR_MAX`` enemies near): ``spike`` with a
   swarm; under-challenged (intensity under ``RAISE_INTENSITY``, HP at least ``RAISE_HP``, little recent
   damage): ``raise``; otherwise ``hold``.

The player's difficulty preset (``[game] difficulty``, ``game.difficulty``) scales the intensity targets
(``COAST_INTENSITY``, ``RAISE_INTENSITY``) and the HP thresholds of Recovery (``LOW_HP``, ``BOSS_LOW_HP``);
``normal`` is the tuned policy unchanged.
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
from game.director.plan import Pressure
from game.director.source import DirectorSituation, PlanReply, PlanRequest

WARMUP_S = 10.0
RECENT_DEATH_S = 20.0
LOW_HP = 0.35
HEAVY_DAMAGE_15S = 0.45
BOSS_LOW_HP = 0.5
COAST_INTENSITY = 0.15
COAST_HP = 0.75
COAST_DAMAGE_15S = 0.1
COAST_NEAR_MAX = 3
RAISE_INTENSITY = 0.45
RAISE_HP = 0.6
RAISE_DAMAGE_15S = 0.25
EASE_PICKUP, EASE_ELITE = +0.5, -0.08  # knob shifts per ease_off plan (kept in the knob table's ranges)
RAISE_PICKUP = -0.25  # pickup shift per raise / spike plan
EASE_MIX = {"grunt": +1.0, "spitter": -1.0, "tank": -0.5}  # mix shift per ease_off plan
RAISE_MIX = {"runner": +1.0, "grunt": +0.5, "tank": -0.5}  # mix shift per raise / spike plan

_ANNOUNCER: dict[str, str] = {
    "ease_off": "Catch your breath.",
    "hold": "",
    "raise": "They're getting bolder.",
    "spike": "Here they come!",
}


def _choose(s: DirectorSituation, p: Preset = NORMAL) -> tuple[Pressure, str]:
    snap = s.snapshot
    if snap.seconds_since_death < RECENT_DEATH_S:
        return "ease_off", f"player died {snap.seconds_since_death:.0f}s ago: give room to recover"
    if snap.hp_fraction < LOW_HP * p.ease_hp:
        return "ease_off", f"player at {snap.hp_fraction:.0%} HP: ease off"
    if snap.damage_15s > HEAVY_DAMAGE_15S:
        return "ease_off", f"player lost {snap.damage_15s:.0%} HP in 15s: ease off"
    if snap.time < WARMUP_S:
        return "hold", f"only {snap.time:.0f}s in: too early to judge"
    if snap.boss_alive:
        if snap.hp_fraction < BOSS_LOW_HP * p.ease_hp:
            return "ease_off", "boss fight at low HP: thin out the adds"
        return "hold", "boss alive: the boss is the pressure"
    if s.pacing is not PacingState.BUILD_UP:
        return "hold", f"pacing is in {s.pacing.value}: let the loop run"
    if (
        s.intensity < COAST_INTENSITY * p.intensity
        and snap.hp_fraction >= COAST_HP
        and snap.damage_15s < COAST_DAMAGE_15S
        and snap.enemies_near <= COAST_NEAR_MAX
    ):
        return "spike", f"player coasting (intensity {s.intensity:.2f}, {snap.hp_fraction:.0%} HP): spike"
    calm = snap.hp_fraction >= RAISE_HP and snap.damage_15s < RAISE_DAMAGE_15S
    if s.intensity < RAISE_INTENSITY * p.intensity and calm:
        return "raise", f"under-challenged (intensity {s.intensity:.2f}): raise"
    return "hold", f"intensity {s.intensity:.2f} in build-up: hold"


def decide(s: DirectorSituation, p: Preset = NORMAL) -> dict[str, Any]:
    """The rules plan for ``s`` as the tool-argument dict (validated and clamped by the director)."""
    pressure, reason = _choose(s, p)
    k = s.knobs
    plan: dict[str, Any] = {"pressure": pressure, "reason": reason[:120], "announcer": _ANNOUNCER[pressure]}
    allowed = set(s.prefabs)
    if pressure == "ease_off":
        plan["pickup_rate"] = KNOB["pickup_rate"].clamp(k.pickup_rate + EASE_PICKUP)
        plan["elite_chance"] = KNOB["elite_chance"].clamp(k.elite_chance + EASE_ELITE)
        plan["mix"] = _shift(k.mix, allowed, EASE_MIX)
        if s.snapshot.seconds_since_death < RECENT_DEATH_S:
            plan["note"] = f"player died at wave {s.snapshot.wave} with pressure {k.pressure:.2f}"
    elif pressure in ("raise", "spike"):
        plan["pickup_rate"] = KNOB["pickup_rate"].clamp(k.pickup_rate + RAISE_PICKUP)
        plan["mix"] = _shift(k.mix, allowed, RAISE_MIX)
        if pressure == "spike" and "swarm" in s.events:
            plan["event"] = "swarm"
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
