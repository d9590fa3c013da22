"""Game-side glue for the MCP tests: a headless World on a thread acting as the game's main thread.

``HeadlessGame`` steps a real ``game.sim.world.World`` at 60 Hz and drains the real ``MainLoopQueue`` every
frame, like the arena view's frame hook. ``pause()`` stops both (as the real game does while paused) and
tells the queue why. ``render_png`` draws the world into a PNG with PIL (the screenshot service stand-in
while no arcade window can be opened from a test), and ``ModStoreFake`` is a scripted mod manager used only
to exercise the manage_mods / get_mod_logs plumbing.
"""

from __future__ import annotations

import contextlib
import io
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from PIL import Image, ImageDraw

from coreai.errors import ModError
from coreai.mainloop import MainLoopQueue
from coreai.settings import MainLoopSettings
from coreai.world import CoreAiBindings
from game.bindings import GameWorldExecutor, WorldHandle
from game.sim.config import ARENA_H, ARENA_W
from game.sim.world import World

FRAME_S = 1.0 / 60.0
TOKEN = "test-token-0123456789abcdef"


class HeadlessGame:
    def __init__(self, seed: int = 7) -> None:
        self.world = World(seed=seed)
        self.executor = GameWorldExecutor(WorldHandle(self.world), source="mcp")
        self.bindings = CoreAiBindings()
        self.bindings.register_world(self.executor)
        self.bindings.register_state(self.executor)
        # a generous rate limit: tests spawn in bursts
        self.queue = MainLoopQueue(self.bindings, MainLoopSettings(rate_per_s=1000, rate_burst=1000))
        self.main_ident: int | None = None
        self.frames = 0
        self._paused = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="game-main", daemon=True)

    def start(self) -> HeadlessGame:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.queue.close()

    def pause(self) -> None:
        self.queue.set_paused(True)
        self._paused.set()

    def resume(self) -> None:
        self._paused.clear()
        self.queue.set_paused(False)

    def wait_frames(self, n: int, timeout_s: float = 5.0) -> None:
        target = self.frames + n
        deadline = time.monotonic() + timeout_s
        while self.frames < target:
            if time.monotonic() > deadline:
                raise TimeoutError(f"game loop did not advance {n} frames")
            time.sleep(0.005)

    def _run(self) -> None:
        self.main_ident = threading.get_ident()
        next_frame = time.perf_counter()
        while not self._stop.is_set():
            if not self._paused.is_set():
                if self.world.phase == "playing":
                    self.world.step()
                self.queue.drain()
                self.frames += 1
            next_frame += FRAME_S
            time.sleep(max(0.0, next_frame - time.perf_counter()))

    # -- services lent to MCP (all run on the main thread) --------------------------------------------------
    def on_main(self) -> bool:
        return threading.get_ident() == self.main_ident

    def render_png(self, max_resolution: int) -> bytes:
        """The current frame as PNG (arena at full size; the server downscales)."""
        assert self.on_main(), "screenshot must run on the game's main thread"
        img = Image.new("RGB", (int(ARENA_W), int(ARENA_H)), (18, 20, 28))
        draw = ImageDraw.Draw(img)
        e = self.world.enemies
        for i in range(e.n):
            x, y, r = float(e.x[i]), ARENA_H - float(e.y[i]), float(e.radius[i])
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(220, 60, 60))
        p = self.world.player
        draw.ellipse((p.x - 12, ARENA_H - p.y - 12, p.x + 12, ARENA_H - p.y + 12), fill=(80, 200, 255))
        out = io.BytesIO()
        img.save(out, format="PNG")
        return out.getvalue()


class ModStoreFake:
    """A scripted stand-in for the Lua mod manager: records calls and the thread they ran on."""

    def __init__(self, game: HeadlessGame) -> None:
        self.game = game
        self.mods: dict[str, list[str]] = {"bounty": ["function on_load() report('v1') end"]}
        self.logs: list[dict[str, Any]] = [{"mod": "bounty", "level": "print", "message": "loaded"}]
        self.calls: list[tuple[str, str | None, bool]] = []

    def manage(
        self, op: str, name: str | None, *, source: str | None = None, version: int | None = None
    ) -> dict[str, Any]:
        self.calls.append((op, name, self.game.on_main()))
        if op == "list":
            return {"mods": [{"name": n, "versions": len(v)} for n, v in self.mods.items()]}
        assert name is not None
        if op == "load" and source is not None:
            self.mods.setdefault(name, []).append(source)
            self.logs.append({"mod": name, "level": "print", "message": f"loaded v{len(self.mods[name])}"})
            return {"loaded": name, "version": len(self.mods[name])}
        if name not in self.mods:
            raise ModError(name, "no such mod")
        if op == "get_source":
            return {"name": name, "source": self.mods[name][-1]}
        return {"op": op, "name": name, "versions": len(self.mods[name])}

    def get_logs(self, mod: str | None, limit: int) -> list[dict[str, Any]]:
        self.calls.append(("logs", mod, self.game.on_main()))
        rows = [r for r in self.logs if mod is None or r["mod"] == mod]
        return rows[-limit:]


@contextlib.asynccontextmanager
async def mcp_session(
    url: str, token: str | None = TOKEN, timeout_s: float = 30.0
) -> AsyncIterator[ClientSession]:
    """The SDK's own client: streamable HTTP over an httpx2 client carrying the Bearer header."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout_s) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
