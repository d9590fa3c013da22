"""The one error tree of Arena Director.

Every error the AI core, the Lua sandbox, the MCP server or the game's persistence raises on purpose is a
``CoreAIError``. Each carries the data that explains it (trace id, mod name and line, backend, key...), and
``str()`` gives a one-line, player-readable message.

::

    CoreAIError                      base; .trace_id (may be None)
    ├── SettingsError                a bad settings value; .key names it
    ├── LlmError                     a backend failure; .code (LlmErrorCode), .backend, .retryable
    │   └── ContextOverflow          the request does not fit the model's window; .prompt_tokens, .n_ctx
    ├── ToolError                    a tool call failed; .tool, .call_id
    │   └── ToolArgumentError        arguments did not validate against the tool's model
    ├── CommandRejected              a main-loop command was refused; .command, .reason
    │   ├── UnknownPrefabError       not in the prefab whitelist; .prefab, .allowed
    │   └── CommandRateLimited       an agent posted more than its rate allows; .agent
    ├── MainLoopTimeout              a main-thread answer did not come; .cause ("paused" / "not draining")
    ├── TaskCancelled                a queued task was cancelled before or while it ran; .scope
    ├── PersistenceError             a save could not be read or written; .path
    │   └── CorruptSaveError         a save did not parse; .quarantined_to names where it was moved
    ├── LuaError                     anything the sandbox reports; .mod, .line
    │   ├── LuaSyntaxError           the chunk did not compile
    │   ├── LuaRuntimeError          the chunk raised; .traceback (a string, never a Python object)
    │   ├── LuaBudgetExceeded        killed by the instruction budget or CPU deadline; .budget
    │   └── LuaMemoryExceeded        the runtime hit its max_memory cap
    ├── ModError                     a mod could not be loaded or managed; .mod
    │   ├── ModManifestError         mod.toml is missing or invalid
    │   └── ModQuarantined           the mod faulted too often and is disabled
    └── McpError                     an MCP admission or tool failure; .status (HTTP) where it has one

The game's own errors (a refused purchase, a refused play call, an unknown player model) branch off this
tree in ``game/errors.py``: the core knows nothing of shops, bots or agent play.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class CoreAIError(Exception):
    """Base of every deliberate error; ``trace_id`` ties it to the task that raised it."""

    def __init__(self, message: str, *, trace_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.trace_id = trace_id

    def __str__(self) -> str:
        return self.message if not self.trace_id else f"{self.message} [trace {self.trace_id}]"


class SettingsError(CoreAIError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"setting '{key}': {message}")
        self.key = key


class LlmErrorCode(StrEnum):
    """Stable codes every backend maps its failures to."""

    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    QUOTA_EXCEEDED = "quota_exceeded"
    AUTH = "auth"
    UNAVAILABLE = "backend_unavailable"
    EMPTY_RESPONSE = "empty_response"
    MALFORMED_OUTPUT = "malformed_output"
    CANCELLED = "cancelled"
    CONTEXT_OVERFLOW = "context_overflow"  # the prompt (plus the reply's max_tokens) does not fit n_ctx

    @property
    def retryable(self) -> bool:
        return self in (LlmErrorCode.TIMEOUT, LlmErrorCode.RATE_LIMITED, LlmErrorCode.UNAVAILABLE)


class LlmError(CoreAIError):
    def __init__(
        self, code: LlmErrorCode, message: str, *, backend: str = "?", trace_id: str | None = None
    ) -> None:
        super().__init__(f"llm[{backend}] {code.value}: {message}", trace_id=trace_id)
        self.code = code
        self.backend = backend

    @property
    def retryable(self) -> bool:
        return self.code.retryable


class ContextOverflow(LlmError):
    """The prompt plus the reply's ``max_tokens`` exceeds the model's context window."""

    def __init__(
        self,
        prompt_tokens: int,
        n_ctx: int,
        *,
        max_tokens: int = 0,
        backend: str = "?",
        trace_id: str | None = None,
    ) -> None:
        want = f"{prompt_tokens} prompt tokens" + (f" + {max_tokens} reply tokens" if max_tokens else "")
        super().__init__(
            LlmErrorCode.CONTEXT_OVERFLOW,
            f"{want} exceed the context window of {n_ctx}",
            backend=backend,
            trace_id=trace_id,
        )
        self.prompt_tokens = prompt_tokens
        self.max_tokens = max_tokens
        self.n_ctx = n_ctx


class ToolError(CoreAIError):
    def __init__(
        self, tool: str, message: str, *, call_id: str | None = None, trace_id: str | None = None
    ) -> None:
        super().__init__(f"tool '{tool}': {message}", trace_id=trace_id)
        self.tool = tool
        self.call_id = call_id


class ToolArgumentError(ToolError):
    pass


class ToolFailed(ToolError):
    """The tool ran and reports failure with a structured answer (``data``: e.g. a Lua error with its line
    and output); MCP clients get ``data`` as the tool error's JSON, agents the message."""

    def __init__(
        self, tool: str, message: str, *, data: dict[str, Any] | None = None, trace_id: str | None = None
    ) -> None:
        super().__init__(tool, message, trace_id=trace_id)
        self.data = data or {}


