-- Written by the Programmer from a recipe (coreai/lua/recipes); edit freely.
-- Request: when each wave begins, spawn 2 runners nearby and tell me the wave
-- Rule 1: at the start of every wave spawns 2 runners near you
-- Rule 2: at the start of every wave shows the wave number

local PER_CALL = 6  -- the game's cap on one spawn call
local last_spawned, refused = 0, false
local function place(where, e)
  local s = game.state()
  local p, w, h = s.player, s.arena.width, s.arena.height
  if where == "event" and e ~= nil and e.x ~= nil then return e.x, e.y end
  if where == "edge" then
    local side = math.random(4)
    if side == 1 then return 40, math.random() * h end
    if side == 2 then return w - 40, math.random() * h end
    if side == 3 then return math.random() * w, 40 end
    return math.random() * w, h - 40
  end
  if where == "center" then return w / 2, h / 2 end
  if where == "random" then return 60 + math.random() * (w - 120), 60 + math.random() * (h - 120) end
  local a = math.random() * 2 * math.pi
  local d = 150 + math.random() * 60
  return p.x + math.cos(a) * d, p.y + math.sin(a) * d
end

-- spawn n in calls of at most PER_CALL; a refusal (rate limit, live cap) is not the mod's fault
local function spawn(prefab, x, y, n)
  local made, left = 0, n
  while left > 0 do
    local ok, ids = pcall(coreai_world_spawn, prefab, x, y, math.min(left, PER_CALL))
    if not ok then
      if not refused then refused = true warn("spawn refused: " .. tostring(ids)) end
      break
    end
    made = made + #ids
    left = left - math.min(left, PER_CALL)
    if #ids == 0 then break end
  end
  return made
end

-- at the start of every wave spawns 2 runners near you
local function act_1(e)
  local x, y = place("near_player", e)
  last_spawned = spawn("runner", x, y, 2)
end
local function fire_1(e)
  act_1(e)
end

-- at the start of every wave shows the wave number
local function act_2(e)
  local s = game.state()
  report(string.format("Wave: %d", s.wave))
end
local function fire_2(e)
  act_2(e)
end

function on_wave_start(wave)
  fire_1({wave = wave})
  fire_2({wave = wave})
end
