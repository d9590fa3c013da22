"""The Programmer as the game runs it (F9, ``/prog``, ``python -m game ask Programmer``): the grounded path
(``coreai.lua.grounded``) with the game's facts, the headless trial, and the mod manager on the main thread
installing what works as a user mod.

The offline stub plays its scripted demo (a mistake, then the repair) for the demo task only; for anything
else the Programmer on the stub writes what the rules reader covers and says plainly what it cannot do
offline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from coreai.commands import CallOnMain
from coreai.errors import ModError, TaskCancelled
from coreai.llm.types import LlmClient, Usage
from coreai.lua import PROGRAMMER_DEMO_TASK, LuaExecutionEvent, ProgrammerSettings, run_programmer_task
from coreai.lua.grounded import GroundedOutcome, Trial, run_grounded_task
from coreai.prompts import PromptLibrary
from coreai.requests import AgentResult, AiTaskRequest, new_trace_id
from game.agents.facts import game_facts
from game.agents.trial import trial as headless_trial
from game.ai.lua_bridge import MainThreadLuaRunner

INSTALL_TIMEOUT_S = 10.0


class ModInstaller:
    """Install a mod's files as a user mod, on the main thread (through the main-loop queue)."""

    def __init__(self, lua: MainThreadLuaRunner) -> None:
        self.lua = lua

    def _on_main(self, fn: Callable[[], object], label: str) -> object:
        return self.lua.queue.call(CallOnMain(fn=fn, label=label), timeout=INSTALL_TIMEOUT_S)

    def taken(self) -> set[str]:
        return set(self._on_main(self.lua.mods.list_mods, "programmer-names"))  # type: ignore[call-overload]

    def install(self, files: dict[str, str]) -> str:
        def do() -> str:
            status = self.lua.mods.import_mod(files)
            if status.last_error:
                raise ModError(status.name, status.last_error)
            return status.name

        return str(self._on_main(do, "programmer-install"))


class GroundedProgrammerRunner:
    """``TaskRunner`` for the Programmer role."""

    def __init__(
        self,
        llm: LlmClient,
        lua: MainThreadLuaRunner,
        prompts: PromptLibrary,
        backend_for: Callable[[str], str],
        subscribers: tuple[Callable[[LuaExecutionEvent], None], ...] = (),
        trial: Trial = headless_trial,
    ) -> None:
        self.llm = llm
        self.lua = lua
        self.prompts = prompts
        self.backend_for = backend_for
        self.subscribers = subscribers
        self.installer = ModInstaller(lua)
        self.trial = trial
        self.last: GroundedOutcome | None = None

    def run(self, request: AiTaskRequest, cancel: threading.Event) -> AgentResult:
        trace = request.trace_id or new_trace_id()
        started = time.perf_counter()
        if cancel.is_set():
            raise TaskCancelled(
                "cancelled before it started", scope=request.cancellation_scope, trace_id=trace
            )
        backend = self.backend_for("Programmer")
        offline = backend == "stub"
        if offline and request.hint.strip() == PROGRAMMER_DEMO_TASK:
            self.last = None  # the scripted demo: no grounded outcome
            return self._demo(request, trace, started)
        outcome = run_grounded_task(
            request.hint,
            facts=game_facts(),
            llm=None if offline else self.llm,
            trial=self.trial,
            install=self.installer.install,
            taken=self.installer.taken,
            subscribers=self.subscribers,
            trace_id=trace,
        )
        self.last = outcome
        return AgentResult(
            trace_id=trace,
            role="Programmer",
            content=outcome.message,
            stop_reason="answered" if outcome.ok else "tool_errors",
            tool_calls=(),
            backend=backend,
            rounds=max(1, outcome.attempts),
            usage=Usage(),
            duration_s=time.perf_counter() - started,
        )

    def _demo(self, request: AiTaskRequest, trace: str, started: float) -> AgentResult:
        """The stub's scripted demo: the self-heal loop in the console sandbox (a mistake, then the fix)."""
        parts = (self.prompts.universal(), self.prompts.role("Programmer"))
        outcome = run_programmer_task(
            request.hint,
            llm=self.llm,
            runner=self.lua,
            system_prompt="\n\n".join(p for p in parts if p),
            subscribers=self.subscribers,
            settings=ProgrammerSettings(),
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
            backend="stub",
            rounds=outcome.attempts,
            usage=Usage(),
            duration_s=time.perf_counter() - started,
        )
