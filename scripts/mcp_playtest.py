"""The worked MCP playtest of docs/mcp_playtest.md, produced for real: an agent plays wave 1 of seed 11
with sim_control / player_input (aim at the nearest enemy, shoot until the wave ends), picks, shops, and
reads the run's resource; every call is printed with its answer, trimmed to the digest's main fields.

    python scripts/mcp_playtest.py               # starts `python -m game --headless --mcp --frozen --seed 11`
    python scripts/mcp_playtest.py --write       # ...and puts the transcript into docs/mcp_playtest.md
    python scripts/mcp_playtest.py --url http://127.0.0.1:8590/mcp   # a game you started (COREAI_MCP_TOKEN)

The game it starts gets a private saves folder and the offline stub for its (unused) language model, so the
transcript depends on nothing but the game: the same seed and inputs give the same run, to the digest.
``tests/mcp/test_worked_example.py`` fails when the doc and this script's output differ.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "mcp_playtest.md"
BEGIN, END = "<!-- worked-playtest:begin -->", "<!-- worked-playtest:end -->"
SEED = 11
TOKEN = "worked-example-token-0123456789"
KEEP = ("tick", "phase", "wave", "hp", "pos", "kills", "enemies_alive", "stopped", "stepped", "picked")
WIDTH = 108


def brief(data: dict[str, Any]) -> str:
    """A step's answer: the digest's main fields; a press or an aim: the tick it applies at; a pick, a
    purchase or next_wave: what changed between waves."""
    if "applied_at_tick" in data and "stopped" not in data:
        return json.dumps({"applied_at_tick": data["applied_at_tick"]})
    keep = KEEP if "stopped" in data else ("phase", "wave", "hp", "picked")
    out = {k: data[k] for k in keep if k in data}
    if data.get("near") and "stopped" in data:
        n = data["near"][0]
        out["near[0]"] = {k: n[k] for k in ("prefab", "dx", "dy", "dist")}
    if "choices" in data:
        out["choices"] = data["choices"]
    if data.get("shop_open"):
        out["shop_open"] = True
    if "bought" in data:
        out["bought"] = {k: data["bought"][k] for k in ("name", "effect", "balance")}
    if data.get("events", {}).get("counts"):
        out["events"] = data["events"]["counts"]
    return json.dumps(out, separators=(", ", ": "))


def wrap(first: str, text: str) -> list[str]:
    """``first`` + ``text`` over lines of at most WIDTH characters, continued with an indent."""
    lines, line = [], first
    for word in text.split(" "):
        if len(line) + 1 + len(word) > WIDTH and line.strip() not in ("", first.strip()):
            lines.append(line)
            line = "   " + word
        else:
            line = f"{line} {word}" if line and not line.endswith(" ") else line + word
    lines.append(line)
    return lines


class Transcript:
    def __init__(self, client: Client) -> None:
        self.c = client
        self.lines: list[str] = []
        self.quiet = False  # inside the repeated aim / step_until loop: only counted

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        r = await self.c.call_tool(tool, args)
        text = r.content[0].text  # type: ignore[union-attr]
        if not self.quiet:
            self.lines.append(f"-> {tool} {json.dumps(args)}")
        if r.is_error:
            if not self.quiet:
                self.lines += wrap("<- isError:", re.sub(r" \[trace mcp-[0-9a-f]+\]", "", text))
            return {}
        data: dict[str, Any] = json.loads(text)
        if not self.quiet:
            self.lines += wrap("<-", brief(data))
        return data


async def play(url: str, token: str) -> list[str]:
    """The playtest against the game at ``url``; the transcript's lines."""
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    async with http, Client(streamable_http_client(url, http_client=http), cache=None) as c:
        t = Transcript(c)
        async with c.listen(resource_subscriptions=["arena://runs/current"]) as sub:
            await t.call("sim_control", action="step", ticks=30)
            await t.call("player_input", action="hold", key="move_right", ticks=60)
            await t.call("player_input", action="press", key="dash")
            s = await t.call("sim_control", action="step_until", until_lua="game.state().enemies_alive >= 3")
            await t.call("player_input", action="press", key="shoot")
            rounds = 0
            while s.get("phase") == "playing":
                if s["near"]:
                    px, py = s["pos"]
                    n = s["near"][0]
                    await t.call("player_input", action="aim", x=round(px + n["dx"]), y=round(py + n["dy"]))
                until = ["enemy_killed", "wave_end"]
                s = await t.call("sim_control", action="step_until", until_event=until, max_ticks=120)
                rounds += 1
                if rounds == 1:
                    t.quiet = True
                    t.lines.append("   ... aim at near[0], step_until, again and again ...")
            t.quiet = False
            t.lines += wrap("<-", brief(s))
            t.lines.append(f"   (the loop ran {rounds} times)")
            await t.call("player_input", action="tap", key="shop_buy", item="medkit")
            s = await t.call("player_input", action="tap", key="pick_1")
            while s.get("phase") == "upgrade":
                s = await t.call("player_input", action="tap", key="pick_1")
            await t.call("player_input", action="tap", key="shop_buy", item="1")
            await t.call("player_input", action="tap", key="next_wave")
            with anyio.fail_after(5):
                async for event in sub:
                    t.lines.append(f"<~ notifications/resources/updated {event.uri}")
                    break
        run = json.loads((await c.read_resource("arena://runs/current")).contents[0].text)  # type: ignore[union-attr]
        d = run["trajectory"]["decisions"]
        last = d[-1]["plan"] if d else {}
        plan = {k: v for k, v in last.items() if k in ("pressure", "reason", "announcer")}
        t.lines.append("-> resources/read arena://runs/current")
        summary = run["summary"]
        t.lines += wrap(
            "<-",
            f"{len(d)} director decisions, {run['events']['total']} events; summary: kills "
            f"{summary['kills']}, waves {summary['waves_reached']}, damage taken {summary['damage_taken']}; "
            f"last plan: {json.dumps(plan)}",
        )
    return t.lines


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def game(seed: int = SEED, display: str | None = None) -> Iterator[str]:
    """``python -m game --headless --mcp --frozen --seed N`` on a free port, with its own saves folder
    (with ``display``: the game in a real window on that X display instead)."""
    with tempfile.TemporaryDirectory(prefix="mcp-playtest-") as saves:
        settings = f'[llm]\ndefault_backend = "stub"\n\n[llm.backends]\n\n[mcp]\ntoken = "{TOKEN}"\n'
        Path(saves, "settings.toml").write_text(settings, encoding="utf-8")
        port = _free_port()
        env = {**os.environ, "ARENA_SAVES_DIR": saves, "ARCADE_HEADLESS": "1"}
        cmd = [sys.executable, "-m", "game", "--headless", "--mcp", "--frozen", "--seed", str(seed)]
        if display is not None:
            env.pop("ARCADE_HEADLESS")
            env["DISPLAY"] = display
            cmd = [sys.executable, "-m", "game", "--mcp", "--frozen", "--mute", "--seed", str(seed)]
        proc = subprocess.Popen(
            [*cmd, "--mcp-port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the game exited ({proc.returncode})")
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError("the game's MCP server did not start within 60 s")
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def transcript() -> str:
    """The worked playtest as the doc shows it (an indented block), from a game this function starts."""
    with game() as url:
        lines = anyio.run(play, url, TOKEN)
    return "\n".join("    " + line for line in lines) + "\n"


def doc_block(text: str | None = None) -> str:
    """The transcript as docs/mcp_playtest.md has it now (between its two markers)."""
    text = DOC.read_text(encoding="utf-8") if text is None else text
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip("\n") + "\n"


def write_doc(block: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n\n" + block + "\n" + text[end:], encoding="utf-8")


def main(argv: list[str]) -> int:
    if "--url" in argv:
        url = argv[argv.index("--url") + 1]
        lines = anyio.run(play, url, os.environ.get("COREAI_MCP_TOKEN", ""))
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    block = transcript()
    sys.stdout.write(block)
    if "--write" in argv:
        write_doc(block)
        sys.stderr.write(f"wrote the worked playtest into {DOC.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
