"""The hostile Lua snippets of test_lua_hostile.py, by group: (id, code, error kind, message fragment)."""

from __future__ import annotations

SPIN = "function() while true do end end"

# (id, code, expected error kind, fragment the error message must contain)
ESCAPE_OS = [
    ("os_execute", 'os.execute("echo pwned")', "runtime", "execute"),
    ("os_getenv", 'return os.getenv("HOME")', "runtime", "getenv"),
    ("os_remove", 'os.remove("/tmp/x")', "runtime", "remove"),
    ("os_exit", "os.exit(1)", "runtime", "exit"),
    ("io_open", 'io.open("/etc/passwd")', "runtime", "io"),
    ("require", 'require("os")', "runtime", "require"),
    ("dofile", 'dofile("/etc/passwd")', "runtime", "dofile"),
    ("loadfile", 'loadfile("/etc/passwd")', "runtime", "loadfile"),
    ("package_loadlib", 'package.loadlib("libc.so.6", "system")', "runtime", "package"),
    ("debug_registry", "return debug.getregistry()", "runtime", "debug"),
    ("collectgarbage", 'collectgarbage("stop")', "runtime", "collectgarbage"),
    ("string_dump", "return string.dump(function() end)", "runtime", "dump"),
    ("binary_chunk", 'assert(load("\\27LuaT\\0\\25\\147\\r\\n\\26\\n"))', "runtime", "binary chunk"),
    ("binary_reader", 'assert(load(function() return "\\27Lua" end))', "runtime", "binary chunk"),
    (
        "binary_mode_b",
        'assert(load("return 1", "x", "b"))() error("mode b ignored, text ran")',
        "runtime",
        "text ran",
    ),
    (
        "load_env_escape",
        'local f = load("return os.execute") assert(f(), "no os.execute in load env")',
        "runtime",
        "no os.execute",
    ),
    ("string_mt", 'getmetatable("").__index = {}', "runtime", "boolean"),
    ("raw_G_debug", 'return rawget(_G, "debug").traceback()', "runtime", "nil"),
]

ESCAPE_PYTHON = [
    ("python_global", 'return python.eval("1+1")', "runtime", "python"),
    ("python_builtins", "return python.builtins.open", "runtime", "python"),
    ("class_attr", "return game.state().__class__.__mro__", "runtime", "__class__"),
    ("globals_attr", "return coreai_world_spawn.__globals__", "runtime", "function value"),
    (
        "exception_object",
        'local ok, e = pcall(coreai_world_spawn, "dragon", 0, 0) '
        'assert(type(e) == "string", "error object is " .. type(e)) error(e, 0)',
        "runtime",
        "unknown prefab",
    ),
    (
        "exception_traceback",
        'local ok, e = pcall(game.set, "nope", 1) return e.__traceback__.tb_frame',
        "runtime",
        "index a nil value",
    ),
    (
        "error_object_tostring",
        "error(setmetatable({}, {__tostring = " + SPIN + "}))",
        "runtime",
        "error object of type table",
    ),
    (
        "no_userdata_reachable",
        """
        local seen, found = {}, 0
        local function walk(v, depth)
          if depth > 6 or seen[v] then return end
          seen[v] = true
          for k, x in pairs(v) do
            local t = type(x)
            if t == "userdata" or t == "thread" then found = found + 1 end
            if t == "table" then walk(x, depth + 1) end
          end
        end
        walk(_G, 0)
        walk(game.state(), 0)
        error("userdata reachable: " .. found, 0)""",
        "runtime",
        "userdata reachable: 0",
    ),
    ("overwrite_game_state", "game.state = function() return {} end", "runtime", "read-only"),
    ("overwrite_game_set", "game.set = nil", "runtime", "read-only"),
    ("overwrite_storage", "storage.set = print", "runtime", "read-only"),
    ("rawset_api_table", 'rawset(game, "state", print)', "runtime", "read-only"),
    ("setmetatable_api_table", "setmetatable(game, {})", "runtime", "read-only"),
    ("mutate_state_snapshot", "game.state().player.hp = 1e9", "runtime", "read-only"),
    ("mutate_mod_info", 'mod.name = "admin"', "runtime", "read-only"),
    ("table_as_prefab", "coreai_world_spawn({}, 1, 2)", "runtime", "bad argument 'prefab'"),
    ("invalid_utf8_into_python", 'coreai_world_spawn("\\255\\254", 1, 2)', "runtime", "utf-8"),
    ("function_into_storage", 'storage.set("k", coreai_world_spawn)', "runtime", "type function"),
    ("nan_into_world", "coreai_world_move(1, 0/0, 0)", "runtime", "finite number"),
]

