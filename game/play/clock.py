"""Game time under an agent's control: frozen or running, a speed, and the one step in progress.

The loop that owns the fixed timestep (the arena view in a window, ``game.play.headless`` without one) asks
``may_tick()`` before every tick and ``rate()`` for how fast to go; it never steps a frozen world unless a
``StepRequest`` is in progress. A step ends on the first tick that meets any of its stops (tick target, an
event, a Lua condition, the tick limit) or when the world leaves play (upgrade pick, death); its future
then gets the digest of that last tick, and the clock is frozen again.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MIN_SPEED = 0.25
MAX_WINDOW_SPEED = 8.0
FAST = 0.0  # speed 0: as fast as the CPU allows (headless only)


@dataclass
class StepRequest:
    """One ``step`` / ``step_until`` / ``hold`` in progress (main thread only)."""

    start_tick: int
    until_tick: int | None  # stop once world.tick reaches it (step N ticks / seconds, hold)
    limit_tick: int  # stop here whatever else (step_until's tick limit)
    events: frozenset[str] = frozenset()  # stop on the first journal row of one of these types
    condition: Callable[[], bool] | None = None  # stop once it is true (a Lua expression)
    condition_text: str = ""
    on_tick: Callable[[int], None] | None = None  # before each tick: a scripted sequence's presses
    on_end: Callable[[], None] | None = None  # when it ends: release what a hold pressed
    future: concurrent.futures.Future[dict[str, Any]] = field(default_factory=concurrent.futures.Future)
    matched: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # joins the answer (a fork's divergence check)
    cancel: threading.Event | None = None  # set when the caller gives up: the step ends at the next tick
    wall_deadline: float = float("inf")  # time.monotonic() past which the step ends ("wall_time")

    def given_up(self) -> str | None:
        """Why the step must end now whatever the game does: "cancelled", "wall_time", or None."""
        if self.cancel is not None and self.cancel.is_set():
            return "cancelled"
        if time.monotonic() >= self.wall_deadline:
            return "wall_time"
        return None


class SimClock:
    def __init__(self, *, frozen: bool = False, speed: float = 1.0, headless: bool = False) -> None:
        self.frozen = frozen
        self.headless = headless
        self.speed = speed
        self.request: StepRequest | None = None

    def may_tick(self) -> bool:
        return not self.frozen or self.request is not None

    def check_speed(self, speed: float) -> float:
        if speed == FAST:
            if not self.headless:
                raise ValueError("speed 0 (as fast as possible) is for headless games; a window goes up to 8")
            return FAST
        top = 1000.0 if self.headless else MAX_WINDOW_SPEED
        if not MIN_SPEED <= speed <= top:
            raise ValueError(
                f"speed must be between {MIN_SPEED} and {top:g} (or 0 headless: as fast as possible)"
            )
        return speed

    def describe(self) -> dict[str, Any]:
        return {
            "frozen": self.frozen,
            "speed": "max" if self.speed == FAST else self.speed,
            "stepping": self.request is not None,
        }
