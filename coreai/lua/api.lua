-- Mod API v1, built by trusted code into the mod's environment (see prompts/skills/lua_modding.md).
--
-- Every API function is a Lua closure around a Python callable held in an upvalue the mod cannot
-- reach (no debug library). Closures check and copy arguments into plain values BEFORE calling Python,
-- Python answers `true, value...` or `false, message`, and a failure is raised here as a Lua error
-- string pointing at the mod's own line. Runs after boot.lua and before the real _G is wiped.

local kit, py, info = ...

local type, error, tostring, select, next = type, error, tostring, select, next
local s_format, t_concat, t_sort = string.format, table.concat, table.sort
local u_len, m_type, m_floor, huge = utf8.len, math.type, math.floor, math.huge
local raw_load, rawget = load, rawget
local env, readonly, freeze, plain, safe_str = kit.env, kit.readonly, kit.freeze, kit.plain, kit.safe_str
local raise = kit.raise

local MOD = info.name
local MAX_TIMERS = info.max_timers
local MAX_TIMERS_TOTAL = info.max_timers_total
local MIN_INTERVAL = info.min_interval
local FILES = info.files

-- ------------------------------------------------------------------ argument checks
local function bad(fname, what, expected, v)
  raise(s_format("bad argument '%s' to '%s' (%s expected, got %s)", what, fname, expected, type(v)))
end

local function num(fname, what, v)
  if type(v) ~= "number" or v ~= v or v == huge or v == -huge then bad(fname, what, "finite number", v) end
  return v
end

local function int(fname, what, v)
  if type(v) ~= "number" or v ~= m_floor(v) or v ~= v or v == huge or v == -huge then
    bad(fname, what, "integer", v)
  end
  return m_floor(v)
end

local function str(fname, what, v, maxlen)
  if type(v) ~= "string" then bad(fname, what, "string", v) end
  if #v > maxlen then raise(s_format("bad argument '%s' to '%s' (longer than %d bytes)", what, fname, maxlen)) end
  if not u_len(v) then raise(s_format("bad argument '%s' to '%s' (not valid UTF-8)", what, fname)) end
  return v
end

local function fn_arg(fname, what, v)
  if type(v) ~= "function" then bad(fname, what, "function", v) end
  return v
end

