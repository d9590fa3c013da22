-- Written by the Programmer from a recipe (coreai/lua/recipes); edit freely.
-- Request: if more than 30 enemies are alive, halve the spawn rate
-- Rule 1: as soon as more than 30 enemies are alive sets spawn_rate_mult to 0.5 (back to 1 after)

-- as soon as more than 30 enemies are alive sets spawn_rate_mult to 0.5 (back to 1 after)
local saved_1 = nil
local function act_1(e)
  if saved_1 == nil then saved_1 = game.state().params["spawn_rate_mult"] end
  game.set("spawn_rate_mult", 0.5)
end
local function fire_1(e)
  act_1(e)
end
local on_1 = false
local function poll_1()
  local s = game.state()
  local now = (s.enemies_alive > 30)
  if now and not on_1 then on_1 = true fire_1(nil)
  elseif not now and on_1 then on_1 = false
    if saved_1 ~= nil then game.set("spawn_rate_mult", saved_1) saved_1 = nil end
  end
end

function on_load()
  every(0.5, poll_1)
end

function on_unload()
  if on_1 then
    if saved_1 ~= nil then game.set("spawn_rate_mult", saved_1) saved_1 = nil end
  end
end
