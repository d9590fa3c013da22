-- Trusted boot chunk of the Arena Director Lua sandbox (Mod API v1).
--
-- Runs once per LuaRuntime, before any mod code; then guards.lua and api.lua run with the `kit` this
-- chunk returns, and kit.seal() wipes the real _G and starts the count hook. This chunk owns the budget
-- machinery, the mod's environment table (basic functions, protected-call wrappers, coroutines),
-- read-only proxies, and the runner functions Python calls. Python never reaches into mod code except
-- through those runners; mods never see a Python object.
--
-- Budget model: a count hook fires every N instructions in the main thread AND in every coroutine
-- (coroutine.create/wrap are wrapped). Each firing takes N from the entry's instruction budget and
-- compares the wall clock with the entry's deadline (every `deadline_every` firings; 1 by default).
--
-- One VM instruction can do work proportional to a string's length (`..`, comparisons, hashing a long
-- key) and no hook runs inside it, so N adapts to the memory in use: N = hook_window_kb / KiB in use,
-- clamped to [1, hook_step]. Big strings need big memory, so code that holds or churns them is checked
-- every few instructions while ordinary code keeps the coarse step; a window between two firings that
-- took longer than `hook_window_ms` shrinks the step in proportion. A sentinel finalizer re-arms the
-- hook to fire on the very next instruction after every GC cycle (a cycle means a lot was allocated),
-- so memory that grows inside one window is noticed at once. Guarded C calls (guards.lua) call
-- `spend(bytes)`: it charges the bytes to the instruction budget and refuses a call whose estimated
-- time would pass the deadline. A kill sets a flag that pcall/xpcall/coroutine.resume/load/
-- coroutine.close re-raise, so mod code cannot swallow it.

local cfg, py = ...
local G = _G

local type, error, select, next, tostring, tonumber = type, error, select, next, tostring, tonumber
local rawget, rawset, rawequal, rawlen = rawget, rawset, rawequal, rawlen
local setmetatable, getmetatable = setmetatable, getmetatable
local pcall, xpcall, load, assert, ipairs = pcall, xpcall, load, assert, ipairs
local sethook, gethook, traceback, getinfo = debug.sethook, debug.gethook, debug.traceback, debug.getinfo
local collectgarbage = collectgarbage
local co_create, co_resume, co_close = coroutine.create, coroutine.resume, coroutine.close
local co_running = coroutine.running
local s_sub, s_gsub = string.sub, string.gsub
local u_len = utf8.len
local m_type, huge = math.type, math.huge

local now, cpu = py.now, py.cpu
local STEP = cfg.hook_step
local CHECK_EVERY = cfg.deadline_every
local WINDOW_KB = cfg.hook_window_kb
local WINDOW_S = cfg.hook_window_ms / 1000
local SEC_PER_BYTE = cfg.ns_per_byte * 1e-9
local SPEND_CHECK = 16384  -- C calls on fewer bytes than this only charge the instruction budget
local MAX_CHUNK = cfg.max_chunk
local MAX_TEXT = cfg.max_text
local MEMMSG = "not enough memory"
local KILL = "sandbox budget exceeded"

-- ------------------------------------------------------------------ budget state and the count hook
local active, killed, kill_reason, kill_where = false, false, nil, nil
local remaining, start_budget, deadline, fires = 0, 0, 0, 0
local last_msg, last_tb = nil, nil

-- The innermost mod frame (not C, not a trusted "=coreai-*" chunk) as "file:line". Used for kills and
-- for errors raised by guards and API functions, so the message names the mod's own line even when the
-- mod tail-called the API function.
local function where()
  for level = 3, 40 do
    local info = getinfo(level, "Sl")
    if not info then return nil end
    if info.what ~= "C" and info.currentline > 0 and s_sub(info.source, 1, 8) ~= "=coreai-" then
      return info.short_src .. ":" .. info.currentline
    end
  end
  return nil
end

local function raise(msg)
  local at = where()
  error(at and (at .. ": " .. msg) or msg, 0)
end

local function kill(reason)
  if not killed then
    killed, kill_reason, kill_where = true, reason, where()
  end
  error(KILL, 0)
end

-- The step for the memory in use: coarse for ordinary code, down to 1 for code holding big strings.
local function step_for()
  local n = WINDOW_KB // collectgarbage("count")
  if n >= STEP then return STEP end
  if n < 1 then return 1 end
  return n
end

-- The runner frames around the protected call: a hook firing there (between xpcall returning and
-- `leave` clearing `active`; likely now that the step can be 1) must not raise outside the xpcall.
local enter, leave

