-- Berserker (Mod API v1): registers a passive the between-wave upgrade picks can offer.
-- Per stack: +15% damage, +10% fire rate, -8% max HP; at most 3 stacks.

function on_load()
  -- pcall: a host without upgrade picks (a test harness, an older game) still loads the mod
  local ok, err = pcall(game.register_upgrade, {
    key = "berserker_blood",
    name = "Berserker Blood",
    description = "+15% damage, +10% fire rate, -8% max HP",
    max_stacks = 3,
    effects = { damage = 1.15, fire_rate = 1.10, max_hp = 0.92 },
  })
  if ok then print("Berserker Blood joins the upgrade picks") else warn("no upgrade picks here: " .. tostring(err)) end
end
