"""Glue for the play-over-MCP tests: the real game as a subprocess (``python -m game ... --mcp --frozen``)
with a private saves folder and the stub LLM, and the SDK's own ``Client`` (2026-07-28 protocol, so it can
``listen`` for resource updates) carrying the Bearer token."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from coreai.paths import REPO_ROOT

TOKEN = "play-token-0123456789abcdef"
SETTINGS = f"""
[llm]
default_backend = "stub"

[llm.backends]

[mcp]
token = "{TOKEN}"
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def game_process(
    saves: Path, *args: str, env: dict[str, str] | None = None, drop: tuple[str, ...] = ()
) -> Iterator[str]:
    """``python -m game --mcp --frozen <args>`` on a free port; yields the MCP URL once it answers.
    ``drop``: environment variables the game must not see (``ARCADE_HEADLESS`` for a real window)."""
    saves.mkdir(parents=True, exist_ok=True)
    (saves / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    port = free_port()
    full_env = {**os.environ, "ARENA_SAVES_DIR": str(saves), **(env or {})}
    for name in drop:
        full_env.pop(name, None)
    cmd = [sys.executable, "-m", "game", "--mcp", "--frozen", "--mcp-port", str(port), *args]
    log = (saves / "game.err").open("w")
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=full_env, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"the game exited ({proc.returncode}): {(saves / 'game.err').read_text()[-2000:]}"
                )
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline:
                raise TimeoutError("the game's MCP server did not start within 60 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()


@contextlib.asynccontextmanager
async def client(url: str, timeout_s: float = 120.0) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=timeout_s)
    async with http, Client(streamable_http_client(url, http_client=http), cache=None) as c:
        yield c


async def call(c: Client, tool: str, **args: Any) -> dict[str, Any]:
    """A tool call that must succeed; its JSON answer."""
    r = await c.call_tool(tool, args)
    text = r.content[0].text if r.content and hasattr(r.content[0], "text") else ""
    assert not r.is_error, f"{tool} {args} failed: {text}"
    data: dict[str, Any] = json.loads(text)
    return data


async def shoot_until_kill(c: Client, state: dict[str, Any], tries: int = 40) -> dict[str, Any] | None:
    """Aim at the nearest enemy, hold shoot, step until a kill (20 ticks at a time, re-aiming)."""
    await call(c, "player_input", action="press", key="shoot")
    for _ in range(tries):
        if state["near"]:
            near = state["near"][0]
            px, py = state["pos"]
            await call(c, "player_input", action="aim", x=px + near["dx"], y=py + near["dy"])
        state = await call(c, "sim_control", action="step_until", until_event=["enemy_killed"], max_ticks=20)
        if state["stopped"] == "event:enemy_killed":
            return state
        if state["phase"] != "playing":
            return None
    return None


async def play_out_wave(c: Client, state: dict[str, Any], chunks: int = 200) -> dict[str, Any] | None:
    """Keep aiming at the nearest enemy (shoot held) and step until the wave ends (or the player dies)."""
    for _ in range(chunks):
        if state["near"]:
            px, py = state["pos"]
            near = state["near"][0]
            await call(c, "player_input", action="aim", x=px + near["dx"], y=py + near["dy"])
        state = await call(c, "sim_control", action="step_until", until_event=["wave_end"], max_ticks=30)
        if state["stopped"] in ("event:wave_end", "upgrade_pick", "player_died"):
            return state
    return None


async def refused(c: Client, tool: str, **args: Any) -> str:
    """A tool call that must be refused; the reason."""
    r = await c.call_tool(tool, args)
    text = r.content[0].text if r.content and hasattr(r.content[0], "text") else ""
    assert r.is_error, f"{tool} {args} was not refused: {text[:300]}"
    return text


@contextlib.contextmanager
def headless_loop(session: Any, options: Any, seed: int) -> Iterator[Any]:
    """The real headless play loop on a thread, for ``session``; stopped and closed on exit."""
    import threading

    from game.play.headless import run_play_headless

    stop = threading.Event()
    loop = threading.Thread(target=run_play_headless, args=(session, options, seed, stop), daemon=True)
    loop.start()
    try:
        yield session
    finally:
        stop.set()
        loop.join(10)
        session.close()