class CommandRejected(CoreAIError):
    def __init__(self, command: str, reason: str, *, trace_id: str | None = None) -> None:
        super().__init__(f"command '{command}' rejected: {reason}", trace_id=trace_id)
        self.command = command
        self.reason = reason


class UnknownPrefabError(CommandRejected):
    def __init__(self, prefab: str, allowed: list[str] | tuple[str, ...], *, trace_id: str | None = None):
        allowed_list = sorted(allowed)
        super().__init__(
            "spawn",
            f"unknown prefab '{prefab}'; allowed: {', '.join(allowed_list)}",
            trace_id=trace_id,
        )
        self.prefab = prefab
        self.allowed = allowed_list


class CommandRateLimited(CommandRejected):
    def __init__(self, command: str, agent: str, *, trace_id: str | None = None) -> None:
        super().__init__(command, f"rate limit exceeded for agent '{agent}'", trace_id=trace_id)
        self.agent = agent


class MainLoopTimeout(CoreAIError):
    def __init__(self, what: str, cause: str, timeout_s: float, *, trace_id: str | None = None) -> None:
        super().__init__(
            f"main thread did not answer '{what}' within {timeout_s:g}s: game loop {cause}", trace_id=trace_id
        )
        self.what = what
        self.cause = cause
        self.timeout_s = timeout_s


class TaskCancelled(CoreAIError):
    def __init__(self, message: str, *, scope: str | None = None, trace_id: str | None = None) -> None:
        super().__init__(message, trace_id=trace_id)
        self.scope = scope


class PersistenceError(CoreAIError):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class CorruptSaveError(PersistenceError):
    def __init__(
        self, path: str, message: str, quarantined_to: str | None = None, *, reason: str = ""
    ) -> None:
        super().__init__(path, message)
        self.quarantined_to = quarantined_to
        self.reason = reason  # what was wrong, in player words, without the path


class LuaError(CoreAIError):
    def __init__(
        self, message: str, *, mod: str = "?", line: int | None = None, trace_id: str | None = None
    ) -> None:
        where = f"{mod}:{line}" if line is not None else mod
        super().__init__(f"lua[{where}] {message}", trace_id=trace_id)
        self.mod = mod
        self.line = line
        self.detail = message


class LuaSyntaxError(LuaError):
    pass


class LuaRuntimeError(LuaError):
    def __init__(self, message: str, *, traceback: str = "", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.traceback = traceback


class LuaBudgetExceeded(LuaError):
    def __init__(self, message: str, *, budget: str = "instructions", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.budget = budget


class LuaMemoryExceeded(LuaError):
    pass


class ModError(CoreAIError):
    def __init__(self, mod: str, message: str) -> None:
        super().__init__(f"mod '{mod}': {message}")
        self.mod = mod


class ModManifestError(ModError):
    pass


class ModQuarantined(ModError):
    pass


class McpError(CoreAIError):
    def __init__(self, message: str, *, status: int | None = None, trace_id: str | None = None) -> None:
        super().__init__(message, trace_id=trace_id)
        self.status = status
