"""Lua sandbox cost: one guarded hook call, 20 mods ticking at 60 Hz, and what the instruction hook costs.

Targets: a guarded hook call <= 3 us; 20 mods' on_tick well inside a 16.7 ms frame.
"""

from __future__ import annotations

import os
import statistics
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


if __name__ == "__main__":
    main()
