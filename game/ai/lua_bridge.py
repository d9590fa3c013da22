"""Agents and Lua, marshalled to the main thread (the mod manager, like all Lua, runs only there). The
``execute_lua`` tool is ``coreai.tools.lua_tools.execute_lua_tool``; the Programmer's runner is
``game.agents.programmer.GroundedProgrammerRunner``.

``MainThreadLuaRunner`` is what worker threads use: each ``execute`` posts a ``CallOnMain`` command and waits
for the frame's drain.
"""

from __future__ import annotations

from coreai.commands import CallOnMain
from coreai.lua import ExecResult, ModManager
from coreai.mainloop import MainLoopQueue

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
