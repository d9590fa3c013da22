"""What the F10 director panel and the announcer toast read: immutable views built on the main thread."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.director.pacing import PacingState
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.rules import BEHIND_FILL, CLIMAX_DUE_S, level_cap, strong_read
from game.director.saturation import NO_SATURATION, Saturation
from game.director.skill import SkillSignals, label
from game.director.spawn_log import spawns_text
from game.director.telemetry import NEVER
from game.director.watch import describe

if TYPE_CHECKING:
    from game.director.director import Director
    from game.sim.world import World

HISTORY_S = 120.0  # the panel's intensity graph spans the last two minutes
HISTORY_HZ = 4  # samples per second of game time


@dataclass(frozen=True)
class IntensitySample:
    time: float
    intensity: float
    pacing: PacingState


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
    watch: str = ""  # the per-tick reflexes in force (``watch.describe``)
    limits: str = ""  # what bounds escalation now (``limits_text``)
    spawns: str = ""  # the last 30 s of spawns by cause (``spawn_log.spawns_text``)

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


class IntensityHistory:
    """A fixed-size ring of samples, taken every ``TICK_HZ // HISTORY_HZ`` ticks."""

    def __init__(self) -> None:
        self._samples: deque[IntensitySample] = deque(maxlen=int(HISTORY_S * HISTORY_HZ))

    def add(self, time: float, intensity: float, pacing: PacingState) -> None:
        self._samples.append(IntensitySample(round(time, 3), round(intensity, 4), pacing))

    def samples(self) -> tuple[IntensitySample, ...]:
        return tuple(self._samples)


def limits_text(d: Director, world: World) -> str:
    """F10: the bounds on escalation now: the clear cap against the crowd (``BEHIND``: no spike, no
    levers), the level cap on plain pressure (``strong`` while the strong read lifts it), and how long ago
    the last spike came (``SPIKE_GAP_S``) and the last Sustain Peak (``OWED`` once ``CLIMAX_DUE_S`` passed:
    the rules call ``climax``)."""
    cap, alive = d.credit_spawner.clear_cap, world.enemies.n
    behind = " BEHIND" if alive >= BEHIND_FILL * cap else ""
    since = world.time - d.spike_at
    spike = f"spike {since:.0f}s ago" if since < NEVER else "no spike yet"
    strong = strong_read(d.telemetry.snapshot(world))
    pcap = f"p cap {level_cap(world.player.level, strong):.2f}x{' strong' if strong else ''}"
    owed = " OWED" if d.pacing.since_peak >= CLIMAX_DUE_S else ""
    return f"clear {alive}/{cap}{behind}, {pcap}, {spike}, peak {d.pacing.since_peak:.0f}s ago{owed}"


def build_panel(d: Director, world: World) -> DirectorPanel:
    """The panel view of director ``d`` now (main thread)."""
    static = d.mode == "static"
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
        watch="" if static else describe(d.watch.state),
        limits="" if static else limits_text(d, world),
        spawns=spawns_text(d.spawn_log.recent()),
    )
