"""The MCP server: lets external agents (Claude Code, Codex, opencode...) drive the running game, safely.

Public surface: ``McpSettings``, ``McpServices``, ``McpServerThread``, ``SkillLibrary``. Engine-agnostic:
no arcade import; the game lends its services through ``McpServices``.
"""

from coreai.mcp.server import McpServerThread, build_app
from coreai.mcp.services import McpServices
from coreai.mcp.settings import McpSettings
from coreai.mcp.skills import SkillLibrary

__all__ = ["McpServerThread", "McpServices", "McpSettings", "SkillLibrary", "build_app"]
