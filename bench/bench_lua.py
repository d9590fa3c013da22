"""Lua sandbox cost: one guarded hook call, 20 mods ticking at 60 Hz, what the instruction hook costs, and
the memory scratch sandboxes leave behind.

Targets: a guarded hook call <= 3 us; 20 mods' on_tick well inside a 16.7 ms frame; after 600 scratch
sandboxes of 1 MB each (16 alive at once, the default), RSS within ``SCRATCH_RSS_TARGET_MB`` of the start
and the peak within ``SCRATCH_PEAK_TARGET_MB``. ``python -m bench.bench_lua --scratch-rss N`` measures the
last in a fresh process and prints it as JSON (tests/lua/test_lua_scratch_limits.py runs it too).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lupa import lua54

from coreai.lua.bridge import ModBridge, StateCache
from coreai.lua.manager import ModManager
from coreai.lua.modlog import ModLog
from coreai.lua.sandbox import LuaSandbox
from coreai.lua.settings import CallBudget, LuaSettings
from coreai.lua.storage import ModStorage

SCRATCH_SANDBOXES = 600  # scratch sandboxes named one after the other (an agent naming a new one per call)
SCRATCH_HOLD = "blob = string.rep('x', 1024 * 1024) .. tostring(math.random()); return #blob"  # 1 MB each
SCRATCH_RSS_TARGET_MB = 80.0  # RSS after them, above the start: 16 alive x ~2 MB, plus allocator slack
SCRATCH_PEAK_TARGET_MB = 120.0  # the highest RSS on the way, above the start
HOOK_CALLS = 100_000
FRAMES = 600
MODS = 20
LOOP = "local n = 0 for i = 1, 3000000 do n = n + i % 7 end return n"

TICK_MOD = """
local seen = 0
every(1.0, function() seen = seen + 1 end)
function on_tick(dt)
  local s = game.state()
  local p = s.player
  local d = 0
  for i = 1, 20 do d = d + math.sqrt((p.x - i) ^ 2 + (p.y + i) ^ 2) end
  if s.wave > 99 then report(d) end