EXHAUSTION = [
    ("spin", "while true do end", "budget", "instruction budget"),
    ("spin_in_pcall", "pcall(" + SPIN + ") error('escaped the kill')", "budget", "budget"),
    ("pcall_loop", "while true do pcall(" + SPIN + ") end", "budget", "budget"),
    ("spin_in_xpcall_handler", "xpcall(" + SPIN + ", " + SPIN + ") error('escaped')", "budget", "budget"),
    (
        "spin_in_coroutine",
        "coroutine.resume(coroutine.create(" + SPIN + ")) error('escaped')",
        "budget",
        "budget",
    ),
    ("spin_in_wrap", "coroutine.wrap(" + SPIN + ")()", "budget", "budget"),
    (
        "nested_coroutines",
        "coroutine.wrap(function() pcall(coroutine.wrap(" + SPIN + ")) end)()",
        "budget",
        "budget",
    ),
    (
        "yield_loop",
        "local co = coroutine.wrap(function() while true do coroutine.yield() end end) "
        "while true do co() end",
        "budget",
        "budget",
    ),
    ("spin_in_load_reader", "load(" + SPIN + ") error('escaped')", "budget", "budget"),
    (
        "spin_in_close",
        "do local x <close> = setmetatable({}, {__close = " + SPIN + "}) error('x') end",
        "budget",
        "budget",
    ),
    ("memory_table", "local t = {} for i = 1, 1e9 do t[i] = i end", "memory", "memory cap"),
    ("memory_string", 'local s = "x" while true do s = s .. s end', "memory", "memory cap"),
    (
        "memory_in_pcall",
        'pcall(function() local s = "x" while true do s = s .. s end end) error("escaped")',
        "memory",
        "memory cap",
    ),
    ("string_rep", 'return string.rep("x", 2^40)', "runtime", "string.rep"),
    ("string_rep_method", 'return ("x"):rep(1e8)', "runtime", "string.rep"),
    ("pattern_find", 'return string.find(string.rep("a", 1e5), ".-.-.-.-b")', "runtime", "too complex"),
    ("pattern_gsub", 'return (string.rep("a", 5e4)):gsub("a*a*a*x", "")', "runtime", "too complex"),
    (
        "pattern_gmatch",
        'for w in string.gmatch(string.rep("a", 1e4), "a-a-a-a-b") do end',
        "runtime",
        "too complex",
    ),
    (
        "pattern_optional",
        'return string.match(string.rep("a", 60), string.rep("a?", 60) .. string.rep("a", 60))',
        "runtime",
        "too complex",
    ),
    (
        "concat_index_chain",
        'return table.concat(setmetatable({}, {__index = function() return "x" end}), "", 1, 1e8)',
        "runtime",
        "limit",
    ),
    ("table_move", "table.move({}, 1, 1e9, 2)", "runtime", "limit"),
    (
        "concat_numeric_strings",
        'return table.concat(setmetatable({}, {__index = function() return "x" end}), "", "1", "1e8")',
        "runtime",
        "limit",
    ),
    ("move_numeric_strings", 'table.move({}, "1", "1e9", 2)', "runtime", "limit"),
    (
        "insert_numeric_string",
        'local t = {} for i = 1, 2e5 do table.insert(t, "1", i) end',
        "budget",
        "budget",
    ),
    ("table_unpack", "return table.unpack({}, 1, 1e8)", "runtime", "limit"),
    ("insert_front", "local t = {} for i = 1, 2e5 do table.insert(t, 1, i) end", "budget", "budget"),
    ("gc_metamethod", "setmetatable({}, {__gc = " + SPIN + "})", "runtime", "__gc"),
    (
        "gc_added_later",
        "local mt = {} local t = setmetatable({}, mt) mt.__gc = " + SPIN + " t = nil "
        "local junk = {} for i = 1, 2e5 do junk[i] = {} end junk = nil error('finalizer never ran', 0)",
        "runtime",
        "finalizer never ran",
    ),
    ("tostring_on_print", "print(setmetatable({}, {__tostring = " + SPIN + "}))", "budget", "budget"),
    (
        "tostring_in_format",
        'return string.format("%s", setmetatable({}, {__tostring = ' + SPIN + "}))",
        "budget",
        "budget",
    ),
    (
        "index_recursion",
        "local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x",
        "runtime",
        "stack overflow",
    ),
    ("print_flood", "for i = 1, 1e7 do print(i) end", "budget", "budget"),
    (
        "spawn_flood",
        'for i = 1, 1e6 do coreai_world_spawn("grunt", 0, 0) end',
        "runtime",
        "too many world commands",
    ),
    ("timer_flood", "for i = 1, 1000 do after(1, print) end", "runtime", "too many timers"),
    ("timer_interval", "every(0.0001, print)", "runtime", "interval"),
]


