"""MCP prompts for the three things outside agents come to do: playtest a wave, repair a mod, tune the
director. Each is a short, concrete plan in terms of this server's tools and resources."""

from __future__ import annotations

from coreai.mcp.resources import PromptSpec


def playtest_wave(wave: str = "1", focus: str = "how hard it felt and why") -> str:
    return f"""\
Playtest wave {wave} of Arena Director and report {focus}.
1. sim_control {{"action": "state"}}: if not frozen, {{"action": "freeze"}}. read_skill {{"name": "mcp"}}
   explains the tools.
2. Play: aim at pos + near[0].dx/dy (player_input aim), hold shoot (player_input press shoot), move away
   from crowds with player_input hold (30-60 ticks), and advance with sim_control step_until
   {{"until_event": ["enemy_killed", "player_hit", "wave_end"], "max_ticks": 120}}. Read every digest:
   hp, near, events.
3. At stopped "upgrade_pick": choose with player_input tap pick_1..pick_3 (say why); in the shop
   (shop_open) buy what helps (tap shop_buy, item) and tap next_wave.
4. Play until wave {wave} ends (stopped "event:wave_end"), then read arena://runs/current: the director's
   decisions (pressure, reason) and the event log.
5. Report: kills, HP lost and to what, the moments you were in danger (tick), what the director did and
   when, the upgrade you picked, and one change that would make the wave better."""


def repair_mod(mod: str = "") -> str:
    target = f"the mod '{mod}'" if mod else "the failing mod (manage_mods list shows last_error)"
    name = mod or "<name>"
    return f"""\
Repair {target} in Arena Director.
1. manage_mods {{"op": "list"}} and get_mod_logs {{"mod": "{name}"}}: find the error, its line, its hook.
2. manage_mods {{"op": "get_source", "name": "{name}"}}; read_skill {{"name": "lua_modding"}}: the API.
3. Fix the smallest thing; manage_mods {{"op": "load", "name": ..., "source": ...}} (a bad version is reverted
   and the error comes back: fix and retry).
4. Prove it: sim_control freeze, then step_until the event the mod reacts to (e.g. enemy_killed,
   wave_start) and read get_mod_logs again; execute_lua can check state.
5. Report the cause, the fix, and the evidence that it works now."""


def tune_director(goal: str = "more tension in the first two waves without deaths") -> str:
    return f"""\
Tune the AI director of Arena Director toward: {goal}.
1. get_director_state: intensity, pacing (build_up / sustain_peak / peak_fade / relax), knobs, last plan.
2. Read arena://runs/current: the trajectory (every decision, its reason, what was clamped).
3. sim_control freeze; then step_until {{"until_event": ["player_hit", "wave_end"], "max_ticks": 600}} while
   watching hp and the digest's events; set_director_plan with a one-line reason when you change pressure,
   mix or an event (it is validated and clamped like the director's own plans).
4. Listen on arena://runs/current to see each new decision as it lands.
5. Report what you changed, when (tick), and what it did to hp, kills and pacing."""


PROMPTS: tuple[PromptSpec, ...] = (
    PromptSpec(
        "playtest_wave",
        "Play a wave with exact steps and report what you saw.",
        playtest_wave,
        frozenset({"play", "all"}),
    ),
    PromptSpec(
        "repair_mod",
        "Find and fix a failing Lua mod, then prove the fix in play.",
        repair_mod,
        frozenset({"mod", "all"}),
    ),
    PromptSpec(
        "tune_director",
        "Steer the AI director toward a pacing goal and measure it.",
        tune_director,
        frozenset({"direct", "all"}),
    ),
)
