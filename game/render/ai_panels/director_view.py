"""What the F10 director panel shows: an immutable ``DirectorPanel``, read from the director's public state on
the main thread (``panel_view(director, world)``), with the texts of its rows. It draws nothing: the overlay
(``director_panel.py``) lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.director.act import Acted
from game.director.director import STATIC, Director
from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.read import IntensitySample
from game.director.saturation import NO_SATURATION, Saturation
from game.director.skill import SkillSignals, label
from game.sim.world import World


@dataclass(frozen=True)
class DirectorPanel:
    mode: str
    modes: tuple[str, ...]
    backend: str  # the source that produced the last reply ("" before the first)
    intensity: float
    pacing: PacingState
    pacing_s: float
    history: tuple[IntensitySample, ...]  # oldest first, HISTORY_HZ per second, at most HISTORY_S long
    knobs: DirectorKnobs
    credits: float
    credits_per_s: float
    last_plan: DirectorPlan | None
    last_reason: str
    last_clamped: tuple[str, ...]
    last_error: str  # the last rejection / failure message ("" if none yet)
    latency_s: float | None
    trace_id: str | None
    accepted: int
    rejected: int
    failed: int
    superseded: int
    pending: bool  # a request is in flight
    last_announcer: str
    memory: tuple[str, ...]
    next_decision_in: float  # seconds of game time until the next scheduled decision
    overridden: int = 0  # model plans the guard replaced with the rules plan
    prompt: str = ""  # the LLM source's last request size: "prompt N tok (+max) / n_ctx"
    skill: float = 0.5  # the online skill estimate, 0..1
    skill_signals: SkillSignals | None = None
    saturation: Saturation = NO_SATURATION
    acting: str = ""  # the reflexes in force and what the act stage applies (``acted_text``)
    limits: str = ""  # the spawner's limits now (``limits_text``)
    spawns: str = ""  # the last 30 s of spawns by cause (``spawns_text``)

    def skill_text(self) -> str:
        """F10: the skill estimate, e.g. ``0.62 average``."""
        return f"{self.skill:.2f} {label(self.skill)}"

    def signals_text(self) -> str:
        """F10: the four signals the estimate rests on (0..1 each)."""
        sig = self.skill_signals
        if sig is None:
            return "signals after the first second"
        return f"kill {sig.kills:.1f} dmg {sig.damage:.1f} acc {sig.accuracy:.1f} alive {sig.alive:.1f}"

    def saturation_text(self) -> str:
        """F10: knobs at a bound ("none" when every knob can still move both ways)."""
        sat = self.saturation
        return ("ALL ESCALATION AT MAX; " if sat.escalation_exhausted else "") + sat.describe()

    def skill_line(self) -> str:
        return f"skill {self.skill_text()}  {self.signals_text()}"

    def saturation_line(self) -> str:
        return f"saturated: {self.saturation_text()}"


def acted_text(a: Acted) -> str:
    """F10: the reflexes in force and the multipliers applied (``applied: hits x0.62  speed x0.94  drops
    x1.50``, and ``enemy HP x2.40 (your build)`` once new enemies follow the player's build)."""
    parts = [a.why] if a.why else []
    parts.append(f"applied: hits x{a.danger:.2f}  speed x{a.speed:.2f}  drops x{a.pickup:.2f}")
    if a.hp_match > 1.0:
        parts.append(f"enemy HP x{a.hp_match:.2f} (your build)")
    return "  ".join(parts)


def limits_text(a: Acted, alive: int) -> str:
    """F10: the crowd against its cap and the presence floor, e.g. ``crowd 34/76, in view 5/6 (prey)``."""
    lim = a.limits
    prey = " prey" if lim.prey else ""
    hold = ", HOLD" if lim.hold else ""
    return f"crowd {alive}/{lim.crowd_max}, near view {lim.present}/floor {lim.floor}{prey}{hold}"


def spawns_text(counts: dict[str, int]) -> str:
    """F10's row: ``bank 12, event 8, presence 3`` (``none`` when nothing spawned)."""
    return ", ".join(f"{cause} {n}" for cause, n in counts.items()) or "none"


def panel_view(director: Director, world: World) -> DirectorPanel:
    """The F10 panel's view of ``director`` now (main thread)."""
    d = director
    static = d.mode == STATIC
    acted = d.actuator.state
    return DirectorPanel(
        mode=d.mode,
        modes=d.modes(),
        backend=d.backend,
        intensity=d.intensity.value,
        pacing=d.pacing.state,
        pacing_s=d.pacing.time_in_state,
        history=d.history.samples(),
        knobs=d.knobs,
        credits=d.credit_spawner.credits,
        credits_per_s=0.0 if static else d.credit_spawner.credits_per_second(world),
        last_plan=d.last_plan,
        last_reason=d.last_reason,
        last_clamped=d.last_clamped,
        last_error=d.last_error,
        latency_s=d.latency_s,
        trace_id=d.trace_id,
        accepted=d.accepted,
        rejected=d.rejected,
        failed=d.failed,
        superseded=d.superseded,
        overridden=d.overridden,
        prompt=d.prompt_line(),
        pending=d.pending,
        last_announcer=d.last_announcer,
        memory=tuple(d.memory.notes()),
        next_decision_in=d.next_decision_in(world),
        skill=d.telemetry.skill.value,
        skill_signals=d.telemetry.skill.last,
        saturation=d.saturation,
        acting="" if static else acted_text(acted),
        limits="" if static else limits_text(acted, world.enemies.n),
        spawns=spawns_text(d.spawn_log.recent()),
    )
