"""Agents and Lua: the Programmer's self-heal loop, marshalled to the main thread (the mod manager, like all
Lua, runs only there). The ``execute_lua`` tool is ``coreai.tools.lua_tools.execute_lua_tool``.

``MainThreadLuaRunner`` is what worker threads use: each ``execute`` posts a ``CallOnMain`` command and waits
for the frame's drain. ``ProgrammerRunner`` plugs ``run_programmer_task`` into a ``QueuedOrchestrator``, so
Programmer tasks get the same priorities, latest-wins cancellation and events as every other agent task.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from coreai.commands import CallOnMain
from coreai.errors import TaskCancelled
from coreai.llm.types import LlmClient, Usage
from coreai.lua import ExecResult, LuaExecutionEvent, ModManager, ProgrammerSettings, run_programmer_task
from coreai.mainloop import MainLoopQueue
from coreai.prompts import PromptLibrary
from coreai.requests import AgentResult, AiTaskRequest, new_trace_id

LUA_TIMEOUT_S = 10.0


class MainThreadLuaRunner:
    """A ``LuaRunner`` for worker threads: every call runs on the game's main thread through the queue."""

    def __init__(self, queue: MainLoopQueue, mods: ModManager, timeout_s: float = LUA_TIMEOUT_S) -> None:
        self.queue = queue
        self.mods = mods
        self.timeout_s = timeout_s

    def execute(self, code: str, mod: str = "console", *, trace_id: str | None = None) -> ExecResult:
        result: ExecResult = self.queue.call(
            CallOnMain(
                fn=lambda: self.mods.execute(code, mod, trace_id=trace_id), label="lua", trace_id=trace_id
            ),
            timeout=self.timeout_s,
        )
        return result

    def save_script_version(self, name: str, code: str, note: str = "") -> int:
        version: int = self.queue.call(
            CallOnMain(fn=lambda: self.mods.save_script_version(name, code, note), label="lua-version"),
            timeout=self.timeout_s,
        )
        return version


class ProgrammerRunner:
    """``TaskRunner`` for the Programmer role: the write → run → repair loop (``run_programmer_task``)."""

    def __init__(
        self,
        llm: LlmClient,
        lua: MainThreadLuaRunner,
        prompts: PromptLibrary,
        settings: ProgrammerSettings | None = None,
        subscribers: tuple[Callable[[LuaExecutionEvent], None], ...] = (),
    ) -> None:
        self.llm = llm
        self.lua = lua
        self.prompts = prompts
        self.settings = settings or ProgrammerSettings()
        self.subscribers = subscribers

    def system_prompt(self) -> str:
        # the role prompt carries a compact Mod API summary; the full reference
        # (prompts/skills/lua_modding.md)
        # would not fit a small local model's context
        return "\n\n".join(p for p in (self.prompts.universal(), self.prompts.role("Programmer")) if p)

    def run(self, request: AiTaskRequest, cancel: threading.Event) -> AgentResult:
        trace = request.trace_id or new_trace_id()
        started = time.perf_counter()
        if cancel.is_set():
            raise TaskCancelled(
                "cancelled before it started", scope=request.cancellation_scope, trace_id=trace
            )
        outcome = run_programmer_task(
            request.hint,
            llm=self.llm,
            runner=self.lua,
            system_prompt=self.system_prompt(),
            subscribers=self.subscribers,
            settings=self.settings,
            trace_id=trace,
        )
        if outcome.ok and outcome.result is not None:
            content = f"ok after {outcome.attempts} attempt(s): {outcome.result.text()}"
        else:
            content = f"gave up after {outcome.attempts} attempt(s): {outcome.error}"
        return AgentResult(
            trace_id=trace,
            role="Programmer",
            content=content,
            stop_reason="answered" if outcome.ok else "tool_errors",
            tool_calls=(),
            backend=getattr(self.llm, "name", "?"),
            rounds=outcome.attempts,
            usage=Usage(),
            duration_s=time.perf_counter() - started,
        )
