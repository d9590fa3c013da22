"""``Orchestrator``: runs one agent task from request to result.

It assigns the trace id, gathers the role's context (memory, chat history, world state), composes the
layered prompt, runs the tool loop and publishes task events. It runs on a worker thread (normally under
``coreai.taskqueue.QueuedOrchestrator``) and never touches the game directly: the world state and world
commands go through the main-loop queue. Only visible content is stored in chat history.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from loguru import logger

from coreai.errors import CoreAIError, TaskCancelled
from coreai.events import EventBus, TaskEvent, TextDelta
from coreai.llm.decorators import backend_for
from coreai.llm.types import ChatMessage, LlmClient
from coreai.mcp.profiles import profiles_of
from coreai.memory import MemoryStore
from coreai.prompts import ComposedPrompt, PromptComposer
from coreai.requests import AgentResult, AiTaskRequest, new_trace_id
from coreai.roles import CORE_TOOL_ROLES, DEFAULT_ROLES, RoleConfig, generic_role
from coreai.tools.base import MainThread, Tool, ToolContext
from coreai.tools.loop import ToolLoop
from coreai.tools.policy import ToolPolicyConfig

_log = logger.bind(feature="agents")

WorldStateReader = Callable[[str], dict[str, Any] | str]  # trace id -> snapshot (or a reason it is missing)


class Orchestrator:
    def __init__(
        self,
        llm: LlmClient,
        *,
        tools: Iterable[Tool] = (),
        roles: Mapping[str, RoleConfig] | None = None,
        composer: PromptComposer | None = None,
        memory: MemoryStore | None = None,
        events: EventBus | None = None,
        world_state: WorldStateReader | None = None,
        tool_config: ToolPolicyConfig | None = None,
        llm_timeout_s: float | None = None,
        main: MainThread | None = None,
    ) -> None:
        self.llm = llm
        self.tools: dict[str, Tool] = {}
        self.mcp_profiles: dict[str, frozenset[str]] = {}  # tool name -> MCP profiles (add_tool's ``mcp``)
        self.roles = dict(roles if roles is not None else DEFAULT_ROLES)
        for tool in tools:
            self.add_tool(tool)
        self.composer = composer or PromptComposer()
        self.memory = memory
        self.events = events or EventBus()
        self.world_state = world_state
        self.loop = ToolLoop(llm, tool_config, self.events)
        self.llm_timeout_s = llm_timeout_s
        self.main = main

    def add_tool(
        self, tool: Tool, roles: Iterable[str] | None = None, *, mcp: bool | Iterable[str] = False
    ) -> None:
        """Register a tool (e.g. ``execute_lua``): the one place that says who may call it. ``roles``: the
        in-game agents that get it (None: a core tool's roles from ``coreai.roles.CORE_TOOL_ROLES``, else
        none); ``mcp``: whether MCP clients get it too (``True``: in every profile, or the profiles it
        belongs to: ``("play", "mod")``, see ``coreai.mcp.profiles``). Registering a new version of a tool
        under the same name keeps its place in the MCP order."""
        self.tools[tool.name] = tool
        for role in CORE_TOOL_ROLES.get(tool.name, ()) if roles is None else roles:
            cfg = self.role_config(role)
            if tool.name not in cfg.tools:
                self.roles[role] = replace(cfg, tools=(*cfg.tools, tool.name))
        profiles = profiles_of(mcp)
        if profiles:
            self.mcp_profiles[tool.name] = profiles

    def mcp_tools(self) -> list[tuple[Tool, frozenset[str]]]:
        """The tools MCP serves, in registration order, with their profiles."""
        return [(self.tools[n], p) for n, p in self.mcp_profiles.items() if n in self.tools]

    def set_extra_prompt(self, role: str, text: str) -> None:
        """The builder layer of ``role``'s prompt: stable text that joins the cached prefix."""
        self.roles[role] = replace(self.role_config(role), extra_prompt=text)

    def role_config(self, role: str) -> RoleConfig:
        return self.roles.get(role) or generic_role(role)

    def role_tools(self, role: str) -> dict[str, Tool]:
        return {n: self.tools[n] for n in self.role_config(role).tools if n in self.tools}

    def compose(
        self, request: AiTaskRequest, trace_id: str
    ) -> tuple[ComposedPrompt, dict[str, Tool], set[str]]:
        """The prompt, the role's tools and the names this request may call."""
        cfg = self.role_config(request.role)
        if request.system is not None:  # a grounded one-shot: its own system prompt and the hint, no tools
            messages = (
                ChatMessage(role="system", content=request.system),
                ChatMessage(role="user", content=request.hint.strip() or "Proceed with your task."),
            )
            return ComposedPrompt(request.system, messages, ()), {}, set()
        tools = self.role_tools(request.role)
        available = set(tools) if request.allowed_tools is None else set(tools) & set(request.allowed_tools)
        memory_text = self.memory.memory(cfg.name) if (cfg.memory and self.memory) else None
        summary, history = self.memory.history(cfg.name) if (cfg.chat_history and self.memory) else ("", [])
        world: dict[str, Any] | str | None = None
        if cfg.world_state and self.world_state is not None:
            try:
                world = self.world_state(trace_id)
            except CoreAIError as exc:
                world = f"(unavailable: {exc.message})"
        prompt = self.composer.compose(
            role=cfg.name,
            hint=request.hint,
            tools=tools.values(),
            extra_prompt=cfg.extra_prompt,
            instructions=request.instructions,
            memory=memory_text,
            available=available,
            world_state=world,
            summary=summary,
            history=history,
        )
        return prompt, tools, available

    def _delta_sink(self, request: AiTaskRequest, trace_id: str, role: str) -> Callable[[str], None] | None:
        """For a streamed request: publish each visible piece of the reply as a ``TextDelta``."""
        if not request.stream:
            return None
        return lambda text: self.events.publish(TextDelta(trace_id, role, text))

    def run(self, request: AiTaskRequest, cancel: threading.Event | None = None) -> AgentResult:
        """Run one task to the end; raises ``TaskCancelled`` if cancelled, ``CoreAIError`` on failure."""
        trace_id = request.trace_id or new_trace_id()
        cancel = cancel or threading.Event()
        cfg = self.role_config(request.role)
        backend = backend_for(self.llm, cfg.name, request.backend)
        started = time.perf_counter()
        self.events.publish(
            TaskEvent("started", trace_id, cfg.name, backend=backend, detail=request.hint[:80])
        )
        _log.info("task started role={} backend={}", cfg.name, backend, trace_id=trace_id)
        try:
            prompt, tools, available = self.compose(request, trace_id)
            dec = request.decoding
            outcome = self.loop.run(
                prompt.messages,
                tools,
                available,
                ToolContext(trace_id=trace_id, role=cfg.name, cancel=cancel, main=self.main),
                max_tokens=dec.max_tokens if dec else cfg.max_tokens,
                temperature=dec.temperature if dec else cfg.temperature,
                repeat_penalty=dec.repeat_penalty if dec else None,
                top_k=dec.top_k if dec else None,
                timeout_s=request.timeout_s or self.llm_timeout_s,
                force_tool=request.force_tool,
                backend=request.backend,
                on_text=self._delta_sink(request, trace_id, cfg.name),
            )
            if cancel.is_set():
                raise TaskCancelled("task cancelled", scope=request.cancellation_scope, trace_id=trace_id)
            if cfg.chat_history and self.memory is not None and request.system is None:
                self.memory.append_turn(cfg.name, request.hint, outcome.content)
        except TaskCancelled as exc:
            exc.scope = exc.scope or request.cancellation_scope
            self.events.publish(
                TaskEvent("cancelled", trace_id, cfg.name, backend=backend, detail=exc.message)
            )
            _log.info("task cancelled role={}", cfg.name, trace_id=trace_id)
            raise
        except CoreAIError as exc:
            self.events.publish(TaskEvent("failed", trace_id, cfg.name, backend=backend, detail=str(exc)))
            _log.warning("task failed role={}: {}", cfg.name, exc, trace_id=trace_id)
            if exc.trace_id is None:
                exc.trace_id = trace_id
            raise
        except Exception as exc:
            self.events.publish(TaskEvent("failed", trace_id, cfg.name, backend=backend, detail=repr(exc)))
            _log.opt(exception=exc).error("task crashed role={}", cfg.name, trace_id=trace_id)
            raise
        elapsed = time.perf_counter() - started
        result = AgentResult(
            trace_id=trace_id,
            role=cfg.name,
            content=outcome.content,
            stop_reason=outcome.stop_reason,
            tool_calls=outcome.tool_calls,
            backend=outcome.backend,
            rounds=outcome.rounds,
            usage=outcome.usage,
            duration_s=elapsed,
        )
        self.events.publish(
            TaskEvent("completed", trace_id, cfg.name, backend=outcome.backend, detail=outcome.content[:120])
        )
        _log.info(
            "task completed role={} stop={} rounds={} tools={} in {:.3f}s",
            cfg.name,
            outcome.stop_reason,
            outcome.rounds,
            len(outcome.tool_calls),
            elapsed,
            trace_id=trace_id,
        )
        return result
