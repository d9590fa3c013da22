"""Helpers shared by the director tests: quiet worlds, scripted plan sources, a tick loop, a made-up read."""

from __future__ import annotations

import json
import math
from concurrent.futures import Future
from typing import Any

from game.director.director import Director
from game.director.pacing import PacingState
from game.director.read import PlayerRead
from game.director.source import PlanReply, PlanRequest
from game.sim.placement import OFFSCREEN_MARGIN, view_exit
from game.sim.spawner import NullSpawner
from game.sim.world import World


def quiet_world(seed: int = 0) -> World:
    """A world with no spawner and no wave end: every enemy is placed by the test."""
    w = World(seed=seed, spawner=NullSpawner())
    w.wave_time_left = 1e9
    return w


def offscreen_distance(angle: float) -> float:
    """Distance from the player to ``OFFSCREEN_MARGIN`` past the screen's edge along ``angle`` when the view
    is centred on the player (away from the walls; ``spawner.edge_point`` measures near them)."""
    return view_exit(0.0, 0.0, math.cos(angle), math.sin(angle), OFFSCREEN_MARGIN)


def directed_world(director: Director, seed: int = 0) -> World:
    w = World(seed=seed, spawner=director.spawner)
    return w


def a_read(**fields: Any) -> PlayerRead:
    """A ``PlayerRead``: a healthy player who has acted, in Build Up, nothing around (``fields`` override)."""
    base: dict[str, Any] = {
        "time": 60.0,
        "wave": 2,
        "hp": 1.0,
        "falling": False,
        "fell": 0.0,
        "skill": 0.5,
        "intensity": 0.3,
        "pacing": PacingState.BUILD_UP,
        "kill_pace": 30.0,
        "present": 0,
        "boss_in_view": False,
        "acted": True,
        "died": False,
        "new_build_up": False,
        "new_peak": False,
    }
    return PlayerRead(**{**base, **fields})


def tick(director: Director, world: World, n: int = 1) -> None:
    for _ in range(n):
        world.step()
        director.on_tick(world)


def plan(pressure: str = "hold", **fields: Any) -> dict[str, Any]:
    return {"pressure": pressure, "reason": f"test {pressure}", **fields}


class ScriptedSource:
    """Answers each request with the next scripted plan (a dict, a raw string, or an exception), at once."""

    def __init__(self, name: str, replies: list[Any]) -> None:
        self.name = name
        self.replies = list(replies)
        self.requests: list[PlanRequest] = []

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        self.requests.append(req)
        fut: Future[PlanReply] = Future()
        item = self.replies.pop(0) if self.replies else plan("hold")
        if isinstance(item, BaseException):
            fut.set_exception(item)
        elif isinstance(item, str):
            fut.set_result(PlanReply(item, None, self.name, 0.0, req.trace_id))
        else:
            fut.set_result(PlanReply(json.dumps(item), item, self.name, 0.0, req.trace_id))
        return fut


class ManualSource:
    """Hands out futures the test completes itself (a slow backend)."""

    def __init__(self, name: str = "manual") -> None:
        self.name = name
        self.pending: list[tuple[PlanRequest, Future[PlanReply]]] = []

    def request(self, req: PlanRequest) -> Future[PlanReply]:
        fut: Future[PlanReply] = Future()
        self.pending.append((req, fut))
        return fut

    def answer(self, index: int, data: dict[str, Any]) -> None:
        req, fut = self.pending[index]
        fut.set_result(PlanReply(json.dumps(data), data, self.name, 0.5, req.trace_id))
