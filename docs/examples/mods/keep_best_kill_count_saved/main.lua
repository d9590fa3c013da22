-- Written by the Programmer from a recipe (coreai/lua/recipes); edit freely.
-- Request: keep my best kill count saved
-- Rule 1: whenever an enemy dies remembers your best kills (kept across runs)

-- whenever an enemy dies remembers your best kills (kept across runs)
local function act_1(e)
  local v = game.state().kills
  if v > (storage.get("best_kills", 0) or 0) then
    storage.set("best_kills", v)
    report("New best kills: " .. v)
  end
end
local function fire_1(e)
  act_1(e)
end

function on_enemy_killed(e)
  fire_1(e)
end
