"""Fixtures for the MCP tests: a running headless game and a server factory on a free loopback port."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from mcp_glue import TOKEN, HeadlessGame

from coreai.mcp import McpServerThread, McpSettings
from coreai.tools.base import Tool


@pytest.fixture
def game() -> Iterator[HeadlessGame]:
    g = HeadlessGame().start()
    g.wait_frames(2)
    yield g
    g.stop()


ServerFactory = Callable[..., McpServerThread]


@pytest.fixture
def start_server(game: HeadlessGame) -> Iterator[ServerFactory]:
    started: list[McpServerThread] = []

    def make(tools: list[Tool], **settings: Any) -> McpServerThread:
        cfg = McpSettings.model_validate({"enabled": True, "port": 0, "token": TOKEN, **settings})
        server = McpServerThread(cfg, tools, game.queue)
        server.start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()
