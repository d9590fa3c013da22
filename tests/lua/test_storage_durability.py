"""Mod storage keeps its durability promise under kill -9 (issue 38 item 1).

The promise (docs/modding.md, "Mod storage"): a value ``storage.set`` accepted is on disk within 1 s, whatever
the game does meanwhile. A real process runs twelve user mods through the real ``ModManager`` at 60 Hz;
every mod writes a counter on every tick and reports it (the acknowledgement, stamped by the child's clock).
The process is killed with SIGKILL at a random moment, three times over the same saves folder: every
mod's file must parse and hold at least the value it was told was stored one second before the kill, and
each restart goes on from what was on disk. Before the fix the manager wrote one dirty store per 0.25 s
from its frame tick, so with twelve busy mods a value waited about 3 s for the disk.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from coreai.paths import REPO_ROOT

pytestmark = pytest.mark.timeout(180)

DURABLE_WITHIN_S = 1.0  # the promise docs/modding.md makes (coreai.lua.storage.DURABLE_WITHIN_S)

MODS = 12
MANIFEST = 'name = "{0}"\nversion = "1.0.0"\nauthor = "tests"\ndescription = "counter"\napi_version = 1\n'
COUNTER = """
local n = storage.get("n") or 0
function on_tick(dt)
  n = n + 1
  storage.set("n", n)
  report(tostring(n))
end
"""

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from lua_fakehost import FakeHost
from coreai.lua.manager import ModManager
from pathlib import Path
from loguru import logger
logger.remove()
manager = ModManager(FakeHost(), roots=[Path(sys.argv[1])])
manager.load_all()
acked = {}
print(json.dumps({"ready": True}), flush=True)
next_frame = time.monotonic()
while True:
    manager.tick(1 / 60)
    for notice in manager.drain_notices():
        if notice.kind == "report":
            acked[notice.mod] = int(notice.text)
    print(json.dumps({"t": time.time(), "acked": acked}), flush=True)
    next_frame += 1 / 60
    time.sleep(max(0.0, next_frame - time.monotonic()))
"""


def _write_mods(root: Path) -> list[str]:
    names = [f"counter_{i:02d}" for i in range(MODS)]
    for name in names:
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "mod.toml").write_text(MANIFEST.format(name), encoding="utf-8")
        (folder / "main.lua").write_text(COUNTER, encoding="utf-8")
    return names


def _run_and_kill(saves: Path, mods_root: Path, run_s: float) -> tuple[float, list[dict]]:
    """Start the child, let it play ``run_s`` seconds after it is ready, SIGKILL it; (kill time, lines)."""
    env = {**os.environ, "ARENA_SAVES_DIR": str(saves), "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(mods_root), str(Path(__file__).parent)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: list[dict] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            msg = json.loads(raw)
            if msg.get("ready"):
                ready.set()
            else:
                lines.append(msg)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert ready.wait(60), proc.stderr.read() if proc.poll() is not None and proc.stderr else "no start"
        time.sleep(run_s)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        killed_at = time.time()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    reader.join(10)
    return killed_at, lines


def test_every_acknowledged_storage_write_older_than_a_second_survives_kill_9(saves_dir: Path) -> None:
    mods_root = saves_dir / "mods"
    names = _write_mods(mods_root)
    rng = random.Random(38)
    previous = dict.fromkeys(names, 0)
    for round_ in range(3):
        killed_at, lines = _run_and_kill(saves_dir, mods_root, rng.uniform(2.0, 3.5))
        promised = [m["acked"] for m in lines if m["t"] <= killed_at - DURABLE_WITHIN_S]
        assert promised, f"round {round_}: nothing acknowledged a second before the kill"
        must_have, told = promised[-1], lines[-1]["acked"]
        lost = {}
        worst = 0.0
        for name in names:
            path = saves_dir / "mod_storage" / f"{name}.json"
            on_disk = json.loads(path.read_text(encoding="utf-8"))["n"]  # parses: writes are atomic
            assert on_disk <= told[name], f"{name}: disk has {on_disk}, more than was ever acknowledged"
            if on_disk < must_have[name]:
                lost[name] = (must_have[name], on_disk)
            # the restarted mod went on from what the last round left on disk
            first = next(m["acked"][name] for m in lines if name in m["acked"])
            assert first == previous[name] + 1, f"round {round_}: {name} did not go on from disk"
            previous[name] = on_disk
            stamped = next((m["t"] for m in lines if m["acked"].get(name, 0) >= on_disk), killed_at)
            worst = max(worst, killed_at - stamped)  # how old the newest value on disk was at the kill
        print(f"round {round_}: newest value on disk was at most {worst:.2f} s old at the kill")
        assert not lost, (
            f"round {round_}: writes acknowledged over {DURABLE_WITHIN_S} s before kill -9 were lost "
            f"(mod: (acknowledged, on disk)): {lost}"
        )


def test_a_failed_write_is_said_and_retried_until_it_lands(saves_dir: Path) -> None:
    """The disk refuses (``mod_storage`` became a file, not a folder): the line that stored a value says it
    is not on disk yet, the mod's next storage call tells the player why, nothing is lost from memory, and
    the writer thread retries until the disk takes it."""
    sys.path.insert(0, str(Path(__file__).parent))
    from lua_fakehost import FakeHost

    from coreai.lua.manager import ModManager

    folder = saves_dir / "mod_storage"
    manager = ModManager(FakeHost(), roots=[])
    try:
        assert manager.execute("storage.set('k', 1)", mod="keeper").ok
        folder.rename(saves_dir / "elsewhere")
        folder.write_text("not a folder", encoding="utf-8")  # the disk refuses from now on
        first = manager.execute("storage.set('k', 7); return storage.get('k')", mod="keeper")
        assert first.ok and first.values == [7]
        assert any(line.startswith("warn: storage is not on disk yet") for line in first.output), first.output
        again = manager.execute("return storage.get('k')", mod="keeper")
        assert again.values == [7]
        assert any("storage could not be written" in line for line in again.output), again.output
        folder.unlink()
        (saves_dir / "elsewhere").rename(folder)  # the disk takes writes again
        target = folder / "keeper.json"
        deadline = time.monotonic() + 5 * DURABLE_WITHIN_S
        while json.loads(target.read_text(encoding="utf-8")) != {"k": 7}:
            assert time.monotonic() < deadline, "the failed write was not retried"
            time.sleep(0.05)
    finally:
        manager.close()
