"""Plain data across the Lua boundary: Python values in, Lua tables out, and back, with limits.

Nothing but ``None``/``bool``/``int``/``float``/``str`` and nested lists/dicts of them crosses into Lua
(``LuaRuntime.table_from(..., recursive=True)`` turns them into real Lua tables), so no Python object is
ever reachable from mod code. Lua tables coming back are copied at once with raw iteration (no
metamethod runs, and no Lua object outlives the callback: lupa issue #84).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from lupa import lua54

MAX_DEPTH = 8
MAX_ITEMS = 4096


class _Counter:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def tick(self) -> None:
        self.n += 1
        if self.n > MAX_ITEMS:
            raise ValueError(f"data too large (more than {MAX_ITEMS} values)")


def to_plain(value: Any, depth: int = 0, counter: _Counter | None = None) -> Any:
    """JSON-like copy of ``value``; raises ``ValueError`` for data too deep or too large."""
    counter = counter or _Counter()
    counter.tick()
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        f = float(value)
        return f if math.isfinite(f) else None
    if depth >= MAX_DEPTH:
        raise ValueError(f"data nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            key = k if isinstance(k, str) or (isinstance(k, int) and not isinstance(k, bool)) else str(k)
            item = to_plain(v, depth + 1, counter)
            if item is not None:
                out[key] = item
        return out
    if isinstance(value, list | tuple):
        return [False if (item := to_plain(v, depth + 1, counter)) is None else item for v in value]
    return str(value)


def is_lua_table(obj: Any) -> bool:
    return lua54.lua_type(obj) == "table"


def lua_to_py(obj: Any, depth: int = 0, counter: _Counter | None = None) -> Any:
    """Copy a Lua value into Python data: tables become lists (1..n keys) or dicts (str keys)."""
    counter = counter or _Counter()
    counter.tick()
    if obj is None or isinstance(obj, bool | int | str):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, bytes):
        return obj.decode("utf-8", errors="replace")
    kind = lua54.lua_type(obj)
    if kind != "table":
        return f"<{kind or type(obj).__name__}>"
    if depth >= MAX_DEPTH:
        raise ValueError(f"table nested deeper than {MAX_DEPTH} levels")
    items: dict[Any, Any] = {}
    for k, v in obj.items():  # lua_next: raw, no __pairs/__index
        if isinstance(k, bool) or not isinstance(k, int | str):
            continue
        items[k] = lua_to_py(v, depth + 1, counter)
    n = len(items)
    if n and all(isinstance(k, int) for k in items) and set(items) == set(range(1, n + 1)):
        return [items[i] for i in range(1, n + 1)]
    return {str(k): v for k, v in items.items()}
