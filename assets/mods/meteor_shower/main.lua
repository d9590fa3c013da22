-- Meteor shower (Mod API v1): timed hazards that spawn enemies.
-- From wave FIRST_WAVE on, every INTERVAL seconds: a warning, then WARNING seconds later
-- 3..6 "meteors" (fast runners) crash down in a ring around the player.
-- It also offers the AI director a "meteor_storm" event: a shower on demand, whenever the director
-- decides the player needs one (at most once every 40 s).

local util = include("util.lua")

local FIRST_WAVE, INTERVAL, WARNING = 2, 25, 2
local MIN_R, MAX_R = 250, 450

local wave = 0
local showers = 0

local function impact()
  local s = game.state()
  local p = s.player
  if not p then return end
  local n = math.min(6, 2 + wave // 2)
  local spawned = 0
  for _ = 1, n do
    local x, y = util.point_near(p.x, p.y, MIN_R, MAX_R, s.arena)
    local ids = coreai_world_spawn("runner", x, y)
    spawned = spawned + #ids
  end
  showers = showers + 1
  print("shower " .. showers .. ": " .. spawned .. " meteors")
end

local function shower()
  if wave < FIRST_WAVE then return end
  report("Meteor shower incoming!")
  after(WARNING, impact)
end

function on_load()
  every(INTERVAL, shower)
  -- pcall: a game without a director (or an older one) still runs the timed showers
  pcall(game.director_event, "meteor_storm", "a meteor shower of runners around the player, now", 40)
end

function on_director_event(name)
  if name ~= "meteor_storm" then return end
  report("The director calls down a meteor storm!")
  after(WARNING, impact)
end

function on_wave_start(w)
  wave = w
  if w == FIRST_WAVE then report("The sky darkens... meteor showers begin.") end
end
