"""Wall time of MCP steps, headless and in a real window (Xvfb), for docs/mcp_playtest.md.

    python scripts/mcp_step_timings.py          # needs Xvfb for the window column (else headless only)

Each game is ``python -m game [--headless] --mcp --frozen --seed 11`` (scripts/mcp_playtest.py starts it);
after a 1-tick step (the first call pays the game's warm-up), the client times, from call to answer: a
60-tick step, a 600-tick step, a step to the wave's end (tick 1801),
a fork at tick 150 of that run and a replay of it to its end. It prints a markdown table and the load
average (other processes share the CPU; compare the two columns of one run only).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp_playtest import TOKEN, game

ROWS = (
    "step 60 ticks",
    "step 600 ticks",
    "step_until wave_end (to tick 1801)",
    "fork at tick 150",
    "replay (1801 ticks)",
)


async def _timed(c: Client, tool: str, **args: Any) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    r = await c.call_tool(tool, args)
    wall = time.perf_counter() - started
    text = r.content[0].text  # type: ignore[union-attr]
    assert not r.is_error, text
    return wall, json.loads(text)


async def measure(url: str) -> list[float]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=300)
    async with http, Client(streamable_http_client(url, http_client=http), cache=None) as c:
        await _timed(c, "sim_control", action="step", ticks=1)  # the first call pays the game's warm-up
        out = [(await _timed(c, "sim_control", action="step", ticks=60))[0]]
        out.append((await _timed(c, "sim_control", action="step", ticks=600))[0])
        wall, end = await _timed(c, "sim_control", action="step_until", until_event=["wave_end"])
        assert end["tick"] == 1801, end["tick"]
        out.append(wall)
        run = json.loads((await c.read_resource("arena://runs")).contents[0].text)["current"]  # type: ignore[union-attr]
        out.append((await _timed(c, "sim_control", action="fork", run=run, tick=150))[0])
        wall, replay = await _timed(c, "sim_control", action="replay", run=run)
        assert replay["identical"] and replay["tick"] == 1801, replay
        out.append(wall)
        return out


@contextlib.contextmanager
def xvfb() -> Iterator[str | None]:
    if shutil.which("Xvfb") is None:
        yield None
        return
    n = next(n for n in range(80, 99) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{n}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield f":{n}"
    finally:
        proc.terminate()
        proc.wait(5)


def main() -> int:
    with game() as url:
        headless = anyio.run(measure, url)
    window: list[float] | None = None
    with xvfb() as display:
        if display is not None:
            with game(display=display) as url:
                window = anyio.run(measure, url)
    load = os.getloadavg()
    print("| call | headless | window (Xvfb, llvmpipe) |")
    print("|---|---|---|")
    for i, name in enumerate(ROWS):
        shown = f"{window[i]:.2f} s" if window is not None else "-"
        print(f"| {name} | {headless[i]:.2f} s | {shown} |")
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