end
function on_wave_start(w) seen = seen + w end
"""

MANIFEST = 'name = "{0}"\nversion = "1.0.0"\nauthor = "bench"\ndescription = "bench"\napi_version = 1\n'


class BenchHost:
    """A minimal in-memory game for the manager (state, params, no-op world)."""

    def spawn(self, prefab: str, x: float, y: float, count: int, *, source: str) -> list[int]:
        return list(range(count))

    def move(self, entity_id: int, x: float, y: float, *, source: str) -> bool:
        return True

    def destroy(self, entity_id: int, *, source: str) -> bool:
        return True

    def state(self) -> dict[str, Any]:
        return {
            "wave": 3,
            "score": 1200,
            "time": 95.5,
            "kills": 80,
            "enemies_alive": 140,
            "player": {"x": 1600.0, "y": 1200.0, "hp": 80.0, "max_hp": 100.0},
            "arena": {"width": 3200.0, "height": 2400.0},
        }

    def params(self) -> dict[str, tuple[float, float]]:
        return {"score_mult": (0.0, 5.0)}

    def set_param(self, name: str, value: float, *, source: str) -> float:
        return value


def _manager(root: Path, names: list[str]) -> ModManager:
    for name in names:
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "mod.toml").write_text(MANIFEST.format(name), encoding="utf-8")
        (folder / "main.lua").write_text(TICK_MOD, encoding="utf-8")
    manager = ModManager(BenchHost(), roots=[root], settings=LuaSettings(frame_budget_ms=16.0))
    manager.load_all()
    return manager


def guarded_hook_us(manager: ModManager) -> tuple[float, float]:
    """One guarded entry into a mod hook (a standalone sandbox like the manager's), and dispatch per mod."""
    host, settings = BenchHost(), LuaSettings()
    bridge = ModBridge(
        "bench",
        host,
        settings,
        log=ModLog("bench"),
        storage=ModStorage("bench", 1024),
        state=StateCache(host),
        on_report=lambda mod, text: None,
    )
    sandbox = LuaSandbox("bench", bridge.functions(), settings)
    bridge.to_lua = sandbox.to_lua
    sandbox.exec(TICK_MOD, "bench")
    budget = settings.hook_budget
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(HOOK_CALLS // 5):
            sandbox.call("on_wave_start", (1,), budget)
        batches.append((time.perf_counter() - start) / (HOOK_CALLS // 5) * 1e6)
    sandbox.close()
    dispatch = []
    for _ in range(2000):
        start = time.perf_counter()
        manager.dispatch("on_wave_start", 2)
        dispatch.append((time.perf_counter() - start) * 1e6 / MODS)
    return min(batches), statistics.median(dispatch)


def tick_ms(manager: ModManager) -> tuple[float, float]:
    samples = []
    for frame in range(FRAMES + 60):
        start = time.perf_counter()
        manager.tick(1 / 60)
        if frame >= 60:
            samples.append((time.perf_counter() - start) * 1000.0)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]


def hook_slowdown() -> tuple[float, float, float]:
    plain = lua54.LuaRuntime(register_eval=False, register_builtins=False, unpack_returned_tuples=True)
    hooked = lua54.LuaRuntime(register_eval=False, register_builtins=False, unpack_returned_tuples=True)
    hooked.execute("debug.sethook(function() end, '', 1000)")

    def best(fn: Any) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return min(times)

    t_plain = best(lambda: plain.execute(LOOP))
    t_hook = best(lambda: hooked.execute(LOOP))
    manager = ModManager(
        BenchHost(),
        roots=[],
        settings=LuaSettings(exec_budget=CallBudget(instructions=2_000_000_000, deadline_ms=60_000)),
    )
    manager.execute("return 1", mod="bench")
    t_sandbox = best(lambda: manager.execute(LOOP, mod="bench"))
    manager.close()
    return t_plain * 1000, t_hook / t_plain, t_sandbox / t_plain


def rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _hwm_mb() -> float:
    """This process's own RSS high-water mark. Not ``ru_maxrss``: Linux carries that over fork and exec,
    so a child of a 1.4 GB pytest reports a 1.4 GB peak whatever it does itself."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    return 0.0


def scratch_rss(n: int = SCRATCH_SANDBOXES) -> dict[str, float]:
    """RSS (MB) of this process before and after ``n`` scratch sandboxes of 1 MB each through
    ``ModManager.execute`` (the console's and ``execute_lua``'s entry), and the peak; call in a fresh
    process (``--scratch-rss``) so nothing else moves the figures. Linux only (/proc)."""
    from loguru import logger

    logger.remove()  # a log line per closed sandbox would measure the sink, not the sandboxes
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ARENA_SAVES_DIR"] = tmp
        manager = ModManager(BenchHost(), roots=[])
        for i in range(4):  # warm up the allocator and lupa's import-time state
            manager.execute(SCRATCH_HOLD, mod=f"warm_{i}")
        gc.collect()
        start = rss_mb()
        peak = start
        for i in range(n):
            result = manager.execute(SCRATCH_HOLD, mod=f"scratch_{i}")
            if not result.ok:
                raise RuntimeError(f"scratch_{i}: {result.error}")
            peak = max(peak, rss_mb())
        end = rss_mb()
        alive = len(manager.diagnostics()["consoles"])
        manager.close()
    return {"sandboxes": n, "alive": alive, "start_mb": start, "end_mb": end,
            "peak_mb": max(peak, _hwm_mb())}  # fmt: skip


def scratch_rss_in_child(n: int = SCRATCH_SANDBOXES) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "bench.bench_lua", "--scratch-rss", str(n)],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def main() -> None:
    print("\n== Lua sandbox (lupa.lua54, one core) ==")
    previous = os.environ.get("ARENA_SAVES_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ARENA_SAVES_DIR"] = tmp
        try:
            manager = _manager(Path(tmp) / "mods", [f"mod{i:02d}" for i in range(MODS)])
            call_us, dispatch_us = guarded_hook_us(manager)
            med, p99 = tick_ms(manager)
            manager.close()
            loop_ms, hook_ratio, sandbox_ratio = hook_slowdown()
        finally:
            if previous is None:
                os.environ.pop("ARENA_SAVES_DIR", None)
            else:
                os.environ["ARENA_SAVES_DIR"] = previous
    print(f"{'measure':<52} {'value':>12}  target")
    print(f"{'guarded hook call (LuaSandbox.call)':<52} {call_us:>9.2f} us  <= 3 us")
    print(f"{'dispatch() per mod, 20 mods':<52} {dispatch_us:>9.2f} us")
    print(f"{'20 mods on_tick + timers at 60 Hz, median per frame':<52} {med:>9.3f} ms  << 16.7 ms")
    print(f"{'20 mods on_tick + timers at 60 Hz, p99 per frame':<52} {p99:>9.3f} ms")
    print(f"{'tight loop (3M iterations) without a hook':<52} {loop_ms:>9.1f} ms")
    print(f"{'  slowdown with a count hook every 1000 instr.':<52} {hook_ratio:>10.2f} x")
    print(f"{'  slowdown in the full sandbox (hook + deadline)':<52} {sandbox_ratio:>10.2f} x")
    if sys.platform.startswith("linux"):
        mem = scratch_rss_in_child()
        above, peak = mem["end_mb"] - mem["start_mb"], mem["peak_mb"] - mem["start_mb"]
        n, alive = int(mem["sandboxes"]), int(mem["alive"])
        print(f"{f'RSS after {n} scratch sandboxes of 1 MB ({alive} alive)':<52} {above:>+9.1f} MB  "
              f"<= {SCRATCH_RSS_TARGET_MB:g} MB above start ({mem['start_mb']:.0f} MB)")  # fmt: skip
        print(f"{'  peak RSS on the way':<52} {peak:>+9.1f} MB  <= {SCRATCH_PEAK_TARGET_MB:g} MB above start")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--scratch-rss"]:
        print(json.dumps(scratch_rss(int(sys.argv[2]))))
    else:
        main()
