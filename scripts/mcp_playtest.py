"""A worked MCP playtest (the example in docs/mcp_playtest.md): connect to a running ``arena --mcp --frozen``
game, play wave 1 with sim_control / player_input, read the run's resources, and print every call with its
answer (trimmed). Usage: ``python scripts/mcp_playtest.py http://127.0.0.1:8590/mcp`` with
``COREAI_MCP_TOKEN`` set to the game's token."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

KEEP = ("tick", "phase", "wave", "hp", "pos", "kills", "enemies_alive", "stopped", "stepped", "picked")


def brief(data: dict[str, Any]) -> str:
    out = {k: data[k] for k in KEEP if k in data}
    if data.get("near"):
        n = data["near"][0]
        out["near[0]"] = {k: n[k] for k in ("prefab", "dx", "dy", "dist")}
    if "choices" in data:
        out["choices"] = data["choices"]
    if data.get("shop_open"):
        out["shop_open"] = True
    if "bought" in data:
        out["bought"] = {k: data["bought"][k] for k in ("name", "effect", "balance")}
    if "events" in data:
        out["events"] = data["events"]["counts"]
    return json.dumps(out, separators=(", ", ": "))


async def main(url: str) -> None:
    token = os.environ.get("COREAI_MCP_TOKEN", "")
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)

    async with http, Client(streamable_http_client(url, http_client=http), cache=None) as c:

        async def call(tool: str, **args: Any) -> dict[str, Any]:
            started = time.perf_counter()
            r = await c.call_tool(tool, args)
            text = r.content[0].text  # type: ignore[union-attr]
            wall = time.perf_counter() - started
            print(f"-> {tool} {json.dumps(args)}")
            if r.is_error:
                print(f"<- isError: {text}")
                return {}
            data: dict[str, Any] = json.loads(text)
            print(f"<- ({wall:.2f} s) {brief(data)}")
            return data

        async with c.listen(resource_subscriptions=["arena://runs/current"]) as sub:
            s = await call("sim_control", action="step", ticks=30)
            await call("player_input", action="hold", key="move_right", ticks=60)
            await call("player_input", action="press", key="dash")
            s = await call("sim_control", action="step_until", until_lua="game.state().enemies_alive >= 3")
            await call("player_input", action="press", key="shoot")
            kills = 0
            while s.get("phase") == "playing":
                if s["near"]:
                    px, py = s["pos"]
                    n = s["near"][0]
                    await call("player_input", action="aim", x=round(px + n["dx"]), y=round(py + n["dy"]))
                until = ["enemy_killed", "wave_end"]
                s = await call("sim_control", action="step_until", until_event=until, max_ticks=120)
                kills = s.get("kills", kills)
            await call("player_input", action="tap", key="shop_buy", item="medkit")
            s = await call("player_input", action="tap", key="pick_1")
            while s.get("phase") == "upgrade":
                s = await call("player_input", action="tap", key="pick_1")
            await call("player_input", action="tap", key="shop_buy", item="1")
            await call("player_input", action="tap", key="next_wave")
            with anyio.fail_after(5):
                async for event in sub:
                    print(f"<~ notifications/resources/updated {event.uri}")
                    break
        run = json.loads((await c.read_resource("arena://runs/current")).contents[0].text)  # type: ignore[union-attr]
        d = run["trajectory"]["decisions"]
        print(
            f"-> resources/read arena://runs/current\n<- id {run['id']}: {len(d)} director decisions, "
            f"{run['events']['total']} events; last plan: {json.dumps(d[-1]['plan']) if d else None}"
        )
        print(f"kills {kills}, summary {json.dumps(run['summary'])}")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8590/mcp")
