-- Kill-streak bounty (Mod API v1).
-- Every 5 kills in a row without taking damage raise the score multiplier by 0.25 (up to x3).
-- Every 10 kills a bounty tank spawns near the player; killing it doubles the multiplier bonus for
-- 10 seconds. Getting hit resets the streak. The best streak ever is kept in storage.

local STEP, PER_STEP, MAX_MULT = 5, 0.25, 3.0
local BOUNTY_EVERY, BOUNTY_DIST, BONUS_SECONDS = 10, 420, 10

local streak, best = 0, 0
local bounty_id = nil
local bonus_until = nil   -- timer id while the bounty bonus runs

local function multiplier()
  local bonus = PER_STEP * (streak // STEP)
  if bonus_until then bonus = bonus * 2 end
  return math.min(MAX_MULT, 1.0 + bonus)
end

local function apply()
  game.set("score_mult", multiplier())
end

local function spawn_bounty()
  local p = game.state().player
  if not p then return end
  local a = math.random() * 2 * math.pi
  local ids = coreai_world_spawn("tank", p.x + math.cos(a) * BOUNTY_DIST, p.y + math.sin(a) * BOUNTY_DIST)
  bounty_id = ids[1]
  report("A bounty tank has appeared! Kill it for a score bonus.")
end

function on_load()
  best = storage.get("best_streak", 0)
  apply()
end

function on_enemy_killed(e)
  streak = streak + 1
  if bounty_id and e.id == bounty_id then
    bounty_id = nil
    if bonus_until then cancel(bonus_until) end
    bonus_until = after(BONUS_SECONDS, function() bonus_until = nil; apply() end)
    apply()
    report("Bounty collected! Double streak bonus for " .. BONUS_SECONDS .. " s")
  end
  if streak % STEP == 0 then
    apply()
    report(string.format("Kill streak %d! Score x%.2f", streak, multiplier()))
  end
  if streak % BOUNTY_EVERY == 0 and not bounty_id then spawn_bounty() end
  if streak > best then
    best = streak
    storage.set("best_streak", best)
  end
end

function on_player_damaged(amount)
  if streak >= STEP then report("Streak lost at " .. streak .. " (best " .. best .. ")") end
  streak = 0
  apply()
end

function on_unload()
  game.set("score_mult", 1.0)
end