-- Text of print/warn/report arguments (tostring runs under the entry's budget).
local function text_of(...)
  local n = select("#", ...)
  if n == 1 then return safe_str(tostring((...))) end
  local parts = {}
  for i = 1, n do parts[i] = tostring((select(i, ...))) end
  return safe_str(t_concat(parts, "\t"))
end

-- ------------------------------------------------------------------ world commands
local py_spawn, py_move, py_destroy = py.spawn, py.move, py.destroy

function env.coreai_world_spawn(prefab, x, y, count)
  str("coreai_world_spawn", "prefab", prefab, 64)
  num("coreai_world_spawn", "x", x)
  num("coreai_world_spawn", "y", y)
  if count == nil then count = 1 end
  count = int("coreai_world_spawn", "count", count)
  local ok, ids = py_spawn(prefab, x, y, count)
  if not ok then raise(ids) end
  return ids
end

function env.coreai_world_move(id, x, y)
  id = int("coreai_world_move", "id", id)
  num("coreai_world_move", "x", x)
  num("coreai_world_move", "y", y)
  local ok, moved = py_move(id, x, y)
  if not ok then raise(moved) end
  return moved
end

function env.coreai_world_destroy(id)
  id = int("coreai_world_destroy", "id", id)
  local ok, done = py_destroy(id)
  if not ok then raise(done) end
  return done
end

-- ------------------------------------------------------------------ game: state, params
local py_state, py_set, py_params, py_event = py.state, py.set, py.params, py.event
local state_gen, state_cache = -1, nil

local game = {}

function game.state()
  local ok, gen, t = py_state(state_gen)
  if not ok then raise(gen) end
  if t ~= nil then state_cache, state_gen = freeze(t, "game.state()"), gen end
  return state_cache
end

function game.set(name, value)
  str("game.set", "param", name, 64)
  num("game.set", "value", value)
  local ok, applied = py_set(name, value)
  if not ok then raise(applied) end
  return applied
end

function game.params()
  local ok, t = py_params()
  if not ok then raise(t) end
  return freeze(t, "game.params()")
end

-- Offer a named event to the AI director; when it fires, every mod's on_director_event(name) runs.
function game.director_event(name, description, cooldown_s)
  str("game.director_event", "name", name, 32)
  str("game.director_event", "description", description or "", 120)
  cooldown_s = cooldown_s or 30
  num("game.director_event", "cooldown_s", cooldown_s)
  local ok, err = py_event(name, description or "", cooldown_s)
  if not ok then raise(err) end
end

-- Register a passive upgrade the between-wave picks may offer: {key, name, description, max_stacks, effects}
-- where effects maps a stat (damage, fire_rate, speed, max_hp, pickup_radius, bullet_speed, dash_cooldown:
-- a factor per stack; regen: HP/s added per stack) to its number. Bounds are checked by the game.
local py_upgrade = py.upgrade

function game.register_upgrade(spec)
  if type(spec) ~= "table" then bad("game.register_upgrade", "spec", "table", spec) end
  local data = plain(spec, 0, {}, true)
  local ok, err = py_upgrade(data)
  if not ok then raise(err) end
  return true
end

env.game = readonly(game, "game")

-- ------------------------------------------------------------------ output: print, warn, report
local py_log, py_report = py.log, py.report

function env.print(...) py_log("print", text_of(...)) end
function env.warn(...) py_log("warn", text_of(...)) end
function env.report(...)
  local ok, err = py_report(text_of(...))
  if not ok then raise(err) end
end

-- ------------------------------------------------------------------ timers: after, every, cancel
local timers, timer_count, next_id, clock = {}, 0, 0, 0.0
local py_timer_room, py_timers_now = py.timer_room, py.timers_now  -- the manager-wide timer budget

local function add_timer(fname, seconds, f, interval)
  num(fname, "seconds", seconds)
  fn_arg(fname, "fn", f)
  if seconds < 0 then raise(fname .. ": seconds must be >= 0") end
  if interval and interval < MIN_INTERVAL then
    raise(s_format("%s: interval must be at least %g s", fname, MIN_INTERVAL))
  end
  if timer_count >= MAX_TIMERS then raise(s_format("%s: too many timers (max %d)", fname, MAX_TIMERS)) end
  if not py_timer_room() then
    raise(s_format("%s: too many timers in all mods and consoles together (max %d)", fname, MAX_TIMERS_TOTAL))
  end
  next_id = next_id + 1
  timers[next_id] = {at = clock + seconds, fn = f, every = interval}
  timer_count = timer_count + 1
  py_timers_now(timer_count)
  return next_id
end

function env.after(seconds, f) return add_timer("after", seconds, f, nil) end
function env.every(seconds, f) return add_timer("every", seconds, f, seconds) end
function env.cancel(id)
  if timers[id] then
    timers[id] = nil
    timer_count = timer_count - 1
    py_timers_now(timer_count)
    return true
  end
  return false
end

local function by_time(a, b)
  if a[2] == b[2] then return a[1] < b[1] end
  return a[2] < b[2]
end

local function run_timers(dt)
  clock = clock + dt
  if timer_count == 0 then return end
  local due = nil
  for id, t in next, timers do
    if t.at <= clock then
      due = due or {}
      due[#due + 1] = {id, t.at}
    end
  end
  if not due then return end
  t_sort(due, by_time)
  for i = 1, #due do
    local id = due[i][1]
    local t = timers[id]
    if t then
      if t.every then
        t.at = t.at + t.every
        if t.at <= clock then t.at = clock + t.every end   -- no catch-up storm after a long frame
      else
        timers[id] = nil
        timer_count = timer_count - 1
        py_timers_now(timer_count)
      end
      t.fn()
    end
  end
end

function kit.tick_impl(dt)
  local f = rawget(env, "on_tick")
  if type(f) == "function" then f(dt) end
  run_timers(dt)
end

function kit.timer_count() return timer_count end

-- ------------------------------------------------------------------ storage (persisted, size-capped)
local py_sget, py_sset, py_skeys = py.storage_get, py.storage_set, py.storage_keys
local storage = {}

function storage.get(key, default)
  str("storage.get", "key", key, 128)
  local ok, v = py_sget(key)
  if not ok then raise(v) end
  if v == nil then return default end
  return v
end

function storage.set(key, value)
  str("storage.set", "key", key, 128)
  local data = plain(value, 0, {}, true)
  local ok, err = py_sset(key, data)
  if not ok then raise(err) end
end

function storage.remove(key)
  str("storage.remove", "key", key, 128)
  local ok, err = py_sset(key, nil)
  if not ok then raise(err) end
end

function storage.keys()
  local ok, keys = py_skeys()
  if not ok then raise(keys) end
  return keys
end

env.storage = readonly(storage, "storage")

-- ------------------------------------------------------------------ mod info and include()
env.mod = readonly({name = MOD, version = info.version, author = info.author, api_version = 1}, "mod")

local included = {}

function env.include(file)
  str("include", "file", file, 128)
  local done = included[file]
  if done ~= nil then return done end
  local src = FILES[file]
  if type(src) ~= "string" then raise("include: mod '" .. MOD .. "' has no file '" .. file .. "'") end
  included[file] = true
  local f, err = raw_load(src, "=" .. MOD .. "/" .. file, "t", env)
  if not f then error(err, 0) end
  local r = f()
  if r ~= nil then included[file] = r end
  return r
end
