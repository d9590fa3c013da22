"""The mod manager as the services behind the ``execute_lua`` / ``manage_mods`` / ``get_mod_logs`` tools
(``coreai.tools.lua_tools``), used by in-game agents and MCP alike.

Every function here runs on the main thread (the MCP bridge marshals each tool call there) and returns
JSON-able data; errors are the manager's ``ModError`` / ``LuaError``, which MCP reports as tool errors.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from coreai.errors import ModError
from coreai.lua import ModManager


class ModServices:
    def __init__(self, mods: ModManager) -> None:
        self.mods = mods

    def execute_lua(self, code: str, mod: str, trace_id: str | None = None) -> dict[str, Any]:
        result = self.mods.execute(code, mod or "agent", trace_id=trace_id)
        data: dict[str, Any] = result.model_dump(mode="json")
        return data

    def manage_mods(
        self, op: str, name: str | None, *, source: str | None = None, version: int | None = None
    ) -> dict[str, Any]:
        m = self.mods
        if op == "list":
            return {"mods": [s.model_dump(mode="json") for s in m.status()]}
        if op == "diagnostics":
            return {"diagnostics": m.diagnostics(name)}
        if not name:
            raise ModError("?", f"'{op}' needs a mod name")
        if op == "get_source":
            return {"name": name, "files": m.get_source(name)}
        if op == "load":
            status = m.write_source(name, source) if source is not None else m.load(name)
        elif op == "reload":
            status = m.reload(name)
        elif op == "unload":
            status = m.unload(name)
        elif op == "versions":
            return {"name": name, "versions": [v.model_dump(mode="json") for v in m.versions_of(name)]}
        elif op == "revert":
            status = m.revert(name, version)
        else:
            raise ModError(name, f"unknown operation '{op}'")
        return {"ok": True, "status": status.model_dump(mode="json")}

    def get_mod_logs(self, mod: str | None, limit: int) -> list[dict[str, Any]]:
        return [dataclasses.asdict(e) for e in self.mods.logs(mod, limit=limit)]
