"""The MCP server: lets external agents (Claude Code, Codex, opencode...) drive the running game, safely.

Public surface: ``McpSettings``, ``McpServerThread``, ``SkillLibrary``. Engine-agnostic: no arcade import;
the game hands the server the ``coreai.tools.Tool`` objects it exposes (the same ones its agents use).

Names are imported lazily so ``coreai.settings`` can embed ``McpSettings`` without importing the server
(which itself needs ``coreai.settings``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coreai.mcp.server import McpServerThread, build_app
    from coreai.mcp.settings import McpSettings
    from coreai.mcp.skills import SkillLibrary

_WHERE = {
    "McpServerThread": "coreai.mcp.server",
    "build_app": "coreai.mcp.server",
    "McpSettings": "coreai.mcp.settings",
    "SkillLibrary": "coreai.mcp.skills",
}

__all__ = ["McpServerThread", "McpSettings", "SkillLibrary", "build_app"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'coreai.mcp' has no attribute {name!r}")
