"""The agent's game-time and input tools: ``sim_control`` and ``player_input`` (one ``Tool`` each, grouped by
``action`` like ``world_command``). Every call reaches the game through ``CallOnMain`` on the one main-loop
queue; a step waits for its answer here (on the caller's worker thread), never on the main thread.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from coreai.commands import CallOnMain
from coreai.tools.base import Tool, ToolContext
from game.errors import PlayRefused
from game.play.agent_input import AgentInput
from game.play.controller import (
    DEFAULT_UNTIL_TICKS,
    DEFAULT_WALL_S,
    MAX_STEP_TICKS,
    MAX_WALL_S,
    PlayController,
)
from game.play.journal import EVENT_NAMES
from game.play.keys import HELD_ACTIONS, KeyAction
from game.sim.config import TICK_HZ

EventName = Literal[
    "wave_end", "wave_start", "player_hit", "enemy_killed", "level_up", "player_died", "run_won", "weapon"
]
assert set(EventName.__args__) == set(EVENT_NAMES)  # type: ignore[attr-defined]
ANSWER_GRACE_S = 30.0  # a step past its wall-time limit that still has not answered: the loop is stuck
POLL_S = 0.02

SIM_CONTROL = """\
Control game time. The game runs at a fixed 60 ticks per second; freeze it, then step exactly:
- state: the digest below, nothing changes.
- freeze / thaw: stop or restart the simulation (the window keeps drawing; calls are always served).
- step: advance `ticks` ticks (or `seconds` of game time), then stay frozen.
- step_until: advance until `until_event` happens (wave_end, player_hit, enemy_killed, level_up,
  player_died, run_won, wave_start, weapon) and/or the Lua expression `until_lua` is true (it may read
  game.state(), e.g. "game.state().enemies_alive == 0"), at most `max_ticks` ticks (default 3600 = 60 s).
  Every step also ends after `max_wall_s` seconds of real time (default 45; stopped: "wall_time"), and at
  the next tick when you cancel the request (stopped: "cancelled"); it answers with the ticks it did.
- set_speed: how fast a running (thawed) game goes: 0.25 to 8 times real time; headless also 0 = as fast as
  possible. Steps go as fast as the simulation allows, in a window as headless.