local function in_runner()
  local info = getinfo(3, "f")
  return info ~= nil and (info.func == enter or info.func == leave)
end

local last_t = 0.0  -- clock at the previous firing of this entry (0: none yet)

-- The deadline is wall-clock, but a thread the OS did not run (a loaded machine) has not overrun. The
-- first time the deadline passes, a grace (a quarter of the span, at most 50 ms) is granted and the thread's CPU
-- clock noted. Code that is merely late finishes inside the grace; code still running at its end is killed
-- if it got any real CPU time in it (5%), else the grace is renewed (at most MAX_GRACES times). Hostile
-- work is thus killed by 1.25x its deadline + 50 ms at most (+ one hook window); a descheduled mod is not.
local MAX_GRACES = 4
local span, graces, cpu_mark, wall_mark = 0.0, 0, -1.0, 0.0

local function overdue(t)
  local c = cpu()
  if cpu_mark >= 0 and c - cpu_mark >= 0.05 * (t - wall_mark) then return true end
  if graces >= MAX_GRACES then return true end
  graces = graces + 1
  cpu_mark, wall_mark = c, t
  deadline = t + (span < 0.2 and 0.25 * span or 0.05)
  return false
end

local hook
hook = function()
  if not active then return end
  if killed then
    if in_runner() then return end
    error(KILL, 0)
  end
  local _, _, n = gethook()
  remaining = remaining - n
  if remaining < 0 and not in_runner() then kill("instructions") end
  local want = step_for()
  fires = fires + 1
  if fires >= CHECK_EVERY then
    fires = 0
    local t = now()
    if t > deadline and not in_runner() and overdue(t) then kill("deadline") end
    -- a window that took long means expensive instructions: shrink the step; grow back gradually
    if last_t > 0 then
      local took = t - last_t
      if took > WINDOW_S then
        local k = (n * WINDOW_S / took) // 1
        if k < want then want = k < 1 and 1 or k end
      elseif want > 2 * n then
        want = 2 * n
      end
    end
    last_t = t
  end
  if want ~= n then
    sethook(hook, "", want)
    local _, is_main = co_running()
    if is_main then main_step = want end
  end
end

local function charge(n)
  if active then
    remaining = remaining - n
    if remaining < 0 then kill("instructions") end
  end
end

-- A guarded C call is about to touch `bytes` bytes: charge them, and refuse the call when its estimated
-- time would pass the deadline (it cannot be interrupted once it runs).
local function spend(bytes)
  if active and bytes > 0 then
    remaining = remaining - bytes // 16
    if remaining < 0 then kill("instructions") end
    if bytes >= SPEND_CHECK then
      local t = now()
      if t + bytes * SEC_PER_BYTE > deadline and (t <= deadline or overdue(t)) then kill("deadline") end
    end
  end
end

-- After a guarded C call that touched many bytes: the deadline may have passed inside it.
local function after(bytes)
  if active and bytes >= SPEND_CHECK then
    local t = now()
    if t > deadline and overdue(t) then kill("deadline") end
  end
end

-- After every GC cycle (lots of allocation) the hook fires on the next instruction of the thread that
-- allocated and re-tunes its step. Hooks are off inside finalizers; sethook here only arms the count.
local sentinel_mt = {}
sentinel_mt.__gc = function()
  if active then sethook(hook, "", 1) end
  setmetatable({}, sentinel_mt)
end
setmetatable({}, sentinel_mt)

-- Re-raise a kill (or a memory error) that a protected call caught; pass everything else through.
local function reraise(ok, ...)
  if killed then error(KILL, 0) end
  if not ok and (...) == MEMMSG then
    killed, kill_reason = true, "memory"
    error(KILL, 0)
  end
  return ok, ...
end

-- ------------------------------------------------------------------ helpers: text, read-only tables
local HIGH = {}
for b = 128, 255 do HIGH[string.char(b)] = "\\" .. b end

local function safe_str(s, limit)
  limit = limit or MAX_TEXT
  if #s > limit then s = s_sub(s, 1, limit) .. "..." end
  if u_len(s) then return s end
  return (s_gsub(s, "[\128-\255]", HIGH))
end

local protected = setmetatable({}, {__mode = "k"})

