"""Main-thread semantics: paused or stalled loop -> a JSON-RPC error naming the cause; abandoned calls never
run later; stopping the server resolves everything still queued."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import anyio
import httpx2
import pytest
from mcp.shared.exceptions import MCPError
from mcp_glue import TOKEN, HeadlessGame, mcp_session

from coreai.errors import MainLoopTimeout, TaskCancelled
from coreai.mainloop import MainLoopQueue
from coreai.mcp.mainthread import CLIENT_GONE, MainThreadBridge
from coreai.world import CoreAiBindings
from game.ai.mcp_services import director_state_tool


class Recorder:
    """A service that records each run (and the thread it ran on)."""

    def __init__(self, game: HeadlessGame | None = None) -> None:
        self.game = game
        self.runs: list[bool] = []

    def __call__(self) -> dict[str, Any]:
        self.runs.append(self.game.on_main() if self.game else True)
        return {"runs": len(self.runs)}


def wait_until(predicate: Any, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(0.01)


def test_paused_loop_fails_with_the_cause_and_the_call_never_runs_later(game, start_server) -> None:
    rec = Recorder(game)
    server = start_server([director_state_tool(rec)], call_timeout_s=0.5)
    game.pause()

    async def paused_call() -> MCPError:
        with anyio.fail_after(20):
            return await _paused_call()

    async def _paused_call() -> MCPError:
        async with mcp_session(server.url) as session:
            with pytest.raises(MCPError) as info:
                await session.call_tool("get_director_state", {})
            return info.value

    err = anyio.run(paused_call)
    assert "game loop paused" in err.message
    assert err.code == -32603
    assert err.data["cause"] == "paused"

    skipped_before = game.queue.stats().skipped_cancelled
    game.resume()
    game.wait_frames(5)
    assert rec.runs == []  # the abandoned call was cancelled in the queue, never executed
    assert game.queue.stats().skipped_cancelled == skipped_before + 1

    async def live_call() -> Any:
        async with mcp_session(server.url) as session:
            return await session.call_tool("get_director_state", {})

    assert anyio.run(live_call).structured_content == {"runs": 1}
    assert rec.runs == [True]


def test_a_loop_that_never_drains_is_named(tmp_path) -> None:
    queue = MainLoopQueue(CoreAiBindings())  # nobody drains it
    bridge = MainThreadBridge(queue, timeout_s=0.2)
    rec = Recorder()

    async def main() -> None:
        with pytest.raises(MainLoopTimeout) as info:
            await bridge.call("probe", rec)
        assert info.value.cause == "not draining"
        assert "game loop not draining" in str(info.value)

    anyio.run(main)
    queue.drain()
    assert rec.runs == []
    assert queue.stats().skipped_cancelled == 1


def test_a_client_that_disconnects_abandons_its_queued_call(game, start_server) -> None:
    rec = Recorder(game)
    server = start_server([director_state_tool(rec)], call_timeout_s=30)
    game.pause()
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_director_state"}}
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
    }
    with pytest.raises(httpx2.TimeoutException):
        httpx2.post(server.url, json=body, headers=headers, timeout=0.5)  # the client gives up
    wait_until(lambda: server.bridge.pending() == 0)  # the server noticed and cancelled the queued call
    game.resume()
    game.wait_frames(5)
    assert rec.runs == []


def test_a_client_timeout_with_the_session_still_open_cancels_the_queued_call(game, start_server) -> None:
    """The SDK client's read timeout sends notifications/cancelled on another POST; the call must not run."""
    rec = Recorder(game)
    server = start_server([director_state_tool(rec)], call_timeout_s=30)
    game.pause()

    async def main() -> None:
        with anyio.fail_after(20):
            async with mcp_session(server.url) as session:
                with pytest.raises(MCPError, match="timed out"):
                    await session.call_tool("get_director_state", {}, read_timeout_seconds=0.5)
                while server.bridge.pending():  # cancelled although this session's connection stays open
                    await anyio.sleep(0.01)
                game.resume()
                await anyio.to_thread.run_sync(game.wait_frames, 5)
                assert rec.runs == []
                assert (await session.call_tool("get_director_state", {})).structured_content == {"runs": 1}

    anyio.run(main)
    assert server.app is not None and server.app.watch.inflight() == 0


def test_a_cancelled_await_cancels_the_queued_call() -> None:
    queue = MainLoopQueue(CoreAiBindings())
    bridge = MainThreadBridge(queue, timeout_s=30)
    rec = Recorder()

    async def main() -> None:
        task = asyncio.ensure_future(bridge.call("probe", rec))
        while queue.pending() == 0:
            await asyncio.sleep(0.005)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    queue.drain()
    assert rec.runs == []
    assert queue.stats().skipped_cancelled == 1


def test_client_gone_event_cancels_without_waiting_for_the_timeout() -> None:
    queue = MainLoopQueue(CoreAiBindings())
    bridge = MainThreadBridge(queue, timeout_s=30)
    rec = Recorder()

    async def main() -> None:
        gone = asyncio.Event()
        CLIENT_GONE.set(gone)
        asyncio.get_running_loop().call_later(0.05, gone.set)
        with pytest.raises(TaskCancelled, match="client gave up"):
            await asyncio.wait_for(bridge.call("probe", rec), 10)

    asyncio.run(main())
    queue.drain()
    assert rec.runs == []


def test_stopping_the_server_resolves_everything_still_queued(game, start_server) -> None:
    rec = Recorder(game)
    server = start_server([director_state_tool(rec)], call_timeout_s=60)
    game.pause()
    errors: list[BaseException] = []

    async def waiting_call() -> None:
        async with mcp_session(server.url) as session:
            try:
                await session.call_tool("get_director_state", {})
            except MCPError as exc:
                errors.append(exc)

    async def main() -> None:
        with anyio.fail_after(20):  # a hang fails fast instead of waiting the 60 s call timeout
            async with anyio.create_task_group() as tg:
                for _ in range(3):
                    tg.start_soon(waiting_call)
                while server.bridge.pending() < 3:
                    await anyio.sleep(0.01)
                await anyio.to_thread.run_sync(server.stop)

    anyio.run(main)
    assert len(errors) == 3
    assert all("MCP server is stopping" in str(e) for e in errors)
    game.resume()
    game.wait_frames(5)
    assert rec.runs == []
    assert not server.running


def test_work_runs_on_the_main_thread_only(game, start_server) -> None:
    seen: list[int] = []

    def where() -> dict[str, Any]:
        seen.append(threading.get_ident())
        return {}

    server = start_server([director_state_tool(where)])

    async def main() -> None:
        async with mcp_session(server.url) as session:
            for _ in range(3):
                await session.call_tool("get_director_state", {})

    anyio.run(main)
    assert seen == [game.main_ident] * 3
