"""The plan-request lifecycle: ``PlanRequests``, mixed into ``Director`` (whose loop calls ``_decide``).

One request is in flight at a time. Latest wins: a soft cue waits while a request younger than
``PENDING_MAX_S`` (or its source's deadline) is in flight, an urgent one (a death, a mode switch, a new
run) supersedes it. The future is polled each tick (a timeout is a late reply: superseded); a reply is
vetted (``validate.vet_reply``), its commands are applied, and every outcome is counted and recorded in the
trajectory. The counters and ``last_*`` fields
are the director's public state (F10, the eval, the tests).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any

from loguru import logger

from coreai.errors import LlmError, LlmErrorCode, ToolArgumentError
from game.director.events import EventRegistry
from game.director.memory import DirectorMemory
from game.director.plan import DirectorKnobs, DirectorPlan
from game.director.read import Reader
from game.director.saturation import Saturation, log_changes, saturation
from game.director.source import DirectorSituation, PlanReply, PlanRequest, PlanSource, ReplyFuture
from game.director.spawn_log import SpawnLog
from game.director.telemetry import NEVER
from game.director.trajectory import MAX_TICK, DecisionRecord, DecisionStatus, TrajectorySink
from game.director.tuning import Tuning
from game.director.validate import ValidatedPlan, vet_reply
from game.sim.spawner import CreditSpawner
from game.sim.world import World

PENDING_MAX_S = 25.0  # a scheduled request supersedes one in flight this old (or past its source's deadline)
MAX_ANNOUNCEMENTS = 8  # announcer lines kept for the toast between two reads

_log = logger.bind(feature="director", trace_id="-")


@dataclass
class Pending:
    """The request in flight."""

    req: PlanRequest
    future: ReplyFuture
    source: str
    asked_at: float  # game time


class PlanRequests:
    """Ask, poll, vet, apply, record. Uses these parts of the ``Director`` it is mixed into:"""

    seed: int
    decision_interval_s: float
    trajectory: TrajectorySink | None
    events: EventRegistry
    memory: DirectorMemory
    reader: Reader
    credit_spawner: CreditSpawner
    spawn_log: SpawnLog
    _sources: dict[str, PlanSource]
    _mode: str

    @property
    def tuning(self) -> Tuning:
        raise NotImplementedError  # the director's: the player's preset

    def _reset_requests(self) -> None:
        """A new run: the request in flight is dropped, the counters and the last plan start over."""
        if getattr(self, "_pending", None) is not None:
            self._drop_pending("new run")
        self._announce: deque[str] = deque(maxlen=MAX_ANNOUNCEMENTS)
        self._pending: Pending | None = None
        self._seq, self._urgent, self._next_at = 0, True, 0.0
        self.spike_at = -NEVER  # game time of the last accepted spike plan (F10, the situation)
        self.accepted = self.rejected = self.failed = self.superseded = self.event_errors = 0
        self.overridden = 0  # accepted plans the guard replaced (counted in accepted too)
        self.last_plan: DirectorPlan | None = None
        self.last_clamped: tuple[str, ...] = ()
        self.last_error = self.last_announcer = self.last_reason = self.backend = ""
        self.saturation = Saturation((), ())
        self.latency_s: float | None = None
        self.trace_id: str | None = None

    def _mode_switched(self, world: World | None) -> None:
        """The mode just changed: drop its request, decide at once, record the switch (with ``world``)."""
        self.last_error = ""  # an error belongs to the mode that made it: F10 must not show it after a switch
        if self._pending is not None:
            self._drop_pending("mode switch")
        self._urgent = True
        if world is not None and self._recording(world):
            assert self.trajectory is not None
            self.trajectory.mode(world.tick, self._mode)

    @property
    def knobs(self) -> DirectorKnobs:
        knobs = self.credit_spawner.knobs
        assert isinstance(knobs, DirectorKnobs)  # the director's spawner holds the director's knobs
        return knobs

    @property
    def pending(self) -> bool:
        return self._pending is not None

    def wait_pending(self, timeout_s: float) -> bool:
        """Block until the request in flight has its reply (lockstep evaluation: the game waits for the
        model); True when nothing is pending any more or the reply is in (it lands on the next tick)."""
        try:
            if self._pending is not None:
                self._pending.future.result(timeout=timeout_s)
        except TimeoutError:
            return False
        except Exception:  # a failed or cancelled request is done too: the next poll records it
            pass
        return True

    def next_decision_in(self, world: World) -> float:
        return max(0.0, self._next_at - world.time)

    def request_now(self, supersede: bool = True) -> None:
        """Decide on the next tick; ``supersede=False`` (a soft cue) lets a request in flight land first."""
        self._urgent = self._urgent or supersede
        self._next_at = self._next_at if supersede else 0.0

    def situation(self, world: World) -> DirectorSituation:
        intensity, pacing = self.reader.intensity, self.reader.pacing
        return DirectorSituation(
            snapshot=self.reader.telemetry.snapshot(world),
            intensity=round(intensity.value, 4),
            pacing=pacing.state,
            pacing_s=round(pacing.time_in_state, 2),
            since_spike_s=round(min(NEVER, world.time - self.spike_at), 2),
            since_peak_s=round(min(NEVER, pacing.since_peak), 2),
            knobs=self.knobs,
            memory=self.memory.notes(),
            prefabs=list(world.prefabs.regular),
            events=list(self.events.ready(world)),  # only what may fire now (not on cooldown)
        )

    # ------------------------------------------------------------------ ask and poll
    def _decide(self, world: World) -> None:
        """A plan that landed sets the knobs; a decision due (or urgent) is asked for."""
        self._poll(world)
        if self._urgent or world.time >= self._next_at:
            self._request(world)

    def _request(self, world: World) -> None:
        pending = self._pending
        self._next_at = world.time + self.decision_interval_s
        if pending is not None:
            young = world.time - pending.asked_at < max(PENDING_MAX_S, self._deadline(pending))
            if young and not self._urgent:
                return
            self._drop_pending("a newer request")
        self._urgent = False
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
        _log.bind(trace_id=p.req.trace_id).info("request {} superseded by {}", p.req.seq, why)

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
        try:
            reply = p.future.result(timeout=0)
        except LlmError as exc:
            if exc.code is not LlmErrorCode.TIMEOUT:
                self._fail(world, p.req, p.source, f"{type(exc).__name__}: {exc}")
                return
            self.superseded += 1
            self.last_error = str(exc)
            _log.bind(trace_id=p.req.trace_id).info("request {} timed out: {}", p.req.seq, exc)
        except Exception as exc:
            self._fail(world, p.req, p.source, f"{type(exc).__name__}: {exc}")
        else:
            if isinstance(reply, PlanReply):
                self._apply_reply(world, p.req, reply)
            else:
                self._fail(world, p.req, p.source, f"source returned {type(reply).__name__}, not PlanReply")

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

    # ------------------------------------------------------------------ vet, apply, record
    def _apply_reply(self, world: World, req: PlanRequest, reply: PlanReply) -> None:
        trace = req.trace_id
        log = _log.bind(trace_id=trace)
        self.backend, self.latency_s, self.trace_id = reply.backend, reply.latency_s, trace
        try:
            vp, verdict = vet_reply(
                req,
                reply,
                self.knobs,
                prefabs=world.prefabs.regular,
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
        before, self.saturation = self.saturation, saturation(self.knobs)
        log_changes(before, self.saturation, log)
        self.accepted += 1
        self.last_plan, self.last_reason, self.last_clamped = vp.plan, vp.plan.reason, vp.clamped
        self.spike_at = world.time if vp.plan.pressure == "spike" else self.spike_at
        if verdict is not None:
            self.overridden += 1
            log.info("plan {} from {} overridden: {}", req.seq, reply.backend, verdict.reason())
            self._record(world, req, reply, "guarded", vp=vp, guarded=asdict(verdict))
            return
        log.info("plan {} from {}: {} ({})", req.seq, reply.backend, vp.plan.pressure, vp.plan.reason)
        self._record(world, req, reply, "accepted", vp=vp)

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
                    self.events.fire(
                        cmd["name"], world, self.credit_spawner.placer, self.credit_spawner.toughen_from
                    )
                except Exception as exc:  # a mod's event handler must not take the game down
                    self.event_errors += 1
                    self.last_error = f"event '{cmd['name']}' failed: {exc}"
                    _log.error("{}", self.last_error)
            elif op == "note":
                self.memory.add(str(cmd["text"]))
            elif op == "announce":
                self.last_announcer = str(cmd["text"])
                self._announce.append(self.last_announcer)

    def pop_announcements(self) -> list[str]:
        """Announcer lines that landed since the last call (for the toast), oldest first."""
        out = list(self._announce)
        self._announce.clear()
        return out

    def _fail(self, world: World, req: PlanRequest, backend: str, error: str) -> None:
        self.failed += 1
        self.last_error = error
        _log.bind(trace_id=req.trace_id).warning("plan request {} to {} failed: {}", req.seq, backend, error)
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
        """The trajectory's line for any outcome (accepted, guarded, rejected, failed)."""
        spawns = self.spawn_log.take()  # the spawns since the last decision, by cause
        if not self._recording(world):
            return
        assert self.trajectory is not None
        s = req.situation
        record = DecisionRecord(
            seq=req.seq,
            trace_id=req.trace_id,
            backend=reply.backend,
            status=status,
            request_tick=req.tick,
            applied_tick=world.tick,
            prompt_hash=s.prompt_hash(),
            snapshot=s.snapshot,
            intensity=s.intensity,
            pacing=s.pacing.value,
            raw=reply.raw,
            reply_plan=reply.plan,
            plan=vp.plan.model_dump() if vp else None,
            clamped=list(vp.clamped) if vp else [],
            commands=list(vp.commands) if vp else [],
            error=error,
            latency_s=round(reply.latency_s, 6),
            guard=guarded,
            spawns=spawns,
        )
        self.trajectory.decision(record)

    def _recording(self, world: World) -> bool:
        """Whether the trajectory still records: past ``MAX_TICK`` (a session longer than a replay may run,
        in a window or over MCP) it stops, and the run goes on unrecorded."""
        if self.trajectory is not None and world.tick > MAX_TICK:
            _log.info("trajectory stops at tick {}: replay limit", world.tick)
            self.trajectory = None
        return self.trajectory is not None
