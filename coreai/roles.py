"""Agent roles: which context each built-in role's prompt carries, and which roles get the core's own tools.

A ``RoleConfig`` is the code-side definition of a role; its prompt text lives in ``prompts/roles/<Role>.md``
(see ``coreai.prompts``). ``extra_prompt`` is the builder layer: a stable refinement added in code.
Unknown roles get ``generic_role(name)``: no tools, no memory, no world state.

A role's tools are named once, where the tool is registered: ``Orchestrator.add_tool(tool, roles=...)``
fills ``RoleConfig.tools``. The core's own tools (memory, game state, world commands) take their roles from
``CORE_TOOL_ROLES`` below, their one place; a game's tools name their roles at their ``add_tool`` call.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoleConfig:
    name: str
    tools: tuple[str, ...] = ()  # filled by Orchestrator.add_tool, never written here
    extra_prompt: str = ""
    memory: bool = False  # show the role's notes under "## Memory" (the memory tool writes them)
    chat_history: bool = False  # keep and replay recent turns (compacted into a summary when long)
    world_state: bool = False  # attach "## World State" from the game's state provider
    max_tokens: int = 256
    temperature: float = 0.2


DEFAULT_ROLES: dict[str, RoleConfig] = {
    "Creator": RoleConfig("Creator", memory=True, world_state=True, max_tokens=320),
    "Programmer": RoleConfig("Programmer", memory=True, max_tokens=512, temperature=0.1),
    "Analyzer": RoleConfig("Analyzer", memory=True, world_state=True),
    "Merchant": RoleConfig("Merchant", memory=True, chat_history=True, max_tokens=120, temperature=0.6),
    "Chat": RoleConfig("Chat", chat_history=True, temperature=0.7),
}

# the roles that get each of the core's own tools (coreai.tools): the roles with notes keep them with
# ``memory``; the Creator and the Analyzer read the game (``get_game_state``); the Creator changes it
CORE_TOOL_ROLES: dict[str, tuple[str, ...]] = {
    "memory": ("Creator", "Programmer", "Analyzer", "Merchant"),
    "get_game_state": ("Creator", "Analyzer"),
    "world_command": ("Creator",),
}


def generic_role(name: str) -> RoleConfig:
    return RoleConfig(name)
