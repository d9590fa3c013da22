---@meta
-- Arena Director Mod API v1: definitions for the Lua language server (LuaLS).
-- GENERATED from coreai/lua/api_spec.py by `python -m coreai.lua.api_spec`; do not edit.
-- Reference: prompts/skills/lua_modding.md. Setup: point .luarc.json's workspace.library here.

---@alias Prefab "grunt"|"runner"|"tank"|"spitter"|"charger"|"splitter"|"splitling"|"exploder"|"boss"|"shielder"

---@class ArenaPlayer
---@field x number
---@field y number
---@field hp number
---@field max_hp number
---@field level integer
---@field xp number
---@field alive boolean

---@class ArenaEnemy
---@field id integer
---@field prefab Prefab
---@field x number
---@field y number

---@class UpgradeSpec
---@field key string lower_snake_case, at most 32 bytes, not a built-in upgrade
---@field name string at most 28 characters
---@field description string at most 80 characters
---@field max_stacks integer? 1-10, default 3
---@field effects table<string, number> 1-4 stats: damage, fire_rate, speed, max_hp, pickup_radius, bullet_speed, dash_cooldown (x0.5-1.6 per stack), regen (+0-2 HP/s)

---@class ArenaState
---@field time number game seconds
---@field tick integer
---@field wave integer
---@field phase string
---@field wave_time_left number
---@field score integer
---@field kills integer
---@field deaths integer
---@field enemies_alive integer
---@field enemies_by_prefab table<string, integer>
---@field bullets integer
---@field pickups integer
---@field upgrades table
---@field params table<string, number>
---@field player ArenaPlayer
---@field arena {width: number, height: number}

---@class gamelib
game = {}

---@class storagelib
storage = {}

---@class modlib
---@field name string This mod's name.
---@field version string This mod's version.
---@field author string This mod's author.
---@field api_version integer The Mod API version (1).
mod = {}

--- Spawn enemies through the prefab whitelist; returns their entity ids.
---@param prefab Prefab a name from the prefab whitelist
---@param x number
---@param y number
---@param count? integer 1..20, default 1
---@return integer[]
function coreai_world_spawn(prefab, x, y, count) end

--- Move an entity; false when it is gone.
---@param id integer
---@param x number
---@param y number
---@return boolean
function coreai_world_move(id, x, y) end

--- Remove an entity; false when it is gone.
---@param id integer
---@return boolean
function coreai_world_destroy(id) end

--- A read-only snapshot of the run, refreshed every frame.
---@return ArenaState
function game.state() end

--- The params game.set accepts, with their bounds.
---@return table<string, {min: number, max: number}>
function game.params() end

--- Set a bounded param (clamped); returns the value applied.
---@param param string
---@param value number
---@return number
function game.set(param, value) end

--- Add a passive to the between-wave upgrade picks, this run and later; errors name the field.
---@param spec UpgradeSpec
function game.register_upgrade(spec) end

--- Offer the AI director a named event; on_director_event(name) runs when it fires.
---@param name string
---@param description string
---@param cooldown_s? number default 30
function game.director_event(name, description, cooldown_s) end

--- A line on the HUD and in your mod log (at most 10 per call).
---@param ... any
function report(...) end

--- A line in your mod log.
---@param ... any
function print(...) end

--- A warning line in your mod log.
---@param ... any
function warn(...) end

--- Run fn once after seconds of game time; returns a timer id.
---@param seconds number
---@param fn fun()
---@return integer
function after(seconds, fn) end

--- Run fn every seconds (minimum 0.05); returns a timer id.
---@param seconds number
---@param fn fun()
---@return integer
function every(seconds, fn) end

--- Cancel a timer; true if it existed.
---@param id integer
---@return boolean
function cancel(id) end

--- Run another Lua file of this mod once and return its value.
---@param file string
---@return any
function include(file) end

--- A stored value (a fresh copy), or default.
---@param key string
---@param default? any
---@return any
function storage.get(key, default) end

--- Store a plain value (nil removes the key).
---@param key string
---@param value any
function storage.set(key, value) end

--- Remove a key.
---@param key string
function storage.remove(key) end

--- The stored keys, sorted.
---@return string[]
function storage.keys() end

-- Hooks: define any of these as global functions in your mod.

--- After the entry file ran, once per (re)load.
function on_load() end

--- Before the mod is unloaded, disabled or reloaded.
function on_unload() end

--- A wave begins.
---@param wave integer
function on_wave_start(wave) end

--- A wave ends.
---@param wave integer
function on_wave_end(wave) end

--- An enemy appears.
---@param e ArenaEnemy
function on_enemy_spawned(e) end

--- An enemy dies.
---@param e ArenaEnemy
function on_enemy_killed(e) end

--- The player loses HP.
---@param amount number
function on_player_damaged(amount) end

--- At most 60 times a second; dt: seconds since this mod's last tick.
---@param dt number
function on_tick(dt) end

--- The AI director fired a named event a mod offered.
---@param name string
function on_director_event(name) end
