-- Glass cannon (Mod API v1): a rule change through declared params.
-- Double damage, half max HP while the mod runs; everything is restored when it unloads.

local DAMAGE, MAX_HP = 2.0, 0.5

function on_load()
  local dmg = game.set("player_damage_mult", DAMAGE)
  local hp = game.set("player_max_hp_mult", MAX_HP)
  report(string.format("Glass cannon: damage x%g, max HP x%g", dmg, hp))
end

function on_wave_start(wave)
  if wave == 1 or wave % 5 == 0 then
    report("Glass cannon is on: one hit hurts. Wave " .. wave)
  end
end

function on_player_damaged(amount)
  local p = game.state().player
  if p and p.max_hp and p.hp and p.hp > 0 and p.hp <= p.max_hp * 0.25 then
    warn("low HP: " .. p.hp)
  end
end

function on_unload()
  game.set("player_damage_mult", 1.0)
  game.set("player_max_hp_mult", 1.0)
end
