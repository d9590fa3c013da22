"""The sandbox itself: runtime options, the exact global environment, budgets, faults with lines, and the
Mod API functions working against the in-memory host."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lua_fakehost import FakeHost

from coreai.errors import LuaBudgetExceeded, LuaMemoryExceeded, LuaRuntimeError, LuaSyntaxError
from coreai.lua.bridge import ModBridge, StateCache
from coreai.lua.manager import ModManager
from coreai.lua.modlog import ModLog
from coreai.lua.sandbox import LuaSandbox
from coreai.lua.settings import MIB, CallBudget, LuaSettings
from coreai.lua.storage import ModStorage

ENV_NAMES = {
    # Lua basics (wrapped where needed)
    "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "rawequal", "rawget", "rawlen", "rawset",
    "select", "tonumber", "tostring", "type", "getmetatable", "setmetatable", "load", "_VERSION", "_G",
    "string", "table", "math", "utf8", "coroutine", "os",
    # Mod API v1
    "coreai_world_spawn", "coreai_world_move", "coreai_world_destroy", "game", "report", "print", "warn",
    "after", "every", "cancel", "storage", "mod", "include",
}  # fmt: skip


def make_sandbox(
    host: FakeHost,
    settings: LuaSettings | None = None,
    files: dict[str, str] | None = None,
    saves: Path | None = None,
) -> LuaSandbox:
    s = settings or LuaSettings()
    storage = ModStorage("t", s.storage_cap_bytes, (saves / "t.json") if saves else None)
    bridge = ModBridge(
        "t",
        host,
        s,
        log=ModLog("t"),
        storage=storage,
        state=StateCache(host),
        on_report=lambda mod, text: None,
    )
    box = LuaSandbox("t", bridge.functions(), s, files=files or {})
    bridge.to_lua = box.to_lua
    return box


def test_runtime_is_lua54_with_memory_cap_and_no_python(host: FakeHost) -> None:
    box = make_sandbox(host, LuaSettings(max_memory_mb=16))
    assert box._lua.lua_version == (5, 4)
    assert box._lua.get_max_memory() == 16 * MIB
    out = box.exec("local names = {} for k in pairs(_G) do names[#names + 1] = k end return names", "t")
    assert out.fault is None
    assert set(out.values[0]) == ENV_NAMES
    probe = box.exec(
        "return python, debug, io, package, require, dofile, loadfile, collectgarbage, os.execute", "t"
    )
    assert probe.fault is None and probe.values == [None] * 9


def test_standard_library_still_works(manager: ModManager) -> None:
    code = """
    local words = {}
    for w in ("the quick brown fox"):gmatch("%a+") do words[#words + 1] = w:upper() end
    local k, v = ("speed = 1.5"):match("^(%w+)%s*=%s*(.-)$")
    local t = {5, 3, 9, 1}
    table.sort(t)
    local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
    local first, second = co(1), co(10)
    local f = load("return 6 * 7")
    return table.concat(words, " "), k, tonumber(v), table.concat(t, ","), first, second, f(),
           utf8.len("héllo"), math.floor(2.7), os.difftime(10, 4), select("#", 1, 2, 3)
    """
    r = manager.execute(code)
    assert r.ok, r.error
    assert r.values == ["THE QUICK BROWN FOX", "speed", 1.5, "1,3,5,9", 2, 20, 42, 5, 2, 6.0, 3]


def test_wrapped_builtins_behave_like_lua(manager: ModManager) -> None:
    code = """
    local co = coroutine.create(function() coroutine.yield(1) end)
    coroutine.resume(co)
    local closed = coroutine.close(co)
    local ok, msg = xpcall(function() error("boom", 0) end, function(e) return "handled " .. e end)
    local pok, perr = pcall(error, {code = 7})
    local t = setmetatable({}, {__index = function(_, k) return k .. "!" end})
    rawset(t, "own", 1)
    local parts, i = {"return ", "40 + 2"}, 0
    local chunk = load(function() i = i + 1 return parts[i] end)
    return closed, coroutine.status(co), ok, msg, pok, perr.code, t.x, rawget(t, "x"), rawlen({1, 2}),
           rawequal(t, t), select(-1, 1, 2, 3), coroutine.isyieldable(), chunk()
    """
    r = manager.execute(code)
    assert r.ok, r.error
    assert r.values == [True, "dead", False, "handled boom", False, 7, "x!", None, 2, True, 3, False, 42]


def test_coroutine_created_earlier_is_still_budgeted(manager: ModManager) -> None:
    setup = manager.execute(
        "co = coroutine.create(function() coroutine.yield() while true do end end) coroutine.resume(co)",
        mod="later",
    )
    assert setup.ok, setup.error
    r = manager.execute("coroutine.resume(co) error('escaped')", mod="later")
    assert r.error_kind == "budget"


def test_deadline_kill_when_instructions_allow_more(host: FakeHost) -> None:
    box = make_sandbox(host)
    out = box.exec("while true do end", "t", CallBudget(instructions=2_000_000_000, deadline_ms=30))
    assert out.fault is not None and out.fault.kind == "budget" and out.fault.budget == "deadline"
    assert isinstance(out.fault.to_error("t"), LuaBudgetExceeded)
    assert "deadline of 30 ms" in out.fault.message
    assert box.exec("return 1", "t").values == [1]


def test_instruction_kill_reports_budget_and_line(host: FakeHost) -> None:
    box = make_sandbox(host)
    out = box.exec(
        "local n = 0\nwhile true do\n  n = n + 1\nend", "t", CallBudget(instructions=50_000, deadline_ms=5000)
    )
    assert out.fault is not None
    assert out.fault.budget == "instructions" and out.fault.line in (2, 3)
    assert out.fault.instructions >= 50_000


def test_faults_carry_mod_line_and_map_to_the_error_tree(host: FakeHost) -> None:
    box = make_sandbox(host)
    rt = box.exec("local a = 1\nlocal b = nil\nreturn a + b", "t").fault
    assert rt is not None and rt.kind == "runtime" and rt.line == 3 and "arithmetic" in rt.message
    err = rt.to_error("mymod", trace_id="abc")
    assert isinstance(err, LuaRuntimeError) and err.mod == "mymod" and err.line == 3 and err.trace_id == "abc"
    syn = box.exec("local x = = 2", "t").fault
    assert syn is not None and syn.kind == "syntax" and syn.line == 1
    assert isinstance(syn.to_error("m"), LuaSyntaxError)
    mem = box.exec("local s = 'x' while true do s = s .. s end", "t").fault
    assert mem is not None and isinstance(mem.to_error("m"), LuaMemoryExceeded)
    api = box.exec("local x = 1\ncoreai_world_spawn('dragon', 0, 0)", "t").fault
    assert api is not None and api.line == 2 and "unknown prefab 'dragon'" in api.message


def test_host_exceptions_become_lua_error_strings(host: FakeHost, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*a: object, **k: object) -> list[int]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(host, "spawn", broken)
    box = make_sandbox(host)
    out = box.exec("local ok, e = pcall(coreai_world_spawn, 'grunt', 0, 0) return ok, type(e), e", "t")
    assert out.fault is None
    assert out.values == [False, "string", "t:1: spawn: internal error (RuntimeError)"]


def test_world_and_game_api(manager: ModManager, host: FakeHost) -> None:
    code = """
    local ids = coreai_world_spawn("tank", 100, 200, 3)
    local moved = coreai_world_move(ids[1], 5, 6)
    local gone = coreai_world_destroy(ids[2])
    local again = coreai_world_destroy(ids[2])
    local applied = game.set("enemy_speed_mult", 10)
    local p = game.params()
    local s = game.state()
    return #ids, moved, gone, again, applied, p.enemy_speed_mult.max, s.player.x, s.wave, #s == 0
    """
    r = manager.execute(code)
    assert r.ok, r.error
    assert r.values == [3, True, True, False, 2.0, 2.0, 1600.0, 1, True]
    assert host.count("tank") == 2 and host.values["enemy_speed_mult"] == 2.0
    assert ("spawn", "console:console") in host.calls
    bad = manager.execute('game.set("god_mode", 1)')
    assert not bad.ok and "declared:" in (bad.error or "") and "score_mult" in (bad.error or "")
    too_many = manager.execute('coreai_world_spawn("grunt", 0, 0, 500)')
    assert not too_many.ok and "count must be 1..20" in (too_many.error or "")


def test_state_snapshot_is_fresh_each_frame(manager: ModManager, host: FakeHost) -> None:
    assert manager.execute("return game.state().wave").values == [1]
    host.wave = 4
    manager.tick(1 / 60)
    assert manager.execute("return game.state().wave").values == [4]


def test_print_warn_report_and_binary_text(manager: ModManager) -> None:
    r = manager.execute(
        'print("a", 1, nil, true) warn("careful") report("hello") '
        'print(setmetatable({}, {__tostring = function() return "\\255bin" end}))'
    )
    assert r.ok, r.error
    assert r.output == ["print: a\t1\tnil\ttrue", "warn: careful", "report: hello", "print: \\255bin"]
    assert r.reports == ["hello"]
    notices = manager.drain_notices()
    assert [(n.kind, n.text) for n in notices] == [("report", "hello")]


def test_print_lines_are_capped_per_call(manager: ModManager) -> None:
    r = manager.execute("for i = 1, 500 do print(i) end return 'done'")
    assert r.ok and r.values == ["done"]
    assert len(r.output) == LuaSettings().log_lines_per_call
    manager.execute("return 1")
    assert any("400 more lines suppressed" in e.message for e in manager.logs("console"))


def test_storage_roundtrip_cap_and_persistence(host: FakeHost, saves_dir: Path) -> None:
    box = make_sandbox(host, saves=saves_dir)
    out = box.exec(
        """
        storage.set("best", 12)
        storage.set("cfg", {name = "x", list = {1, 2, 3}, nested = {deep = true}})
        storage.set("gone", "soon")
        storage.remove("gone")
        local cfg = storage.get("cfg")
        return storage.get("best"), cfg.name, cfg.list[3], cfg.nested.deep, storage.get("gone", "default"),
               table.concat(storage.keys(), ",")
    """,
        "t",
    )
    assert out.fault is None, out.fault
    assert out.values == [12, "x", 3, True, "default", "best,cfg"]
    cap = box.exec('storage.set("blob", string.rep("x", 70000))', "t").fault
    assert cap is not None and "byte cap" in cap.message


def test_storage_file_is_atomic_json_and_corrupt_file_is_quarantined(saves_dir: Path) -> None:
    store = ModStorage("m", 1024)
    store.set("k", [1, 2])
    store.flush()
    path = saves_dir / "mod_storage" / "m.json"
    assert json.loads(path.read_text()) == {"k": [1, 2]}
    path.write_text("{not json")
    fresh = ModStorage("m", 1024)
    assert fresh.get("k") is None and fresh.warning and "corrupt" in fresh.warning
    assert list((saves_dir / "mod_storage").glob("m.json.corrupt-*"))


def test_include_loads_mod_files_once(host: FakeHost) -> None:
    box = make_sandbox(
        host,
        files={
            "lib.lua": "count = (count or 0) + 1 return {twice = function(x) return 2 * x end}",
            "bad.lua": "return +",
        },
    )
    out = box.exec(
        "local a = include('lib.lua') local b = include('lib.lua') return a.twice(21), count, a == b", "t"
    )
    assert out.fault is None and out.values == [42, 1, True]
    bad = box.exec("include('bad.lua')", "t").fault
    assert bad is not None and (bad.source, bad.line) == ("t/bad.lua", 1) and "near '+'" in bad.message
    missing = box.exec("include('../etc/passwd')", "t").fault
    assert missing is not None and "has no file" in missing.message


def test_returned_values_are_plain_copies(manager: ModManager) -> None:
    r = manager.execute("local t = {1, 2, x = {y = 'z'}} t.self = t return t, print, 0/0, 1/0")
    assert r.ok
    value, fn, nan, inf = r.values
    assert value["1"] == 1 and value["x"] == {"y": "z"} and value["self"] == "<cycle>"
    assert fn == "<function>" and nan in ("nan", "-nan") and inf == "inf"


def test_reference_doc_covers_every_global_and_hook() -> None:
    from coreai.lua.manager import HOOKS
    from coreai.paths import PROMPTS_DIR

    doc = (PROMPTS_DIR / "skills" / "lua_modding.md").read_text(encoding="utf-8")
    for name in sorted(ENV_NAMES | set(HOOKS) | {"on_tick", "on_load", "on_unload"}):
        assert f"`{name}" in doc or f" {name}" in doc, name
    for fn in (
        "storage.get",
        "storage.set",
        "storage.remove",
        "storage.keys",
        "game.state",
        "game.set",
        "game.params",
        "game.director_event",
        "game.register_upgrade",
        "mod.name",
    ):
        assert fn in doc, fn


def test_pattern_guard_allows_linear_patterns_on_long_text(manager: ModManager) -> None:
    code = """
    local text = string.rep("alpha beta gamma ", 3000)           -- 51 KB
    local words = 0
    for w in text:gmatch("%S+") do words = words + 1 end
    local first = text:match("(%a+)")
    local plain = text:find("gamma alpha", 1, true)
    local ok, err = pcall(string.match, text, "(%a+)%s*$")        -- quantifier before $: quadratic
    return words, first, plain, ok, err:match("too complex") ~= nil
    """
    r = manager.execute(code)
    assert r.ok, r.error
    assert r.values == [9000, "alpha", 12, False, True]
