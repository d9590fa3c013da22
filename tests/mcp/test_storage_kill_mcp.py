"""An agent told "stored" over MCP finds the value after a kill -9 (issue 38 item 1).

The real game (``python -m game --headless --mcp --frozen``) in a subprocess and the SDK's client:
``execute_lua`` writes a counter into eight scratch sandboxes' storage, forty calls in all; right after
the last answer the game is killed with SIGKILL. Every sandbox's storage file must hold the last value
its answer acknowledged: a call that changed storage answers only once the change is on disk (docs/modding.md,
"Mod storage"). Before the fix, up to all but one of those acknowledged writes were missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from play_glue import SETTINGS, call, client, free_port

from coreai.paths import REPO_ROOT

pytestmark = pytest.mark.timeout(240)

SANDBOXES = [f"kv_{i}" for i in range(8)]


def test_storage_acknowledged_over_mcp_survives_kill_9(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    port = free_port()
    err = (saves / "game.err").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "--headless", "--mcp", "--frozen", "--mcp-port", str(port)],
        cwd=REPO_ROOT, env={**os.environ, "ARENA_SAVES_DIR": str(saves)},
        stdout=subprocess.DEVNULL, stderr=err,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (saves / "game.err").read_text()[-2000:]
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            assert time.monotonic() < deadline, "the game's MCP server did not start"
            time.sleep(0.1)
        acked = anyio.run(_write_counters, f"http://127.0.0.1:{port}/mcp")
        os.kill(proc.pid, signal.SIGKILL)  # at once: no frame, no quit, no flush gets to run
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        err.close()
    on_disk = {}
    for name in SANDBOXES:
        path = saves / "mod_storage" / f"{name}.json"
        on_disk[name] = json.loads(path.read_text(encoding="utf-8"))["n"] if path.is_file() else None
    assert on_disk == acked, f"acknowledged {acked}, on disk after kill -9 {on_disk}"


async def _write_counters(url: str) -> dict[str, int]:
    acked: dict[str, int] = {}
    async with client(url) as c:
        for i in range(1, 41):
            name = SANDBOXES[i % len(SANDBOXES)]
            code = f"storage.set('n', {i}); return storage.get('n')"
            answer = await call(c, "execute_lua", code=code, sandbox=name)
            assert answer["ok"] and answer["values"] == [i], answer
            acked[name] = i
    return acked
