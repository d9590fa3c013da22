"""The Creator as the player meets it in the chat panel (and ``python -m game ask Creator``): grounded.

A request to change the world becomes one world command (spawn a whitelisted prefab with a count and a
place, move or remove enemies, start a director event) read by ``creator_read`` (the model fills only the
slots it leaves open, through a schema). The command runs through the main-loop queue (the whitelist, the
spawn cap and the rate limit apply) and the answer says what was done, counted from what the queue returned.
A question is answered from the live state and claim-checked (``world_claims``). What the arena cannot do
gets "I can't, because ...". One command per message, one model call at most: it never loops.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from loguru import logger

from coreai.commands import CallOnMain, Destroy, GetState, ListEntities, Move, Spawn
from coreai.errors import CommandRateLimited, CoreAIError, TaskCancelled
from coreai.llm.types import LlmClient, Usage
from coreai.mainloop import MainLoopQueue
from coreai.requests import AgentResult, AiTaskRequest, new_trace_id
from game.agents.creator_read import Command, fill, read_command
from game.agents.facts import game_facts
from game.agents.world_claims import NEAREST_LIMIT, WorldFacts, answer, check_claims

log = logger.bind(feature="agents", trace_id="creator")
WAIT_S = 5.0  # one queue round trip (the game drains it every frame)
MAX_TARGETS = 30  # move / destroy at most this many per message (the queue's rate burst)
PACE_S = (0.15, 6.0)  # a rate-limited command is tried again after this long, until this much time has passed
NEAR = (160.0, 260.0)  # "near you": this far from the player
FAR = 900.0  # "away from me"


class CreatorRunner:
    """``TaskRunner`` for the Creator role."""

    def __init__(
        self,
        llm: LlmClient,
        queue: MainLoopQueue,
        backend_for: Callable[[str], str],
        events: Callable[[], tuple[str, ...]],
        fire_event: Callable[[str], None],
    ) -> None:
        self.llm = llm
        self.queue = queue
        self.backend_for = backend_for
        self.events = events
        self.fire_event = fire_event  # main thread: start a director event now (raises when it may not)
        self.last: Command | None = None

    # -- the queue, from this worker thread -----------------------------------------------------------------
    def _facts(self, trace: str) -> WorldFacts:
        state: dict[str, Any] = self.queue.call(GetState(agent="Creator", trace_id=trace), timeout=WAIT_S)
        enemies = self.queue.call(ListEntities(limit=NEAREST_LIMIT, agent="Creator", trace_id=trace), WAIT_S)
        return WorldFacts.of(state, list(enemies))

    def _command(self, command: Any) -> Any:
        """A world command through the queue, paced: the agent's rate limit makes it wait, not fail."""
        end = time.monotonic() + PACE_S[1]
        while True:
            try:
                return self.queue.call(command, WAIT_S)
            except CommandRateLimited:
                if time.monotonic() >= end:
                    raise
                time.sleep(PACE_S[0])

    def run(self, request: AiTaskRequest, cancel: threading.Event) -> AgentResult:
        trace = request.trace_id or new_trace_id()
        started = time.perf_counter()
        if cancel.is_set():
            raise TaskCancelled(
                "cancelled before it started", scope=request.cancellation_scope, trace_id=trace
            )
        backend = self.backend_for("Creator")
        try:
            text, ok = self._handle(request.hint, trace, offline=backend == "stub")
        except CoreAIError as exc:
            text, ok = f"I can't do that right now, because the game did not answer: {exc}", False
        log.info("creator: {!r} -> {}", request.hint[:80], text, trace_id=trace)
        return AgentResult(
            trace_id=trace, role="Creator", content=text, stop_reason="answered" if ok else "tool_errors",
            tool_calls=(), backend=backend, rounds=1, usage=Usage(), duration_s=time.perf_counter() - started,
        )  # fmt: skip

    def _handle(self, text: str, trace: str, *, offline: bool) -> tuple[str, bool]:
        facts = game_facts()
        events = self.events()
        cmd = read_command(text, facts, events)
        if cmd.action == "question":
            world = self._facts(trace)
            said, known = answer(text, world)
            wrong = check_claims(said, world)
            if wrong:  # never state a false number: say what is known instead
                return "I can't answer that reliably right now, because " + wrong[0] + ".", False
            self.last = cmd
            return said, known
        if cmd.missing and not cmd.cant:
            if offline:
                what = "do" if "action" in cmd.missing else "spawn"
                return (
                    f"I can't do that offline, because I could not tell what to {what} and I have no model.",
                    False,
                )
            cmd = fill(text, cmd, self.llm, facts, events)
        self.last = cmd
        if cmd.cant is not None or cmd.action == "none":
            return f"I can't do that, because {cmd.cant or 'it is not a world command'}.", False
        if cmd.action == "event":
            assert cmd.event is not None
            name = cmd.event
            try:
                self.queue.call(CallOnMain(fn=lambda: self.fire_event(name), label="creator-event"), WAIT_S)
            except CoreAIError as exc:
                return f"I can't start '{name}' now, because {getattr(exc, 'reason', None) or exc}.", False
            after = self._facts(trace)
            return f"Started the '{name}' event. {after.count(None)} enemies are alive now.", True
        world = self._facts(trace)
        if cmd.action == "spawn":
            return self._spawn(cmd, world, trace)
        return self._targets(cmd, world, trace)

    # -- the commands ---------------------------------------------------------------------------------------
    def _point(self, place: str, world: WorldFacts, k: int) -> tuple[float, float]:
        s = world.state
        p, arena = s["player"], s.get("arena", {"width": 3200.0, "height": 2400.0})
        w, h = float(arena["width"]), float(arena["height"])
        a = k * 2.39996  # golden angle: spread out
        if place == "edge":
            side = k % 4
            t = ((k * 0.37) % 1.0) * (w if side < 2 else h)
            return [(t, 60.0), (t, h - 60.0), (60.0, t), (w - 60.0, t)][side]
        if place == "center":
            return w / 2 + math.cos(a) * 40 * (k % 3), h / 2 + math.sin(a) * 40 * (k % 3)
        if place == "random":
            return 100 + ((k * 0.618) % 1.0) * (w - 200), 100 + ((k * 0.382 + 0.5) % 1.0) * (h - 200)
        d = FAR if place == "far" else NEAR[0] + (NEAR[1] - NEAR[0]) * ((k % 3) / 2)
        return p["x"] + math.cos(a) * d, p["y"] + math.sin(a) * d

    def _far(self, world: WorldFacts, e: dict[str, Any]) -> tuple[float, float]:
        """A point FAR from the player inside the arena: along the enemy's side first, else turned away."""
        s = world.state
        p, arena = s["player"], s.get("arena", {"width": 3200.0, "height": 2400.0})
        w, h = float(arena["width"]), float(arena["height"])
        base = math.atan2(e["y"] - p["y"], e["x"] - p["x"])
        best = (0.0, p["x"], p["y"])
        for turn in (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 3.14159):
            a = base + turn
            x = min(w - 60.0, max(60.0, p["x"] + math.cos(a) * FAR))
            y = min(h - 60.0, max(60.0, p["y"] + math.sin(a) * FAR))
            d = math.hypot(x - p["x"], y - p["y"])
            if d >= 0.8 * FAR:
                return x, y
            best = max(best, (d, x, y))
        return best[1], best[2]

    def _spawn(self, cmd: Command, world: WorldFacts, trace: str) -> tuple[str, bool]:
        per_call, made, refused = game_facts().spawn_per_call, 0, ""
        left, k = cmd.count, 0
        while left > 0:
            n = min(left, per_call)
            x, y = self._point(cmd.place, world, k)
            try:
                ids = self._command(
                    Spawn(prefab=cmd.prefab or "", x=x, y=y, count=n, agent="Creator", trace_id=trace)
                )
            except CoreAIError as exc:
                refused = str(exc)
                break
            made += len(ids)
            left -= n
            k += 1
        where = {"near_player": "near you", "edge": "at the arena's edge", "center": "in the middle",
                 "random": "around the arena", "far": "far from you"}[cmd.place]  # fmt: skip
        if made == 0:
            return f"I can't spawn that, because the game refused: {refused or 'nothing was spawned'}.", False
        after = self._facts(trace)
        what = (
            f"{made} {cmd.prefab}{'es' if cmd.prefab == 'boss' and made != 1 else 's' if made != 1 else ''}"
        )
        more = f" ({cmd.count - made} refused: {refused})" if made < cmd.count else ""
        return f"Spawned {what} {where}{more}. {after.count(cmd.prefab)} {cmd.prefab}s are alive now.", True

    def _targets(self, cmd: Command, world: WorldFacts, trace: str) -> tuple[str, bool]:
        pool = [e for e in world.enemies if cmd.prefab in (None, e["prefab"])]
        label = f"{cmd.prefab}s" if cmd.prefab else "enemies"
        if not pool:
            return f"I can't {cmd.action} any {label}, because there are none alive.", False
        targets = pool[: min(cmd.count, MAX_TARGETS)]
        done, refused = 0, ""
        for k, e in enumerate(targets):
            try:
                if cmd.action == "destroy":
                    ok = self._command(Destroy(entity_id=e["id"], agent="Creator", trace_id=trace))
                else:
                    if cmd.place == "far":
                        x, y = self._far(world, e)
                    else:
                        x, y = self._point(cmd.place, world, k)
                    ok = self._command(Move(entity_id=e["id"], x=x, y=y, agent="Creator", trace_id=trace))
            except CoreAIError as exc:
                refused = str(exc)
                break
            done += bool(ok)
        verb = "Removed" if cmd.action == "destroy" else "Moved"
        if done == 0:
            return (
                f"I can't {cmd.action} them, because the game refused: {refused or 'they were gone'}.",
                False,
            )
        rest = len(pool) - done
        tail = f" {rest} {label} are still alive." if cmd.action == "destroy" else ""
        where = "" if cmd.action == "destroy" else {
            "near_player": " near you", "edge": " to the edge", "center": " to the middle",
            "random": " around",
            "far": " away from you"}[cmd.place]  # fmt: skip
        noun = label if done != 1 else (cmd.prefab or "enemy")
        return f"{verb} {done} {noun}{where}.{tail}", True
