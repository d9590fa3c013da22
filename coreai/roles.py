"""Agent roles: which tools each built-in role gets and which context its prompt carries.

A ``RoleConfig`` is the code-side definition of a role; its prompt text lives in ``prompts/roles/<Role>.md``
(see ``coreai.prompts``). ``extra_prompt`` is the builder layer: a stable refinement added in code.
Unknown roles get ``generic_role(name)``: no tools, no memory, no world state.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoleConfig:
    name: str
    tools: tuple[str, ...] = ()
    extra_prompt: str = ""
    memory: bool = False  # show the role's notes under "## Memory" (the memory tool writes them)
    chat_history: bool = False  # keep and replay recent turns (compacted into a summary when long)
    world_state: bool = False  # attach "## World State" from the game's state provider
    max_tokens: int = 256
    temperature: float = 0.2


DEFAULT_ROLES: dict[str, RoleConfig] = {
    "Creator": RoleConfig(
        "Creator",
        tools=("get_game_state", "memory", "world_command"),
        memory=True,
        world_state=True,
        max_tokens=320,
    ),
    "Programmer": RoleConfig("Programmer", tools=("memory",), memory=True, max_tokens=512, temperature=0.1),
    "Analyzer": RoleConfig("Analyzer", tools=("get_game_state", "memory"), memory=True, world_state=True),
    "Merchant": RoleConfig(
        "Merchant", tools=("memory",), memory=True, chat_history=True, max_tokens=120, temperature=0.6
    ),
    "Chat": RoleConfig("Chat", chat_history=True, temperature=0.7),
}


def generic_role(name: str) -> RoleConfig:
    return RoleConfig(name)
