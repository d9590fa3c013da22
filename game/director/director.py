"""The director's loop: read → decide → act, once per simulation tick on the main thread.

Call ``director.on_tick(world)`` after ``world.step`` and build the world with ``spawner=director.spawner``.

- **Read**: ``read.Reader`` folds the tick into one ``PlayerRead`` (telemetry, intensity, pacing, HP and its
  fall, kill pace, what is in view).
- **Decide**: every ``DECISION_INTERVAL_S`` of game time, and at once on a death, a new Build Up, the bar
  starting to fall, a wave start or a mode switch, the active plan source (rules, an LLM, MCP, a replay)
  gets a ``PlanRequest`` and returns a future; the director polls it each tick and keeps the last plan
  meanwhile. Latest wins: a soft cue waits while a request younger than ``PENDING_MAX_S`` is in flight, an
  urgent one (a death, a mode switch) supersedes it. Replies go through ``pipeline.py`` (validation, guard,
  record). Between decisions the reflexes (``reflexes.py``) return adjustments.
- **Act**: ``act.Actuator`` alone applies the knobs and the adjustments: spawner limits and the world's
  player-facing multipliers.

Modes: ``static`` (the ``WaveSpawner``, no director), ``rules``, any ``register_source`` one;
``set_mode``/F6 switch.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from typing import Any

from loguru import logger

from coreai.errors import SettingsError, ToolArgumentError
from game.director.act import Actuator
from game.director.events import EventRegistry
from game.director.intensity import IntensityTracker
from game.director.memory import DirectorMemory
from game.director.pacing import Pacing
from game.director.panel import HISTORY_HZ, DirectorPanel, IntensityHistory, acted_text, limits_text
from game.director.pipeline import Pending, collect, decision_record, vet_reply
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.read import PlayerRead, Reader
from game.director.reflexes import Grace, Rescue
from game.director.routing import DirectorSpawner
from game.director.rules import RulesSource
from game.director.saturation import Saturation, log_changes, saturation
from game.director.source import DirectorSituation, PlanReply, PlanRequest, PlanSource
from game.director.spawn_log import SpawnLog, spawns_text
from game.director.spawner import CreditSpawner, Limits
from game.director.telemetry import NEVER, Telemetry
from game.director.trajectory import MAX_TICK, DecisionStatus, TrajectorySink
from game.director.tuning import Tuning, preset_names, tuning
from game.director.validate import ValidatedPlan
from game.sim.config import TICK_HZ
from game.sim.spawner import WaveSpawner
from game.sim.world import World

STATIC = "static"
DECISION_INTERVAL_S = 10.0
PENDING_MAX_S = 25.0  # a scheduled request supersedes one in flight this old (or past its source's deadline)
MAX_ANNOUNCEMENTS = 8


class Director:
    def __init__(
        self,
        mode: str = "rules",
        *,
        seed: int = 0,
        sources: tuple[PlanSource, ...] = (),
        memory: DirectorMemory | None = None,
        trajectory: TrajectorySink | None = None,
        events: EventRegistry | None = None,
        decision_interval_s: float = DECISION_INTERVAL_S,
        difficulty: Callable[[], str] | None = None,
    ) -> None:
        self.difficulty = difficulty or (lambda: "normal")  # the player's preset (its tuning overlay)
        self.events = events if events is not None else EventRegistry()
        self.memory = memory if memory is not None else DirectorMemory()
        self.trajectory = trajectory
        self.decision_interval_s = decision_interval_s
        self._sources: dict[str, PlanSource] = {}
        self.register_source(RulesSource())
        for s in sources:
            self.register_source(s)
        self._log = logger.bind(feature="director", trace_id="-")
        if mode not in self.modes():
            raise SettingsError("director.mode", f"unknown mode '{mode}'; known: {', '.join(self.modes())}")
        self._mode = mode
        self.reset(seed)

    def reset(self, seed: int) -> None:
        """A new run: fresh telemetry, intensity, pacing, spawners, counters and history. The mode, sources,
        events and memory stay (one director lives for the whole session)."""
        if getattr(self, "_pending", None) is not None:
            self._drop_pending("new run")
        self.seed = seed
        t = self.tuning
        self.reader = Reader(seed, t)
        self.read: PlayerRead | None = None
        self.spawn_log = SpawnLog()
        self.events.new_run()
        self.credit_spawner = CreditSpawner(DirectorKnobs(danger=t.plan.opening_danger), t)
        self.credit_spawner.limits = Limits(hold=True)  # the first step spawns before the first act
        self.static_spawner = WaveSpawner()
        self.spawner = DirectorSpawner(self.active_spawner, self.request_now)
        self.grace, self.rescue = Grace(t), Rescue(t)
        self.actuator = Actuator(t)
        self._fall_cue = -1e9  # game time the falling bar last asked for a decision
        self._history = IntensityHistory()
        self._announce: deque[str] = deque(maxlen=MAX_ANNOUNCEMENTS)
        self._pending: Pending | None = None
        self._seq, self._urgent, self._next_at = 0, True, 0.0
        self.spike_at = -NEVER  # game time of the last accepted spike plan (F10, the situation)
        self._last_tick = -1
        self._last_events: list[Any] | None = None  # the events list last folded in (kept: identity check)
        self._carry: list[Any] = []  # events from a step that did not advance the tick
        self.accepted = self.rejected = self.failed = self.superseded = self.event_errors = 0
        self.overridden = 0  # accepted plans the guard replaced (counted in accepted too)
        self.last_plan: DirectorPlan | None = None
        self.last_clamped: tuple[str, ...] = ()
        self.last_error = self.last_announcer = self.last_reason = self.backend = ""
        self.saturation = Saturation((), ())
        self.latency_s: float | None = None
        self.trace_id: str | None = None

    # ------------------------------------------------------------------ modes and sources
    @property
    def mode(self) -> str:
        return self._mode

    @property
    def knobs(self) -> DirectorKnobs:
        return self.credit_spawner.knobs

    @property
    def tuning(self) -> Tuning:
        name = self.difficulty()
        return tuning(name if name in preset_names() else "normal")

    @property
    def telemetry(self) -> Telemetry:
        return self.reader.telemetry

    @property
    def intensity(self) -> IntensityTracker:
        return self.reader.intensity

    @property
    def pacing(self) -> Pacing:
        return self.reader.pacing

    def modes(self) -> tuple[str, ...]:
        return (STATIC, *self._sources)

    def register_source(self, source: PlanSource) -> None:
        """Add (or replace) a plan source; its ``name`` becomes a mode."""
        if not source.name or source.name == STATIC:
            raise SettingsError("director.source", f"invalid source name {source.name!r}")
        self._sources[source.name] = source

    def set_mode(self, name: str, world: World | None = None) -> None:
        """Switch mode (between ticks); with ``world`` the switch is recorded. The act stage applies the new
        mode on the next tick."""
        if name not in self.modes():
            raise SettingsError("director.mode", f"unknown mode '{name}'; known: {', '.join(self.modes())}")
        if name == self._mode:
            return
        self._mode = name
        self.last_error = ""  # an error belongs to the mode that made it: F10 must not show it after a switch
        if self._pending is not None:
            self._drop_pending("mode switch")
        self._urgent = True
        if world is not None and self._recording(world):
            assert self.trajectory is not None
            self.trajectory.mode(world.tick, name)

    def cycle_mode(self, world: World | None = None) -> str:
        modes = self.modes()
        self.set_mode(modes[(modes.index(self._mode) + 1) % len(modes)], world)
        return self._mode

    def active_spawner(self) -> CreditSpawner | WaveSpawner:
        return self.static_spawner if self._mode == STATIC else self.credit_spawner

    def request_now(self, supersede: bool = True) -> None:
        """Decide on the next tick; ``supersede=False`` (a soft cue) lets a request in flight land first."""
        self._urgent = self._urgent or supersede
        self._next_at = self._next_at if supersede else 0.0

    # ------------------------------------------------------------------ the tick
    def on_tick(self, world: World) -> None:
        """Fold in what ``world.step`` just produced. A call with no new step (paused, upgrade screen) does
        nothing: events count once and replies land only on ticks (a replay applies them at the same point);
        events a step delivered without advancing the tick are carried to the next tick."""
        if world.events is self._last_events:
            return
        self._last_events = world.events
        if world.tick == self._last_tick:
            self._carry.extend(world.events)
            return
        self._last_tick = world.tick
        events = world.events
        if self._carry:
            events, self._carry = [*self._carry, *events], []
        self.spawn_log.add(world.time, events)
        static = self._mode == STATIC
        read = self.read = self.reader.update(world, events, 1.0 if static else self.knobs.pressure)
        if read.new_peak:
            self.events.note_peak(world.time)
        falling = (
            read.falling and read.time - self._fall_cue >= self.tuning.read.fall_s
        )  # again while it falls
        if falling:
            self._fall_cue = read.time
        if read.died or read.new_build_up or falling:
            self.request_now(
                supersede=read.died
            )  # a reply in flight still lands first unless the player died
        if world.tick % (TICK_HZ // HISTORY_HZ) == 0:
            self._history.add(world.time, read.intensity, read.pacing)
        if static:
            self.actuator.off(world, self.credit_spawner)
            return
        adjustments = [self.grace.tick(read, world), self.rescue.tick(read, world)]  # read -> reflexes
        self._poll(world)  # decide: a plan that landed sets the knobs
        if self._urgent or world.time >= self._next_at:
            self._request(world)
        self.actuator.act(world, read, self.knobs, adjustments, self.credit_spawner, self.events)  # act

    def situation(self, world: World) -> DirectorSituation:
        return DirectorSituation(
            snapshot=self.telemetry.snapshot(world),
            intensity=round(self.intensity.value, 4),
            pacing=self.pacing.state,
            pacing_s=round(self.pacing.time_in_state, 2),
            since_spike_s=round(min(NEVER, world.time - self.spike_at), 2),
            since_peak_s=round(min(NEVER, self.pacing.since_peak), 2),
            knobs=self.knobs,
            memory=self.memory.notes(),
            prefabs=list(self.spawnable(world)),
            events=list(self.events.ready(world)),  # only what may fire now (not on cooldown)
        )

    def spawnable(self, world: World) -> tuple[str, ...]:
        return world.prefabs.regular

    def _request(self, world: World) -> None:
        pending = self._pending
        if pending is not None:
            young = world.time - pending.asked_at < max(PENDING_MAX_S, self._deadline(pending))
            if young and not self._urgent:
                self._next_at = world.time + self.decision_interval_s
                return
            self._drop_pending("a newer request")
        self._urgent = False
        self._next_at = world.time + self.decision_interval_s
        self._seq += 1
        trace = f"dir-s{self.seed}-{self._seq:04d}"
        req = PlanRequest(seq=self._seq, trace_id=trace, tick=world.tick, situation=self.situation(world))
        source = self._sources[self._mode]
        try:
            future = source.request(req)
        except Exception as exc:  # a source must not take the game down
            self._fail(world, req, source.name, f"request failed: {exc}")
            return
        self._pending = Pending(req, future, source.name, world.time)
        self._poll(world)

    def _drop_pending(self, why: str) -> None:
        p = self._pending
        self._pending = None
        if p is None:
            return
        p.future.cancel()
        self.superseded += 1
        self._log.bind(trace_id=p.req.trace_id).info("request {} superseded by {}", p.req.seq, why)

    def _deadline(self, p: Pending) -> float:
        """How long ``p``'s source says a decision of its own may take (its measured latency); 0: no say."""
        limit = getattr(self._sources.get(p.source), "deadline_s", None)
        return float(limit) if isinstance(limit, (int, float)) else 0.0

    def _poll(self, world: World) -> None:
        p = self._pending
        if p is None:
            return
        if not p.future.done():
            if (limit := self._deadline(p)) and world.time - p.asked_at > limit:
                self._drop_pending(f"its {limit:.1f}s deadline passing")
            return
        self._pending = None
        out = collect(p.future)
        if out.timed_out:
            self.superseded += 1
            self.last_error = out.timed_out
            self._log.bind(trace_id=p.req.trace_id).info("request {} timed out: {}", p.req.seq, out.timed_out)
        elif out.reply is None:
            self._fail(world, p.req, p.source, out.error)
        else:
            self._apply_reply(world, p.req, out.reply)

    def apply_external(self, world: World, plan: dict[str, Any], source: str = "external") -> dict[str, Any]:
        """An outside agent (MCP) acts as the director: its plan takes the in-game agent's path: the same
        validation, clamping, counters and trajectory record. Call on the main thread."""
        self._seq += 1
        trace = f"{source}-{self._seq}"
        req = PlanRequest(seq=self._seq, trace_id=trace, tick=world.tick, situation=self.situation(world))
        before = self.accepted
        raw = json.dumps(plan, default=str)[:4000]
        self._apply_reply(world, req, PlanReply(raw, plan, source, 0.0, trace))
        if self.accepted == before:
            return {"ok": False, "error": self.last_error, "trace_id": trace}
        out = {"ok": True, "trace_id": trace, "knobs": self.knobs.model_dump(mode="json")}
        return {**out, "clamped": list(self.last_clamped), "mode": self._mode}

    # ------------------------------------------------------------------ validation and application
    def _apply_reply(self, world: World, req: PlanRequest, reply: PlanReply) -> None:
        trace = req.trace_id
        log = self._log.bind(trace_id=trace)
        self.backend, self.latency_s, self.trace_id = reply.backend, reply.latency_s, trace
        try:
            vp, verdict = vet_reply(
                req,
                reply,
                self.knobs,
                prefabs=self.spawnable(world),
                events=self.events.names(),
                event_not_ready=lambda name: self.events.not_ready(name, world),
                tuning=self.tuning,
            )
        except ToolArgumentError as exc:
            self.rejected += 1
            self.last_error = str(exc)
            log.warning("plan from {} rejected: {}", reply.backend, exc)
            self._record(world, req, reply, "rejected", error=str(exc))
            return
        self.last_announcer = ""  # a plan without a line clears the last one: a HOLD never says "bolder"
        self.execute(world, vp.commands)
        self._track_saturation(log)
        self.accepted += 1
        self.last_plan, self.last_reason, self.last_clamped = vp.plan, vp.plan.reason, vp.clamped
        self.spike_at = world.time if vp.plan.pressure == "spike" else self.spike_at
        if verdict is not None:
            self.overridden += 1
            log.info("plan {} from {} overridden: {}", req.seq, reply.backend, verdict.reason())
            self._record(world, req, reply, "guarded", vp=vp, guarded=verdict.as_record())
            return
        log.info("plan {} from {}: {} ({})", req.seq, reply.backend, vp.plan.pressure, vp.plan.reason)
        self._record(world, req, reply, "accepted", vp=vp)

    def _track_saturation(self, log: Any) -> None:
        before, self.saturation = self.saturation, saturation(self.knobs)
        log_changes(before, self.saturation, log)

    def execute(self, world: World, commands: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> None:
        """Apply validated commands (from ``validate_plan``) to the spawner, the world and the memory."""
        for cmd in commands:
            op = cmd["op"]
            if op == "set_knobs":
                self.credit_spawner.knobs = DirectorKnobs.model_validate(
                    {k: v for k, v in cmd.items() if k != "op"}
                )
            elif op == "burst":
                self.credit_spawner.burst(world, float(cmd["credits"]))
            elif op == "event":
                try:
                    self.events.fire(cmd["name"], world, self.credit_spawner.placer)
                except Exception as exc:  # a mod's event handler must not take the game down
                    self.event_errors += 1
                    self.last_error = f"event '{cmd['name']}' failed: {exc}"
                    self._log.error("{}", self.last_error)
            elif op == "note":
                self.memory.add(str(cmd["text"]))
            elif op == "announce":
                self.last_announcer = str(cmd["text"])
                self._announce.append(self.last_announcer)

    def _fail(self, world: World, req: PlanRequest, backend: str, error: str) -> None:
        self.failed += 1
        self.last_error = error
        log = self._log.bind(trace_id=req.trace_id)
        log.warning("plan request {} to {} failed: {}", req.seq, backend, error)
        self._record(world, req, PlanReply("", None, backend, 0.0, req.trace_id), "failed", error=error)

    def _record(
        self,
        world: World,
        req: PlanRequest,
        reply: PlanReply,
        status: DecisionStatus,
        *,
        vp: ValidatedPlan | None = None,
        error: str = "",
        guarded: dict[str, str] | None = None,
    ) -> None:
        spawns = self.spawn_log.take()  # the spawns since the last decision, by cause
        if self._recording(world):
            assert self.trajectory is not None
            tick = world.tick
            rec = decision_record(req, reply, status, applied_tick=tick, vp=vp, error=error, guarded=guarded)
            self.trajectory.decision(rec.model_copy(update={"spawns": spawns}))

    def _recording(self, world: World) -> bool:
        """Whether the trajectory still records: past ``MAX_TICK`` (a session longer than a replay may run,
        in a window or over MCP) it stops, and the run goes on unrecorded."""
        if self.trajectory is None:
            return False
        if world.tick > MAX_TICK:
            logger.bind(feature="director").info("trajectory stops at tick {}: replay limit", world.tick)
            self.trajectory = None
            return False
        return True

    # ------------------------------------------------------------------ what the UI reads
    def pop_announcements(self) -> list[str]:
        """Announcer lines that landed since the last call (for the toast), oldest first."""
        out = list(self._announce)
        self._announce.clear()
        return out

    @property
    def history(self) -> IntensityHistory:
        return self._history

    @property
    def pending(self) -> bool:
        return self._pending is not None

    def prompt_line(self) -> str:
        return str(getattr(self._sources.get(self._mode), "prompt_line", "") or "")

    def next_decision_in(self, world: World) -> float:
        return max(0.0, self._next_at - world.time)

    def panel(self, world: World) -> DirectorPanel:
        """The F10 panel's view of the director now (main thread)."""
        static = self.mode == STATIC
        acted = self.actuator.state
        return DirectorPanel(
            mode=self.mode,
            modes=self.modes(),
            backend=self.backend,
            intensity=self.intensity.value,
            pacing=self.pacing.state,
            pacing_s=self.pacing.time_in_state,
            history=self.history.samples(),
            knobs=self.knobs,
            credits=self.credit_spawner.credits,
            credits_per_s=0.0 if static else self.credit_spawner.credits_per_second(world),
            last_plan=self.last_plan,
            last_reason=self.last_reason,
            last_clamped=self.last_clamped,
            last_error=self.last_error,
            latency_s=self.latency_s,
            trace_id=self.trace_id,
            accepted=self.accepted,
            rejected=self.rejected,
            failed=self.failed,
            superseded=self.superseded,
            overridden=self.overridden,
            prompt=self.prompt_line(),
            pending=self.pending,
            last_announcer=self.last_announcer,
            memory=tuple(self.memory.notes()),
            next_decision_in=self.next_decision_in(world),
            skill=self.telemetry.skill.value,
            skill_signals=self.telemetry.skill.last,
            saturation=self.saturation,
            acting="" if static else acted_text(acted),
            limits="" if static else limits_text(acted, world.enemies.n),
            spawns=spawns_text(self.spawn_log.recent()),
        )
