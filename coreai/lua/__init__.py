"""Lua modding: a hardened lupa.lua54 sandbox, Mod API v1, the mod manager and the Programmer loop.

Public entry points (main thread only):
    ModManager(host, roots=None, settings=None)   load_all / dispatch / tick / execute / status / ...
    ModHost                                       the Protocol the game implements
    run_programmer_task(...)                      the self-heal loop; programmer_demo_script()
The Mod API reference for modders and agents is prompts/skills/lua_modding.md.
"""

from coreai.lua.host import ModHost
from coreai.lua.manager import HOOKS, ModManager
from coreai.lua.programmer import (
    PROGRAMMER_DEMO_TASK,
    LuaExecutionEvent,
    LuaExecutionFailed,
    LuaExecutionSucceeded,
    ProgrammerOutcome,
    ProgrammerSettings,
    extract_lua,
    programmer_demo_script,
    run_programmer_task,
)
from coreai.lua.results import ExecResult, Fault, LogEntry, ModState, ModStatus, Notice
from coreai.lua.settings import CallBudget, LuaSettings
from coreai.lua.versions import VersionInfo

__all__ = [
    "HOOKS",
    "PROGRAMMER_DEMO_TASK",
    "CallBudget",
    "ExecResult",
    "Fault",
    "LogEntry",
    "LuaExecutionEvent",
    "LuaExecutionFailed",
    "LuaExecutionSucceeded",
    "LuaSettings",
    "ModHost",
    "ModManager",
    "ModState",
    "ModStatus",
    "Notice",
    "ProgrammerOutcome",
    "ProgrammerSettings",
    "VersionInfo",
    "extract_lua",
    "programmer_demo_script",
    "run_programmer_task",
]
