"""screenshot over MCP from a real arcade window (ARCADE_HEADLESS=1, Mesa EGL) running the real game app.

The test thread is the game's main thread: it owns the window and pumps frames; the arena's frame hook
drains the MainLoopQueue (the wiring ``game.app`` documents). The MCP client runs on another thread.
"""

from __future__ import annotations

import base64
import io
import threading
import time
from typing import Any

import anyio
import pytest
from mcp_glue import TOKEN, mcp_session
from PIL import Image

from coreai.mainloop import MainLoopQueue
from coreai.mcp import McpServerThread, McpSettings
from coreai.settings import MainLoopSettings
from coreai.tools.view_tools import screenshot_tool
from coreai.tools.world_tools import world_command_tool
from coreai.world import CoreAiBindings

pytestmark = pytest.mark.window


def test_screenshot_of_the_real_window_decodes(saves_dir) -> None:
    arcade = pytest.importorskip("arcade")
    from game.app import GameApp
    from game.bindings import GameWorldExecutor, WorldHandle
    from game.options import LaunchOptions
    from game.sim.config import SCREEN_H, SCREEN_W

    window = arcade.Window(SCREEN_W, SCREEN_H, "mcp screenshot test")
    app = GameApp(LaunchOptions.model_validate({"seed": 3, "mute": True}), window)
    app.new_run()
    assert app.world is not None
    executor = GameWorldExecutor(WorldHandle(app.world), source="mcp")
    bindings = CoreAiBindings()
    bindings.register_world(executor)
    bindings.register_state(executor)
    queue = MainLoopQueue(bindings, MainLoopSettings(rate_per_s=100, rate_burst=100))

    def drain(_world: object, _dt: float) -> None:
        queue.drain()

    app.arena.frame_hooks.append(drain)
    main_ident = threading.get_ident()
    shots_on_main: list[bool] = []

    def screenshot(max_resolution: int) -> bytes:
        shots_on_main.append(threading.get_ident() == main_ident)
        window.dispatch_event("on_draw")  # draw the current frame, then read it back
        out = io.BytesIO()
        arcade.get_image().convert("RGB").save(out, format="PNG")
        return out.getvalue()

    tools = [screenshot_tool(screenshot), world_command_tool(bindings)]
    server = McpServerThread(McpSettings(port=0, token=TOKEN), tools, queue)
    server.start()
    results: dict[str, Any] = {}

    async def client() -> None:
        with anyio.fail_after(60):
            async with mcp_session(server.url) as session:
                results["spawn"] = await session.call_tool(
                    "world_command", {"action": "spawn", "prefab": "grunt", "x": 640, "y": 360, "count": 2}
                )
                results["shot"] = await session.call_tool("screenshot", {"max_resolution": 512})

    def client_thread() -> None:
        try:
            anyio.run(client)
        except BaseException as exc:
            results["error"] = exc

    worker = threading.Thread(target=client_thread, daemon=True)
    worker.start()
    deadline = time.monotonic() + 90
    try:
        while worker.is_alive() and time.monotonic() < deadline:  # the main loop: one frame at a time
            window.dispatch_events()
            window.dispatch_event("on_update", 1 / 60)
            window.dispatch_event("on_draw")
            window.flip()
        worker.join(1)
        ids = results["spawn"].structured_content["spawned"] if "spawn" in results else []
        alive = set(app.world.enemies.view("id").tolist())
    finally:
        server.stop()
        window.close()
    assert "error" not in results, results.get("error")
    assert len(ids) == 2 and set(ids) <= alive
    shot = results["shot"]
    assert not shot.is_error
    (image,) = [c for c in shot.content if c.type == "image"]
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as png:
        png.load()
        assert png.format == "PNG"
        assert png.size == (512, round(512 * SCREEN_H / SCREEN_W))
        darkest, brightest = png.convert("L").getextrema()
        assert brightest - darkest > 50  # a real rendered frame, not a blank buffer
    assert shots_on_main == [True]
