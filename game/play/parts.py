"""What MCP play adds to an AI session: the agent's clock and keys, the update hub, the run resources and the
play prompts (built by ``game.play.wiring.install_play``)."""

from __future__ import annotations

from dataclasses import dataclass

from coreai.mcp.resources import PromptSpec, UpdateHub
from game.play.controller import PlayController
from game.play.prompts import PROMPTS
from game.play.runs import RunResources


@dataclass
class Play:
    controller: PlayController
    hub: UpdateHub
    runs: RunResources
    prompts: tuple[PromptSpec, ...] = PROMPTS
