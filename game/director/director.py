"""The AI director: owns telemetry, intensity, pacing and the credit spawner, and applies plans from a source.

Call ``director.on_tick(world)`` once per simulation tick on the main thread (after ``world.step``) and build
the world with ``spawner=director.spawner``. Decisions are requested every ``DECISION_INTERVAL_S`` s of game
time and at once on a wave start, a player death, a new Build Up or a mode switch. ``source.request`` returns
a future; the director polls it each tick and keeps running the last plan meanwhile. Latest wins: a scheduled
request or a soft cue (``request_now(supersede=False)``: a wave start, a new Build Up) waits while one younger
than ``PENDING_MAX_S`` is in flight; an urgent one (a death, a mode switch) supersedes it; a superseded reply
is never applied. Replies go through ``pipeline.py`` (validation, guard, record); a rejected or failed one is
logged and counted, the previous plan keeps running.
``watch.PlayerWatch`` acts every tick between decisions. Modes: ``static`` (the ``WaveSpawner``), ``rules``,
any ``register_source`` one; ``set_mode``/F6 switch.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from loguru import logger

from coreai.errors import SettingsError, ToolArgumentError
from game.director.events import EventRegistry
from game.director.intensity import IntensityTracker
from game.director.memory import DirectorMemory
from game.director.pacing import Pacing, PacingState
from game.director.panel import HISTORY_HZ, DirectorPanel, IntensityHistory, build_panel
from game.director.pipeline import Pending, collect, decision_record, vet_reply
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.routing import DirectorSpawner
from game.director.rules import RulesSource
from game.director.saturation import Saturation, log_changes, saturation
from game.director.source import DirectorSituation, PlanReply, PlanRequest, PlanSource
from game.director.spawn_log import SpawnLog
from game.director.spawner import CreditSpawner, clear_cap_for
from game.director.telemetry import NEVER, Telemetry
from game.director.trajectory import MAX_TICK, DecisionStatus, TrajectorySink
from game.director.validate import ValidatedPlan
from game.director.watch import PlayerWatch
from game.sim.config import DT, TICK_HZ
from game.sim.spawner import WaveSpawner
from game.sim.world import World

STATIC = "static"
DECISION_INTERVAL_S = 10.0
EARLY_DECISION_S = 60.0  # in the first minute of a run ...
EARLY_INTERVAL_FRACTION = 0.5  # ... decisions come twice as often (the skill estimate moves fastest then)
OPENING_PRESSURE = 0.6  # a run starts gently; the first plans raise it within seconds for a coasting player
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
    ) -> None:
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
        self.telemetry = Telemetry()
        self.spawn_log = SpawnLog()
        self.intensity = IntensityTracker()
        self.pacing = Pacing(seed)
        self.events.new_run()
        self.credit_spawner = CreditSpawner(DirectorKnobs(pressure=OPENING_PRESSURE))
        self.static_spawner = WaveSpawner()
        self.spawner = DirectorSpawner(self)
        self.watch = PlayerWatch(self.credit_spawner)
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

    def modes(self) -> tuple[str, ...]:
        return (STATIC, *self._sources)

    def register_source(self, source: PlanSource) -> None:
        """Add (or replace) a plan source; its ``name`` becomes a mode."""
        if not source.name or source.name == STATIC:
            raise SettingsError("director.source", f"invalid source name {source.name!r}")
        self._sources[source.name] = source

    def set_mode(self, name: str, world: World | None = None) -> None:
        """Switch mode (between ticks); with ``world`` the switch is recorded and params follow at once."""
        if name not in self.modes():
            raise SettingsError("director.mode", f"unknown mode '{name}'; known: {', '.join(self.modes())}")
        if name == self._mode:
            return
        self._mode = name
        self.last_error = ""  # an error belongs to the mode that made it: F10 must not show it after a switch
        if self._pending is not None:
            self._drop_pending("mode switch")
        self._urgent = True
        if world is not None:
            world.set_param("pickup_rate_mult", 1.0 if name == STATIC else self.knobs.pickup_rate)
            if self._recording(world):
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
        tel = self.telemetry
        tel.pressure = 1.0 if self._mode == STATIC else self.knobs.pressure
        tel.update(world, events)
        value = self.intensity.update(
            events, hp_fraction=tel.hp_fraction, max_hp=tel.max_hp, engaged=tel.engaged, dt=DT
        )
        before = self.pacing.state
        self.credit_spawner.pacing = self.pacing.update(value, DT)
        self.credit_spawner.clear_cap = clear_cap_for(tel.kills_per_min)
        new_build_up = self.pacing.state is not before and self.pacing.state is PacingState.BUILD_UP
        if self.pacing.state is not before and self.pacing.state is PacingState.SUSTAIN_PEAK:
            self.events.note_peak(world.time)
        if tel.died or new_build_up:  # decide now; a reply in flight still lands first unless the player died
            self.request_now(supersede=tel.died)
        if world.tick % (TICK_HZ // HISTORY_HZ) == 0:
            self._history.add(world.time, value, self.pacing.state)
        self.watch.tick(self, world)
        if self._mode == STATIC:
            return
        self._poll(world)
        if self._urgent or world.time >= self._next_at:
            self._request(world)

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
                self._next_at = world.time + self._interval(world)
                return
            self._drop_pending("a newer request")
        self._urgent = False
        self._next_at = world.time + self._interval(world)
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

    def _interval(self, world: World) -> float:
        return self.decision_interval_s * (EARLY_INTERVAL_FRACTION if world.time < EARLY_DECISION_S else 1.0)

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
                knobs = DirectorKnobs.model_validate({k: v for k, v in cmd.items() if k != "op"})
                self.credit_spawner.knobs = knobs
                world.set_param("pickup_rate_mult", knobs.pickup_rate)
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
    def announce(self, line: str) -> None:
        """Queue a line for the announcer toast (the watch's hints to the player)."""
        self._announce.append(line)

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
        return build_panel(self, world)