- fork: a new run from a recorded one (`run`, an id from arena://runs): its first `tick` ticks replayed
  with the recorded input, then frozen there with `director` (a mode; default the recorded one). replay:
  the same up to the recorded run's end. The answer says whether the replay was `identical` to the record.
Every answer is the digest of the last tick: tick, time, phase, wave, hp, pos, the nearest enemies (offset
dx/dy from the player, distance), upgrade choices when a pick is open, and `events` since your last call;
steps add `stopped` (why the step ended) and `stepped` (ticks).
Example: {"action": "step_until", "until_event": ["enemy_killed"], "max_ticks": 600}"""

PLAYER_INPUT = """\
Play: press keys the way a human does (the same input path). Keys: move_up, move_down, move_left,
move_right, shoot, dash (held keys), pick_1..pick_3 (take an offered upgrade), shop_buy (with `item`: id,
name or shelf number), next_wave (leave the shop).
- press / release: hold a key down / let it go from the next tick on (release_all: every key).
- hold: hold `key` for `ticks` ticks, stepping the game that long, then let go.
- tap: hold for one tick; for pick_N / shop_buy / next_wave, do it now.
- aim: aim at `x`,`y` (`space` "world": arena units, the default; "screen": a pixel of the 1280x720 view
  centred on the player, origin bottom left, like a mouse on an unresized window).
- sequence: `steps` = [{"at": tick offset, "op": "press"|"release"|"aim", "key": ..., "x":, "y":}], run for
  `ticks` ticks (default: the last offset + 1).
Each answer says `applied_at_tick` (the first tick that sees the input) and the resulting digest. Refused,
with the reason: input to a dead player, a held key while a pick or the shop is open, shop_buy when the shop
is closed.
Example: {"action": "hold", "key": "move_right", "ticks": 60}"""


class SimControlArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Literal["state", "freeze", "thaw", "step", "step_until", "set_speed", "fork", "replay"]
    ticks: int | None = Field(None, ge=1, le=MAX_STEP_TICKS, description="step: ticks to advance (60 = 1 s)")
    seconds: float | None = Field(None, gt=0, le=MAX_STEP_TICKS / TICK_HZ, description="step: game seconds")
    until_event: list[EventName] | None = Field(None, max_length=7, description="step_until: stop on any")
    until_lua: str | None = Field(
        None, min_length=1, max_length=2000, description="step_until: a Lua expression, checked every tick"
    )
    max_ticks: int = Field(DEFAULT_UNTIL_TICKS, ge=1, le=MAX_STEP_TICKS, description="step_until's limit")
    speed: float | None = Field(None, ge=0, le=1000, description="set_speed: 0.25-8 (headless: 0 = max)")
    run: str | None = Field(None, min_length=1, max_length=120, description="fork / replay: a run id")
    tick: int | None = Field(None, ge=1, le=MAX_STEP_TICKS, description="fork: the tick to fork at")
    director: str | None = Field(
        None, min_length=1, max_length=64, description="fork: the director mode after"
    )
    max_wall_s: float = Field(
        DEFAULT_WALL_S, gt=0, le=MAX_WALL_S, description="steps: end after this much real time (wall_time)"
    )

    @model_validator(mode="after")
    def _needs(self) -> SimControlArgs:
        if self.action == "step" and (self.ticks is None) == (self.seconds is None):
            raise ValueError("step needs exactly one of 'ticks' or 'seconds'")
        if self.action == "step_until" and not self.until_event and not self.until_lua:
            raise ValueError("step_until needs 'until_event' and/or 'until_lua'")
        if self.action == "set_speed" and self.speed is None:
            raise ValueError("set_speed needs 'speed'")
        if self.action == "fork" and (self.run is None or self.tick is None):
            raise ValueError("fork needs 'run' and 'tick'")
        if self.action == "replay" and self.run is None:
            raise ValueError("replay needs 'run'")
        return self


class SeqStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    at: int = Field(ge=0, le=MAX_STEP_TICKS, description="tick offset from the first stepped tick")
    op: Literal["press", "release", "aim"]
    key: KeyAction | None = None
    x: float | None = None
    y: float | None = None


class PlayerInputArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Literal["press", "release", "release_all", "hold", "tap", "aim", "sequence"]
    key: KeyAction | None = None
    ticks: int | None = Field(None, ge=1, le=MAX_STEP_TICKS, description="hold / sequence: ticks to step")
    x: float | None = None
    y: float | None = None
    space: Literal["world", "screen"] = "world"
    item: str | None = Field(None, min_length=1, max_length=64, description="shop_buy: id, name or 1-9")
    steps: list[SeqStep] | None = Field(None, max_length=200)
    max_wall_s: float = Field(
        DEFAULT_WALL_S, gt=0, le=MAX_WALL_S, description="hold / sequence: end after this much real time"
    )

    @model_validator(mode="after")
    def _needs(self) -> PlayerInputArgs:
        if self.action in ("press", "release", "hold", "tap") and self.key is None:
            raise ValueError(f"{self.action} needs 'key'")
        if self.action == "hold" and self.ticks is None:
            raise ValueError("hold needs 'ticks'")
        if self.action == "aim" and (self.x is None or self.y is None):
            raise ValueError("aim needs 'x' and 'y'")
        if self.action == "sequence" and not self.steps:
            raise ValueError("sequence needs 'steps'")
        for s in self.steps or ():
            if s.op == "aim" and (s.x is None or s.y is None):
                raise ValueError(f"sequence step at {s.at}: aim needs 'x' and 'y'")
            if s.op != "aim" and s.key is None:
                raise ValueError(f"sequence step at {s.at}: {s.op} needs 'key'")
        return self


def _on_main(ctx: ToolContext, label: str, fn: Any) -> Any:
    return ctx.on_main(CallOnMain(fn=fn, label=label, agent=ctx.role, trace_id=ctx.trace_id))


def _begin(
    ctx: ToolContext, controller: PlayController, label: str, begin: Any, max_wall_s: float
) -> dict[str, Any]:
    """Start a step on the main thread and wait (on this worker thread) for its answer. The step carries
    the call's cancel event (set when the client gives up: it ends at the next tick) and its wall-time
    limit, both checked by the loop every tick."""

    def start() -> concurrent.futures.Future[dict[str, Any]]:
        future: concurrent.futures.Future[dict[str, Any]] = begin()
        req = controller.clock.request
        if req is not None and req.future is future:
            req.cancel = ctx.cancel
            req.wall_deadline = time.monotonic() + max_wall_s
        return future

    future = _on_main(ctx, label, start)
    deadline = time.monotonic() + max_wall_s + ANSWER_GRACE_S
    while True:
        try:
            result: dict[str, Any] = future.result(timeout=POLL_S)
            return result
        except concurrent.futures.TimeoutError:
            pass
        if time.monotonic() > deadline:
            controller.cancel_step()
            raise PlayRefused(
                "sim_control", "the step did not answer after its wall-time limit (is the game loop running?)"
            )


Fork = Callable[[str, int | None, str | None], "concurrent.futures.Future[dict[str, Any]]"]


def sim_control_tool(controller: PlayController, fork: Fork | None = None) -> Tool:
    def invoke(args: SimControlArgs, ctx: ToolContext) -> dict[str, Any]:
        c = controller
        a = args.action
        if a in ("fork", "replay"):
            if fork is None:
                raise PlayRefused("sim_control", "this game cannot fork or replay runs")
            run, tick, director = args.run or "", args.tick if a == "fork" else None, args.director
            forked = lambda: fork(run, tick, director)  # noqa: E731
            return _begin(ctx, c, f"sim_control:{a}", forked, args.max_wall_s)
        if a in ("step", "step_until"):
            if a == "step":
                ticks = args.ticks if args.ticks is not None else max(1, round((args.seconds or 0) * TICK_HZ))
                begin: Any = lambda: c.begin_step(ticks=ticks)  # noqa: E731
            else:
                events = tuple(args.until_event or ())
                lua = args.until_lua
                begin = lambda: c.begin_step(events=events, condition=lua, max_ticks=args.max_ticks)  # noqa: E731
            return _begin(ctx, c, f"sim_control:{a}", begin, args.max_wall_s)
        if a == "set_speed":
            speed = float(args.speed or 0.0)
            result: dict[str, Any] = _on_main(ctx, "sim_control:set_speed", lambda: c.set_speed(speed))
            return result
        fn = {"state": c.state, "freeze": c.freeze, "thaw": c.thaw}[a]
        result = _on_main(ctx, f"sim_control:{a}", fn)
        return result

    return Tool("sim_control", SIM_CONTROL, SimControlArgs, invoke, mutating=True)


def player_input_tool(agent: AgentInput) -> Tool:
    def invoke(args: PlayerInputArgs, ctx: ToolContext) -> dict[str, Any]:
        c = agent
        a, key = args.action, args.key
        label = f"player_input:{a}"
        if a == "hold" or (a == "tap" and key in HELD_ACTIONS):
            ticks = args.ticks if a == "hold" and args.ticks is not None else 1
            assert key is not None
            return _begin(ctx, c.play, label, lambda: c.begin_hold(key, ticks), args.max_wall_s)
        if a == "sequence":
            steps = [
                (s.at, s.op, s.key, None if s.x is None or s.y is None else (s.x, s.y))
                for s in args.steps or ()
            ]
            ticks = args.ticks or max(s[0] for s in steps) + 1
            return _begin(ctx, c.play, label, lambda: c.begin_sequence(steps, ticks), args.max_wall_s)
        if a in ("press", "tap"):
            assert key is not None
            item = args.item
            result: dict[str, Any] = _on_main(ctx, label, lambda: c.press(key, item))
            return result
        if a == "release":
            assert key is not None
            result = _on_main(ctx, label, lambda: c.release(key))
            return result
        if a == "release_all":
            result = _on_main(ctx, label, c.release_all)
            return result
        x, y = float(args.x or 0.0), float(args.y or 0.0)
        result = _on_main(ctx, label, lambda: c.aim(x, y, screen=args.space == "screen"))
        return result

    return Tool("player_input", PLAYER_INPUT, PlayerInputArgs, invoke, mutating=True)