# (id, attacker code, kind, fragment, victim check code, value the check returns)
CROSS_MOD = [
    (
        "string_rep",
        'string.rep = function() return "pwned" end',
        "runtime",
        "read-only",
        'return ("ab"):rep(2)',
        "abab",
    ),
    (
        "string_metatable",
        'getmetatable("").__index = {upper = function() return "pwned" end}',
        "runtime",
        "boolean",
        'return ("ab"):upper()',
        "AB",
    ),
    (
        "string_rawset",
        'rawset(string, "upper", print)',
        "runtime",
        "read-only",
        'return string.upper("x")',
        "X",
    ),
    (
        "table_insert",
        "table.insert = nil",
        "runtime",
        "read-only",
        "local t = {} table.insert(t, 5) return t[1]",
        5,
    ),
    (
        "math_random",
        "math.random = function() return 4 end",
        "runtime",
        "read-only",
        "return math.type(math.random(1, 10))",
        "integer",
    ),
    ("game_state", "game.state = nil", "runtime", "read-only", "return game.state().wave", 1),
    (
        "world_api_global",
        "coreai_world_spawn = nil error(type(coreai_world_spawn), 0)",
        "runtime",
        "nil",
        'return #coreai_world_spawn("runner", 1, 1)',
        1,
    ),
    (
        "global_pollution",
        'shared_flag = "pwned" error("set a global", 0)',
        "runtime",
        "set a global",
        "return shared_flag == nil",
        True,
    ),
    (
        "globals_metatable",
        "setmetatable(_G, {__index = " + SPIN + "}) return undefined_name",
        "budget",
        "budget",
        "return undefined_name == nil",
        True,
    ),
    (
        "storage_hog",
        'storage.set("blob", string.rep("x", 70000))',
        "runtime",
        "cap",
        'storage.set("mine", 1) return storage.get("mine")',
        1,
    ),
    (
        "memory_hog",
        "hog = {} for i = 1, 1e9 do hog[i] = i end",
        "memory",
        "memory cap",
        "local t = {} for i = 1, 1e5 do t[i] = i end return #t",
        100000,
    ),
    (
        "cpu_hog",
        "while true do end",
        "budget",
        "budget",
        "local n = 0 for i = 1, 1e5 do n = n + i end return n",
        5000050000,
    ),
]
