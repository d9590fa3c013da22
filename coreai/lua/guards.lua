-- Guarded standard libraries of the Lua sandbox (trusted; runs after boot.lua, before api.lua).
--
-- A count hook cannot interrupt one long C call, so the C functions whose cost grows with their input
-- are wrapped here: string patterns (find/match/gmatch/gsub) are refused when their worst-case
-- backtracking cost for the subject length is over `pattern_max_cost`, string.rep is refused past
-- `max_string` bytes, table.concat/insert/remove/move/sort/unpack are range-limited and charge their
-- element count to the entry's instruction budget. Every string function whose work grows with its input
-- (upper/lower/reverse/sub/byte/char/format/rep/gsub/find/match, utf8.len/codepoint/char, table.concat)
-- goes through `kit.spend(bytes)` first: the bytes are charged to the instruction budget and a call whose
-- estimated time would pass the deadline is refused before it starts; `kit.after(bytes)` checks the clock
-- once a big call returns. string.dump and string.pack/unpack are left out.
-- The shared string metatable is locked and points at the guarded string table, so ("x"):rep(...)
-- is guarded too. Libraries reach the mod as read-only proxies.

local kit, cfg = ...

local type, tostring, tonumber, select, next, getmetatable = type, tostring, tonumber, select, next, getmetatable
local s_len, s_byte, s_rep, s_find = string.len, string.byte, string.rep, string.find
local s_match, s_gmatch, s_gsub, s_format = string.match, string.gmatch, string.gsub, string.format
local t_concat, t_insert, t_remove, t_move = table.concat, table.insert, table.remove, table.move
local t_sort, t_unpack = table.sort, table.unpack
local m_floor, m_log, huge = math.floor, math.log, math.huge
local charge, raise, safe_str, readonly, env = kit.charge, kit.raise, kit.safe_str, kit.readonly, kit.env
local spend, after = kit.spend, kit.after
local s_upper, s_lower, s_reverse, s_sub, s_char = string.upper, string.lower, string.reverse, string.sub, string.char
local u_len, u_codepoint, u_char = utf8.len, utf8.codepoint, utf8.char
local m_min, m_max = math.min, math.max
local copy_lib = kit.copy_lib  -- the one copy, defined in boot.lua

local MAX_STRING = cfg.max_string
local MAX_ELEMS = cfg.max_elements
local PATTERN_MAX = cfg.pattern_max_cost
local MAX_PATTERN_LEN = cfg.max_pattern_len
local MAX_MEMORY = cfg.max_memory

-- ------------------------------------------------------------------ guarded C calls
local function skip_set(p, i, m)
  local j = i + 1
  if s_byte(p, j) == 94 then j = j + 1 end          -- [^
  if s_byte(p, j) == 93 then j = j + 1 end          -- leading ] is literal
  while j <= m do
    local c = s_byte(p, j)
    if c == 37 then j = j + 2
    elseif c == 93 then return j + 1
    else j = j + 1 end
  end
  return m + 1
end

-- Worst-case steps of Lua's backtracking matcher: n starts x n^(unbounded quantifiers) x 2^(optional ones)
-- x pattern length (one start when anchored with ^).
local function pattern_cost(p, n, plainfind)
  local m = #p
  if plainfind then return (n + 1) * (m + 1) end                -- lmemfind: memchr + memcmp
  if m > MAX_PATTERN_LEN then return huge end
  if not s_find(p, "[%^%$%*%+%?%.%(%[%%%-]") then return (n + 1) * (m + 1) end
  local i, starts, k, q = 1, n + 1, 0, 0
  if s_byte(p, 1) == 94 then starts, i = 1, 2 end
  while i <= m do
    local c = s_byte(p, i)
    local nxt
    if c == 40 or c == 41 then
      i = i + 1
    else
      if c == 37 then
        local d = s_byte(p, i + 1)
        if d == 98 then k, nxt = k + 1, i + 4                       -- %bxy scans like x.-y
        elseif d == 102 then nxt = skip_set(p, i + 2, m)            -- %f[set]
        elseif d and d >= 48 and d <= 57 then k, nxt = k + 1, i + 2 -- back-reference: a scan
        else nxt = i + 2 end
      elseif c == 91 then
        nxt = skip_set(p, i, m)
      else
        nxt = i + 1
      end
      local qc = s_byte(p, nxt)
      if qc == 42 or qc == 43 or qc == 45 then
        nxt = nxt + 1
        -- a quantifier that ends the pattern (only captures close after it) never backtracks:
        -- the empty rest matches at the first try, so it adds no factor
        if not s_find(p, "^%)*$", nxt) then k = k + 1 end
      elseif qc == 63 then q, nxt = q + 1, nxt + 1 end
      i = nxt
    end
  end
  return starts * (n + 1) ^ k * 2 ^ q * (m + 1)
