"""The Python half of Mod API v1 for one mod: the callables ``api.lua`` wraps in Lua closures.

Each callable receives plain values (``api.lua`` checked them), answers ``(True, value...)`` or
``(False, message)`` and never raises: an exception escaping a callback would reach Lua as a Python
exception object. Results going back are plain Lua values or fresh Lua tables (``LuaSandbox.to_lua``);
Lua tables coming in are copied into Python data inside the callback.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from loguru import logger

from coreai.errors import CoreAIError
from coreai.lua.convert import lua_to_py, to_plain
from coreai.lua.host import ModHost
from coreai.lua.modlog import ModLog
from coreai.lua.settings import LuaSettings
from coreai.lua.storage import ModStorage

log = logger.bind(feature="lua", trace_id=None)

Result = tuple[Any, ...]


class StateCache:
    """``host.state()`` read once per generation (the manager bumps it every frame and every dispatch)."""

    def __init__(self, host: ModHost) -> None:
        self._host = host
        self.generation = 0
        self._value: Any = None

    def bump(self) -> None:
        self.generation += 1
        self._value = None

    def get(self) -> Any:
        if self._value is None:
            self._value = to_plain(self._host.state())
        return self._value


class ModBridge:
    """Callables for one sandbox; ``to_lua`` is attached once the sandbox exists."""

    def __init__(
        self,
        mod: str,
        host: ModHost,
        settings: LuaSettings,
        *,
        log: ModLog,
        storage: ModStorage,
        state: StateCache,
        on_report: Callable[[str, str], None],
        source: str | None = None,
    ) -> None:
        self.mod = mod
        self.host = host
        self.settings = settings
        self.log = log
        self.storage = storage
        self.state = state
        self.on_report = on_report
        self.source = source or f"mod:{mod}"
        self.to_lua: Callable[[Any], Any] = lambda v: v
        self._world_ops = 0
        self._reports = 0
        self.reports: list[str] = []

    def begin_call(self, trace_id: str | None = None) -> None:
        """Reset the per-entry limits (world commands, reports) before each entry into mod code."""
        self._world_ops = 0
        self._reports = 0
        self.reports = []
        self.log.begin_call(trace_id)

    def functions(self) -> dict[str, Callable[..., Result]]:
        ops: dict[str, Callable[..., Result]] = {
            "spawn": self._spawn,
            "move": self._move,
            "destroy": self._destroy,
            "state": self._state,
            "set": self._set,
            "params": self._params,
            "event": self._event,
            "upgrade": self._upgrade,
            "log": self._log,
            "report": self._report,
            "storage_get": self._storage_get,
            "storage_set": self._storage_set,
            "storage_keys": self._storage_keys,
        }
        return {name: self._guard(name, fn) for name, fn in ops.items()}

    def _guard(self, name: str, fn: Callable[..., Result]) -> Callable[..., Result]:
        def call(*args: Any) -> Result:
            try:
                return fn(*args)
            except CoreAIError as exc:
                return False, exc.message
            except Exception as exc:
                log.opt(exception=exc).warning("mod {}: {} failed in Python", self.mod, name)
                return False, f"{name}: internal error ({type(exc).__name__})"

        return call

    # ------------------------------------------------------------------ world
    def _world_op(self, what: str) -> None:
        self._world_ops += 1
        if self._world_ops > self.settings.max_world_ops_per_call:
            raise CoreAIError(
                f"{what}: too many world commands in one call (max {self.settings.max_world_ops_per_call})"
            )

    @staticmethod
    def _finite(*values: Any) -> bool:
        return all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values
        )

    def _spawn(self, prefab: Any, x: Any, y: Any, count: Any) -> Result:
        if not isinstance(prefab, str) or not self._finite(x, y) or not isinstance(count, int):
            return False, "coreai_world_spawn(prefab, x, y [, count]): bad arguments"
        cap = self.settings.max_spawn_per_call
        if not 1 <= count <= cap:
            return False, f"coreai_world_spawn: count must be 1..{cap} (got {count})"
        self._world_op("coreai_world_spawn")
        ids = self.host.spawn(prefab, float(x), float(y), count, source=self.source)
        return True, self.to_lua([int(i) for i in ids])

    def _move(self, entity_id: Any, x: Any, y: Any) -> Result:
        if not isinstance(entity_id, int) or not self._finite(x, y):
            return False, "coreai_world_move(id, x, y): bad arguments"
        self._world_op("coreai_world_move")
        return True, bool(self.host.move(entity_id, float(x), float(y), source=self.source))

    def _destroy(self, entity_id: Any) -> Result:
        if not isinstance(entity_id, int):
            return False, "coreai_world_destroy(id): bad arguments"
        self._world_op("coreai_world_destroy")
        return True, bool(self.host.destroy(entity_id, source=self.source))

    # ------------------------------------------------------------------ game
    def _state(self, known_generation: Any) -> Result:
        gen = self.state.generation
        if known_generation == gen:
            return True, gen
        return True, gen, self.to_lua(self.state.get())

    def _set(self, name: Any, value: Any) -> Result:
        if not isinstance(name, str) or not self._finite(value):
            return False, "game.set(param, value): bad arguments"
        bounds = self.host.params()
        if name not in bounds:
            return False, f"game.set: unknown param '{name}'; declared: {', '.join(sorted(bounds))}"
        lo, hi = bounds[name]
        clamped = min(max(float(value), float(lo)), float(hi))
        applied = self.host.set_param(name, clamped, source=self.source)
        return True, float(applied)

    def _params(self) -> Result:
        bounds = self.host.params()
        return True, self.to_lua({k: {"min": float(lo), "max": float(hi)} for k, (lo, hi) in bounds.items()})

    def _event(self, name: Any, description: Any, cooldown_s: Any) -> Result:
        if not isinstance(name, str) or not isinstance(description, str) or not self._finite(cooldown_s):
            return False, "game.director_event(name, description [, cooldown_s]): bad arguments"
        register = getattr(self.host, "register_event", None)
        if register is None:
            return False, "game.director_event: this game has no director events"
        register(name, description[:120], float(cooldown_s), source=self.source)
        return (True,)

    def _upgrade(self, spec: Any) -> Result:
        data = lua_to_py(spec) if spec is not None else None  # copied now: no Lua object outlives the call
        if not isinstance(data, dict):
            return False, "game.register_upgrade(spec): spec must be a table"
        register = getattr(self.host, "register_upgrade", None)
        if register is None:
            return False, "game.register_upgrade: this game has no upgrade picks"
        register(data, source=self.source)
        return (True,)

    # ------------------------------------------------------------------ output
    def _log(self, level: Any, text: Any) -> Result:
        self.log.write("warn" if level == "warn" else "print", str(text))
        return (True,)

    def _report(self, text: Any) -> Result:
        self._reports += 1
        if self._reports > self.settings.reports_per_call:
            return False, f"report: too many reports in one call (max {self.settings.reports_per_call})"
        message = str(text)
        self.reports.append(message)
        self.log.write("report", message)
        self.on_report(self.mod, message)
        return (True,)

    # ------------------------------------------------------------------ storage
    def _storage_notice(self) -> None:
        """A storage file that was quarantined on first read, or a write that failed (retried), is told to
        the player once."""
        if self.storage.warning:
            text, self.storage.warning = self.storage.warning, None
            self.log.system("warn", f"storage: {text}")
            self.on_report(self.mod, f"mod {self.mod}: {text}")

    def _storage_get(self, key: Any) -> Result:
        value = self.storage.get(str(key))
        self._storage_notice()
        return True, self.to_lua(value)

    def _storage_set(self, key: Any, data: Any) -> Result:
        value = lua_to_py(data) if data is not None else None  # copied now: no Lua object outlives the call
        try:
            self.storage.set(str(key), value)
        finally:
            self._storage_notice()
        return (True,)

    def _storage_keys(self) -> Result:
        keys = self.storage.keys()
        self._storage_notice()
        return True, self.to_lua(keys)
