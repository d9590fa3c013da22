"""``CoreAiRuntime``: the AI core wired together from ``Settings``, the one object the game holds.

It owns the bindings registry, the main-loop queue, agent memory, the event bus, the routed LLM pipeline
(``Logging(Timeout(Retry(Routing(backends))))``), the orchestrator with the built-in tools and the task
queue. The game registers its world and state provider on ``bindings``, calls ``drain()`` once per frame on
its main thread, submits ``AiTaskRequest``s, and shows ``activity()`` on the HUD.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coreai.commands import GetState
from coreai.events import EventBus, TaskEvent, ToolCallEvent
from coreai.llm.decorators import build_pipeline
from coreai.llm.routing import RoutingClient
from coreai.llm.stub import StubLlmClient
from coreai.llm.types import LlmClient
from coreai.mainloop import MainLoopQueue
from coreai.memory import MemoryStore
from coreai.orchestrator import Orchestrator
from coreai.prompts import PromptComposer, PromptLibrary
from coreai.requests import AiTaskRequest
from coreai.settings import Settings
from coreai.taskqueue import QueuedOrchestrator, TaskHandle
from coreai.tools.memory_tool import memory_tool
from coreai.tools.policy import ToolPolicyConfig
from coreai.tools.world_tools import game_state_tool, world_command_tool
from coreai.world import CoreAiBindings


@dataclass(frozen=True)
class AgentActivity:
    """One HUD line's worth: how busy the agents are and what they did last."""

    running: int
    queued: int
    last_tool: str  # "" when no tool has been called yet
    last_tool_status: str  # started / completed / failed
    backend: str  # backend of the most recent task

    def line(self) -> str:
        tool = f"{self.last_tool} ({self.last_tool_status})" if self.last_tool else "-"
        return (
            f"AI: {self.running} running, {self.queued} queued | last tool: {tool} | backend: {self.backend}"
        )


class CoreAiRuntime:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        backends: Mapping[str, LlmClient] | None = None,
        bindings: CoreAiBindings | None = None,
        memory_root: Path | None = None,
        prompt_dirs: Sequence[Path] | None = None,
        prompt_variables: Mapping[str, str] | None = None,
    ) -> None:
        s = settings or Settings()
        self.settings = s
        self.events = EventBus()
        self.bindings = bindings or CoreAiBindings()
        self.mainloop = MainLoopQueue(self.bindings, s.mainloop)
        self.memory = MemoryStore(memory_root, s.memory)
        registry: dict[str, LlmClient] = {"stub": StubLlmClient()}
        registry.update(backends or {})
        self.router = RoutingClient(registry, s.llm.backends, s.llm.default_backend)
        self.llm = build_pipeline(
            self.router,
            timeout_s=s.llm.timeout_s,
            retry_attempts=s.llm.retry_attempts,
            retry_base_delay_s=s.llm.retry_base_delay_s,
            retry_max_delay_s=s.llm.retry_max_delay_s,
        )
        self.prompts = PromptLibrary(prompt_dirs, prompt_variables)  # every agent's prompt text
        self.orchestrator = Orchestrator(
            self.llm,
            tools=[memory_tool(self.memory), game_state_tool()],
            composer=PromptComposer(self.prompts, world_state_max_chars=s.prompts.world_state_max_chars),
            memory=self.memory,
            events=self.events,
            world_state=self._world_state,
            tool_config=ToolPolicyConfig.from_settings(s.tools),
            main=self.mainloop,  # tools reach the game through the queue (waits: mainloop.wait_timeout_s)
        )
        # the Creator's world tool (its roles: coreai.roles), also served over MCP to clients that mod or
        # direct the game
        self.orchestrator.add_tool(world_command_tool(self.bindings), mcp=("mod", "direct"))
        self.tasks = QueuedOrchestrator(
            self.orchestrator,
            max_concurrent=s.queue.max_concurrent,
            max_pending=s.queue.max_pending,
            events=self.events,
        )

    def _world_state(self, trace_id: str) -> dict[str, Any] | str:
        if self.bindings.state is None:
            return "(no state provider registered)"
        state: dict[str, Any] = self.mainloop.call(
            GetState(trace_id=trace_id), timeout=self.settings.prompts.world_state_timeout_s
        )
        return state

    # -- what the game calls ------------------------------------------------------------------------------
    def submit(self, request: AiTaskRequest) -> TaskHandle:
        return self.tasks.submit(request)

    def drain(self, budget_s: float | None = None) -> int:
        """Call once per frame on the main thread."""
        return self.mainloop.drain(budget_s)

    def activity(self) -> AgentActivity:
        stats = self.tasks.statistics()
        tools = self.events.history(ToolCallEvent, limit=1)
        tasks = self.events.history(TaskEvent)
        backend = next((e.backend for e in reversed(tasks) if isinstance(e, TaskEvent) and e.backend), "")
        last = tools[-1] if tools and isinstance(tools[-1], ToolCallEvent) else None
        return AgentActivity(
            running=stats.running,
            queued=stats.queued,
            last_tool=last.info.tool if last else "",
            last_tool_status=last.status if last else "",
            backend=backend or self.router.backend_for("Creator"),
        )

    def close(self, wait: bool = True) -> None:
        """Stop agents and refuse further commands; queued commands resolve with an error."""
        self.tasks.shutdown(wait=False)
        self.mainloop.close()
        if wait:
            self.tasks.shutdown(wait=True)