end

local function check_pattern(fname, s, p, plainfind)
  if type(p) == "number" then p = tostring(p) end
  if type(s) == "number" then s = tostring(s) end
  if type(s) == "string" and type(p) == "string" then
    local n = #s
    if pattern_cost(p, n, plainfind) > PATTERN_MAX then
      raise(s_format("string.%s: pattern '%s' is too complex for a %d-byte subject (limit %d steps)",
        fname, safe_str(p, 40), n, PATTERN_MAX))
    end
    charge(n // 16)
    spend(n)
  end
end

local function g_find(s, p, init, plainfind)
  check_pattern("find", s, p, plainfind)
  return s_find(s, p, init, plainfind)
end
local function g_match(s, p, init)
  check_pattern("match", s, p, false)
  return s_match(s, p, init)
end
local function g_gmatch(s, p, init)
  check_pattern("gmatch", s, p, false)
  return s_gmatch(s, p, init)
end
local function g_gsub(s, p, repl, n)
  check_pattern("gsub", s, p, false)
  local len = slen(s)
  local out = len
  local tr = type(repl)
  if tr == "string" or tr == "number" then out = len + (len + 1) * slen(repl) end
  out = m_min(out, MAX_MEMORY)
  spend(out)
  return done(out, s_gsub(s, p, repl, n))
end

local function g_rep(s, n, sep)
  if type(s) ~= "string" and type(s) ~= "number" then
    raise("bad argument #1 to 'rep' (string expected, got " .. type(s) .. ")")
  end
  if type(n) ~= "number" then raise("bad argument #2 to 'rep' (number expected, got " .. type(n) .. ")") end
  if n ~= n then raise("bad argument #2 to 'rep' (number has no integer representation)") end
  if n > 0 then
    local total = s_len(s) * n
    if type(sep) == "string" or type(sep) == "number" then total = total + s_len(sep) * (n - 1) end
    if total > MAX_STRING then
      raise(s_format("string.rep: result would be %.0f bytes (limit %d)", total, MAX_STRING))
    end
    spend(total)
  end
  return s_rep(s, n, sep)
end

-- ------------------------------------------------------------------ sized C string calls
local function done(bytes, ...)
  after(bytes)
  return ...
end

local function slen(v)
  local tv = type(v)
  if tv == "string" then return #v end
  if tv == "number" then return 24 end
  return 0
end

-- bytes of s[i..j] as string.sub/byte/utf8.codepoint read them (defaults: i, j)
local function slice(s, i, j, di, dj)
  local n = slen(s)
  i, j = tonumber(i) or di, tonumber(j) or dj
  if i == nil or j == nil or i ~= i or j ~= j then return n end
  if i < 0 then i = n + i + 1 end
  if j < 0 then j = n + j + 1 end
  i, j = m_max(i, 1), m_min(j, n)
  return j >= i and (j - i + 1) or 0
end

local function whole(f)
  return function(s, ...)
    local bytes = slen(s)
    spend(bytes)
    return done(bytes, f(s, ...))
  end
end

local g_upper, g_lower, g_reverse = whole(s_upper), whole(s_lower), whole(s_reverse)

local function g_sub(s, i, j)
  local bytes = slice(s, i, j, 1, -1)
  spend(bytes)
  return done(bytes, s_sub(s, i, j))
end

local function g_byte(s, i, j)
  local bytes = slice(s, i, j or i, 1, 1) * 16  -- every byte becomes a stack value
  spend(bytes)
  return done(bytes, s_byte(s, i, j))
end

local function g_char(...)
  local bytes = select("#", ...)
  spend(bytes * 16)
  return s_char(...)
end

local function g_format(fmt, ...)
  local bytes = slen(fmt)
  for k = 1, select("#", ...) do bytes = bytes + slen((select(k, ...))) end
  spend(bytes)
  return done(bytes, s_format(fmt, ...))
end

local function u_sized(f, di, dj)
  return function(s, i, j, ...)
    local bytes = slice(s, i, j, di, dj)
    spend(bytes)
    return done(bytes, f(s, i, j, ...))
  end
end

local function g_uchar(...)
  local bytes = select("#", ...)
  spend(bytes * 16)
  return u_char(...)
end

-- Integer arguments as the C functions read them: numbers or numeric strings ("1e9" counts too).
local function count_arg(v, default)
  if v == nil then return default end
  return tonumber(v)
end

local function check_range(fname, i, j)
  if type(i) == "number" and type(j) == "number" and j - i + 1 > MAX_ELEMS then
    raise(s_format("table.%s: range of %.0f elements is over the limit (%d)", fname, j - i + 1, MAX_ELEMS))
  end
  if type(i) == "number" and type(j) == "number" and j >= i then charge(j - i + 1) end
end

local function g_concat(t, sep, i, j)
  if type(t) ~= "table" then return t_concat(t, sep, i, j) end
  local a = count_arg(i, 1)
  local b = count_arg(j, nil)
  if b == nil and (j == nil) then b = #t end
  check_range("concat", a, b)
  local r = t_concat(t, sep, i, j)
  after(#r)
  return r
end

local function g_insert(t, ...)
  local nargs = select("#", ...)
  if type(t) == "table" and nargs == 2 then
    local pos = ...
    pos = tonumber(pos)
    if pos then
      local len = #t
      if len >= MAX_ELEMS then raise("table.insert: table is over the element limit (" .. MAX_ELEMS .. ")") end
      charge(len - pos + 1)
    end
  end
  return t_insert(t, ...)
end

local function g_remove(t, pos)
  local p = tonumber(pos)
  if type(t) == "table" and p then charge(#t - p + 1) end
  return t_remove(t, pos)
end

local function g_move(a1, f, e, t, a2)
  check_range("move", tonumber(f), tonumber(e))
  return t_move(a1, f, e, t, a2)
end

local function g_sort(t, comp)
  if type(t) == "table" then
    local n = #t
    if n > MAX_ELEMS then raise("table.sort: table is over the element limit (" .. MAX_ELEMS .. ")") end
    if n > 1 then charge(m_floor(n * m_log(n, 2))) end
  end
  return t_sort(t, comp)
end

local function g_unpack(t, i, j)
  if type(t) == "table" then
    local a = count_arg(i, 1)
    local b = count_arg(j, nil)
    if b == nil and j == nil then b = #t end
    check_range("unpack", a, b)
  end
  return t_unpack(t, i, j)
end

local strlib = copy_lib(string, {dump = true, pack = true, unpack = true, packsize = true})
strlib.find, strlib.match, strlib.gmatch, strlib.gsub, strlib.rep = g_find, g_match, g_gmatch, g_gsub, g_rep
strlib.upper, strlib.lower, strlib.reverse, strlib.sub = g_upper, g_lower, g_reverse, g_sub
strlib.byte, strlib.char, strlib.format = g_byte, g_char, g_format
local tbllib = copy_lib(table)
tbllib.concat, tbllib.insert, tbllib.remove, tbllib.move = g_concat, g_insert, g_remove, g_move
tbllib.sort, tbllib.unpack = g_sort, g_unpack

local safe_string = readonly(strlib, "string")
-- Lock the shared string metatable: method calls ("x"):rep(...) go through the guarded table.
local smt = getmetatable("")
smt.__index = safe_string
smt.__metatable = false

env.string = safe_string
env.table = readonly(tbllib, "table")
env.math = readonly(copy_lib(math), "math")
local utflib = copy_lib(utf8)
utflib.len, utflib.codepoint, utflib.char = u_sized(u_len, 1, -1), u_sized(u_codepoint, 1, nil), g_uchar
env.utf8 = readonly(utflib, "utf8")
env.os = readonly({time = os.time, clock = os.clock, difftime = os.difftime}, "os")
