"""Join the grounded agents to a running session: the Programmer's and the Creator's task queues."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from coreai.errors import CommandRejected
from coreai.lua import LuaExecutionEvent
from coreai.taskqueue import QueuedOrchestrator
from game.agents.creator import CreatorRunner
from game.agents.programmer import GroundedProgrammerRunner

if TYPE_CHECKING:
    from game.ai.port import SessionParts


def install_agents(
    session: SessionParts, *, on_lua_event: Callable[[LuaExecutionEvent], None]
) -> tuple[QueuedOrchestrator, QueuedOrchestrator]:
    """``(programmer, creator)`` queues, one task at a time each (a new message replaces an unstarted one)."""
    runtime = session.runtime
    programmer = QueuedOrchestrator(
        GroundedProgrammerRunner(
            runtime.llm, session.lua, runtime.prompts, runtime.router.backend_for, subscribers=(on_lua_event,)
        ),
        max_concurrent=1,
        events=runtime.events,
    )

    def fire_event(name: str) -> None:
        """Start a director event now (main thread); raises when it may not fire."""
        world = session.handle.require()
        director = session.director
        why = director.events.not_ready(name, world)
        if why is not None:
            raise CommandRejected("director_event", why)
        spawner = director.credit_spawner
        director.events.fire(name, world, spawner.placer, spawner.toughen_from)

    creator = QueuedOrchestrator(
        CreatorRunner(
            runtime.llm,
            runtime.mainloop,
            runtime.router.backend_for,
            lambda: session.director.events.names(),
            fire_event,
        ),
        max_concurrent=1,
        events=runtime.events,
    )
    return programmer, creator