local function readonly(src, label)
  local proxy = {}
  local function iter(_, k) return next(src, k) end
  setmetatable(proxy, {
    __index = src,
    __newindex = function(_, k)
      local key = type(k) == "string" and k or ("<" .. type(k) .. ">")
      raise(label .. " is read-only (cannot set '" .. key .. "')")
    end,
    __pairs = function() return iter, proxy, nil end,
    __len = function() return #src end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

local function freeze(t, label, depth)
  depth = depth or 0
  if depth > 16 then return readonly({}, label) end
  for k, v in next, t do
    if type(v) == "table" then t[k] = freeze(v, label, depth + 1) end
  end
  return readonly(t, label)
end

-- Plain data for Python: strings/numbers/booleans/nested tables, no metamethods run (raw next).
-- strict (storage): refuse what cannot be stored; otherwise (results): describe it instead.
local function plain(v, depth, seen, strict)
  local tv = type(v)
  if tv == "string" then
    if strict then
      if not u_len(v) then raise("strings must be valid UTF-8 text") end
      return v
    end
    return safe_str(v)
  end
  if tv == "number" then
    if v ~= v or v == huge or v == -huge then
      if strict then raise("cannot store a non-finite number") end
      return tostring(v)
    end
    return v
  end
  if tv == "boolean" or tv == "nil" then return v end
  if tv == "table" then
    if seen[v] then
      if strict then raise("cannot store a table that contains itself") end
      return "<cycle>"
    end
    if depth > 8 then
      if strict then raise("table nested too deep (max 8 levels)") end
      return "<table>"
    end
    seen[v] = true
    local out = {}
    for k, x in next, v do
      seen.n = (seen.n or 0) + 1
      if seen.n > 4096 then
        if strict then raise("table too large (max 4096 entries)") end
        break
      end
      local tk = type(k)
      if tk == "string" then
        if strict and (#k > 256 or not u_len(k)) then
          raise("table keys must be UTF-8 strings of at most 256 bytes")
        end
        out[strict and k or safe_str(k, 256)] = plain(x, depth + 1, seen, strict)
      elseif tk == "number" and m_type(k) == "integer" then
        out[k] = plain(x, depth + 1, seen, strict)
      elseif strict then
        raise("table keys must be strings or integers")
      end
    end
    seen[v] = nil
    return out
  end
  if strict then raise("cannot store a value of type " .. tv) end
  return "<" .. tv .. ">"
end

-- ------------------------------------------------------------------ the mod environment
-- Basic functions and the protected-call wrappers live here (they share the kill state); guards.lua
-- adds the guarded string/table libraries and math/utf8/os, api.lua adds Mod API v1.
local env = {}

local function copy_lib(lib, drop)
  local out = {}
  for k, v in next, lib do
    if not (drop and drop[k]) then out[k] = v end
  end
  return out
end

local function g_setmetatable(t, mt)
  if type(t) ~= "table" then raise("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")") end
  if protected[t] then raise("cannot change the metatable of a read-only table") end
  if mt ~= nil then
    if type(mt) ~= "table" then raise("bad argument #2 to 'setmetatable' (nil or table expected)") end
    if rawget(mt, "__gc") ~= nil then raise("__gc metamethods are not allowed in mods") end
  end
  return setmetatable(t, mt)
end

local function g_rawset(t, k, v)
  if protected[t] then raise("cannot rawset into a read-only table") end
  return rawset(t, k, v)
end

local function g_pcall(f, ...)
  return reraise(pcall(f, ...))
end

local function g_xpcall(f, handler, ...)
  local function h(e)
    if killed or e == MEMMSG then return e end
    return handler(e)
  end
  return reraise(xpcall(f, h, ...))
end

local function g_load(chunk, chunkname, mode, fenv)
  if type(chunkname) ~= "string" then chunkname = "=(load)" end
  if fenv ~= nil and type(fenv) ~= "table" then return nil, "load: env must be a table" end
  local src = chunk
  if type(chunk) == "string" then
    if #chunk > MAX_CHUNK then return nil, "load: chunk is over " .. MAX_CHUNK .. " bytes" end
    charge(#chunk // 4)
  elseif type(chunk) == "function" then
    local total = 0
    src = function()
      local piece = chunk()
      if piece == nil then return nil end
      if type(piece) ~= "string" then error("reader function must return a string", 0) end
      total = total + #piece
      if total > MAX_CHUNK then error("chunk is over " .. MAX_CHUNK .. " bytes", 0) end
      return piece
    end
  else
    return nil, "load: chunk must be a string or a reader function"
  end
  local f, err = load(src, chunkname, "t", fenv or env)
  if killed then error(KILL, 0) end
  return f, err
end

local function g_co_create(f)
  local co = co_create(f)
  sethook(co, hook, "", step_for())
  return co
end

local function g_co_resume(co, ...)
  return reraise(co_resume(co, ...))
end

local function g_co_wrap(f)
  local co = g_co_create(f)
  local function finish(ok, ...)
    if killed then error(KILL, 0) end
    if not ok then
      local e = ...
      if e == MEMMSG then killed, kill_reason = true, "memory"; error(KILL, 0) end
      error(e, 0)
    end
    return ...
  end
  return function(...) return finish(co_resume(co, ...)) end
end

local function g_co_close(co)
  return reraise(co_close(co))
end

local colib = copy_lib(coroutine)
colib.create, colib.resume, colib.wrap, colib.close = g_co_create, g_co_resume, g_co_wrap, g_co_close

env.assert, env.error, env.ipairs, env.next, env.select = assert, error, ipairs, next, select
env.pairs, env.rawequal, env.rawget, env.rawlen, env.rawset = pairs, rawequal, rawget, rawlen, g_rawset
env.tonumber, env.tostring, env.type = tonumber, tostring, type
env.getmetatable, env.setmetatable = getmetatable, g_setmetatable
env.pcall, env.xpcall, env.load = g_pcall, g_xpcall, g_load
env._VERSION = _VERSION
env.coroutine = readonly(colib, "coroutine")
env._G = env


-- ------------------------------------------------------------------ guarded entries (called by Python)
local function handler(e)
  if killed then return KILL end
  local te = type(e)
  local msg
  if te == "string" then msg = e
  elseif te == "number" or te == "boolean" or te == "nil" then msg = tostring(e)
  else msg = "error object of type " .. te end
  last_msg = msg
  last_tb = traceback("", 2)
  return msg
end

-- Garbage counts as memory in use and would keep the hook step fine for later entries: after an entry
-- that left a lot of it (twice the live heap plus 4 MiB), collect it once.
local live_kb = 0

leave = function(ok, ...)
  active = false
  local kb = collectgarbage("count")
  if kb > 2 * live_kb + 4096 then
    collectgarbage("collect")
    live_kb = collectgarbage("count")
  end
  local used = start_budget - remaining
  if killed then
    return false, kill_reason == "memory" and "memory" or "budget", kill_reason, used, kill_where or ""
  end
  if ok then return true, used, ... end
  local e = ...
  if e == MEMMSG and last_msg == nil then return false, "memory", "memory", used, "" end
  local msg = last_msg or (type(e) == "string" and e) or "error"
  return false, "runtime", safe_str(msg), used, safe_str(last_tb or "", 4 * MAX_TEXT)
end

enter = function(budget, dl, sp, f, ...)
  remaining, start_budget, deadline, fires = budget, budget, dl, 0
  span, graces, cpu_mark = sp, 0, -1.0
  killed, kill_reason, kill_where, last_msg, last_tb = false, nil, nil, nil, nil
  local want = step_for()
  if want ~= main_step then
    sethook(hook, "", want)
    main_step = want
  end
  last_t = 0.0
  active = true
  return leave(xpcall(f, handler, ...))
end

local function results(...)
  local n = select("#", ...)
  local out, seen = {n = n}, {}
  for i = 1, n do out[i] = plain(select(i, ...), 0, seen, false) end
  return out
end

local kit = {
  env = env, readonly = readonly, freeze = freeze, plain = plain, safe_str = safe_str, charge = charge,
  spend = spend, after = after,
  protected = protected, raise = raise, tick_impl = nil,
}

local runners = {}

function runners.hook(budget, dl, sp, name, ...)
  local f = rawget(env, name)
  if type(f) ~= "function" then return nil end
  return enter(budget, dl, sp, f, ...)
end

function runners.tick(budget, dl, sp, dt)
  return enter(budget, dl, sp, kit.tick_impl, dt)
end

function runners.exec(budget, dl, sp, code, chunkname)
  local f, err = load(code, chunkname, "t", env)
  if not f then return false, "syntax", safe_str(err), 0, "" end
  return enter(budget, dl, sp, function() return results(f()) end)
end

function runners.gc()
  collectgarbage("collect")
  return collectgarbage("count")
end

function runners.has(name)
  return type(rawget(env, name)) == "function"
end

-- Called once the API chunk has captured what it needs: nothing of the real globals stays reachable
-- (python, debug, io, os, package, require, dofile, loadfile, collectgarbage, load are gone from _G;
-- the mod never sees _G itself either), and the count hook goes on the main thread.
function kit.seal()
  for k in next, G, nil do G[k] = nil end
  sethook(hook, "", STEP)
  kit.seal = nil
end

kit.runners = runners
kit.copy_lib = copy_lib  -- guards.lua copies the standard libraries with it
return kit
