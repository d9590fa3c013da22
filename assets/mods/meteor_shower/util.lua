-- Helpers for meteor_shower, loaded with include("util.lua").
local util = {}

function util.clamp(v, lo, hi)
  if v < lo then return lo elseif v > hi then return hi end
  return v
end

-- A point at a random angle, `min_r`..`max_r` from (x, y), kept inside the arena.
function util.point_near(x, y, min_r, max_r, arena)
  local a = math.random() * 2 * math.pi
  local r = min_r + math.random() * (max_r - min_r)
  local w = arena and arena.width or 3200
  local h = arena and arena.height or 2400
  return util.clamp(x + math.cos(a) * r, 40, w - 40), util.clamp(y + math.sin(a) * r, 40, h - 40)
end

return util
