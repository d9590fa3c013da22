"""A mod's headless trial: load it on a fresh world, play ``seconds`` of the real game with a bot, and check
what each rule of its recipe should have done against what the world shows.

The trial has its own saves folder (``ARENA_SAVES_DIR``), so it runs in a child process:
``trial(files, recipe)`` starts ``python -m game.agents.trial`` with the mod on stdin and reads the verdict
from stdout. The checks do not read the mod's Lua: they replay each rule's trigger and condition over the
trial's own record (events, state, params, reports, storage) and compare the effect.

Stimuli make rare triggers happen within a minute: three of each prefab a rule names appear at 4, 24 and
44 s; an HP condition gets the player's HP dropped to 20% at 15 s and restored at 35 s; an enemy-count
condition gets a crowd at 10 s; a wave condition starts that wave at 20 s.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from coreai.lua.grounded import TrialVerdict
from coreai.lua.recipes.catalogue import say_rule
from coreai.lua.recipes.model import Recipe, Rule
from game.agents.trial_checks import Record, Tick, check_rule

TRIAL_SECONDS = 60.0  # the shortest trial; a slow timer gets two of its periods (at most MAX_SECONDS)
MAX_SECONDS = 180.0
HIT_TIMES = (10.0, 30.0, 50.0)  # a damage rule: runners come in touching the player
TRIAL_SEED = 7
STIMULUS_TIMES = (4.0, 24.0, 44.0)  # when the prefabs a rule names are brought in
HP_DIP = (15.0, 35.0)  # the player's HP is dropped to 20% at the first time and restored at the second
TIMEOUT_S = 60.0  # the child process's wall-clock limit


# ---------------------------------------------------------------------------------------------- the run
def _play(
    files: dict[str, str], recipe: Recipe | None, seconds: float, seed: int
) -> tuple[Record, str | None]:
    from coreai.lua.manager import ModManager
    from coreai.mainloop import MainLoopQueue
    from coreai.world import CoreAiBindings
    from game.ai.mod_events import dispatch_events
    from game.ai.modhost import GameModHost
    from game.bindings import GameWorldExecutor, WorldHandle
    from game.sim import events as ev
    from game.sim.config import DT
    from game.sim.spawner import WaveSpawner
    from game.sim.world import World
    from game.zoo import make_player

    name = _name_of(files)
    saves = Path(os.environ.get("ARENA_SAVES_DIR") or tempfile.mkdtemp())
    root = Path(tempfile.mkdtemp(prefix="trial_mods_", dir=saves))  # this mod alone
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        (folder / rel).write_text(text, encoding="utf-8")
    world = World(seed=seed, spawner=WaveSpawner(), respawn=True)
    handle = WorldHandle()
    handle.world = world
    bindings = CoreAiBindings()
    executor = GameWorldExecutor(handle)
    bindings.register_world(executor)
    bindings.register_state(executor)
    queue = MainLoopQueue(bindings)
    clock = [0.0]
    queue.set_game_clock(lambda: clock[0])
    mods = ModManager(GameModHost(handle, queue), roots=[root], user_root=root)
    mods.set_game_clock(lambda: clock[0])
    mods.load_all()
    status = mods.get_status(name)
    if status.last_error:
        mods.close()
        return Record(), status.last_error
    rules = recipe.rules if recipe is not None else ()
    stim = _Stimuli(rules)
    player = make_player("average", seed)
    watched = sorted({r.param for r in rules if r.param})
    rec = Record()
    fault: str | None = None
    max_ticks = round(seconds / DT)
    while world.tick < max_ticks:
        if world.phase == "upgrade":
            world.choose_upgrade(player.choose_upgrade(world))
            continue
        stim.apply(world)
        events = world.step(player.act(world))
        clock[0] = world.time
        for e in events:
            if isinstance(e, ev.EnemySpawned):
                rec.spawned.append((world.time, e.prefab, e.source))
            elif isinstance(e, ev.EnemyKilled):
                rec.killed.append((world.time, e.prefab))
            elif isinstance(e, ev.EnemyRemoved):
                rec.removed.append((world.time, e.prefab))
            elif isinstance(e, ev.PlayerDamaged):
                rec.damaged.append(world.time)
            elif isinstance(e, ev.WaveStarted):
                rec.wave_start.append((world.time, e.wave))
            elif isinstance(e, ev.WaveEnded):
                rec.wave_end.append((world.time, e.wave))
        dispatch_events(mods, events)
        mods.tick(DT)
        p = world.player
        rec.ticks.append(
            Tick(world.time, p.hp, p.stats.max_hp, world.enemies.n, world.wave, world.stats.score,
                 world.stats.kills, {k: world.params.get(k) for k in watched})
        )  # fmt: skip
        for notice in mods.drain_notices():
            if notice.mod == name and notice.kind == "report":
                rec.reports.append((world.time, notice.text))
        # removals a mod made are world events of the next tick; spawns a mod made, too
        status = mods.get_status(name)
        if status.faults or status.last_error:
            fault = status.last_error or "the mod faulted"
            break
    # what the mod's own spawns and removals raised after the last step
    for e in world._between:
        if isinstance(e, ev.EnemySpawned):
            rec.spawned.append((world.time, e.prefab, e.source))
        elif isinstance(e, ev.EnemyRemoved):
            rec.removed.append((world.time, e.prefab))
    mods.close()
    store = saves / "mod_storage" / f"{name}.json"
    if store.is_file():
        rec.storage = json.loads(store.read_text(encoding="utf-8"))
    return rec, fault


class _Stimuli:
    def __init__(self, rules: tuple[Rule, ...]) -> None:
        named = {
            p for r in rules for p in (r.filter_prefab, r.prefab if r.action == "destroy" else None) if p
        }
        named |= {"splitter" for r in rules if r.filter_cause == "split"}  # splits need splitters
        self.prefabs = sorted(named)
        # a kill rule's prefab comes in with 1 HP, so the bot kills it within the minute
        self.frail = {r.filter_prefab for r in rules if r.trigger == "kill" and r.filter_prefab}
        self.hp = any(r.condition in ("hp_below", "hp_above") for r in rules)
        self.crowd = max((int(r.threshold) + 3 for r in rules if r.condition == "enemies_above"), default=0)
        self.wave = max((int(r.threshold) for r in rules if r.condition == "wave_at_least"), default=0)
        self.hits = any(r.trigger == "damage" for r in rules)
        self.done: set[str] = set()

    def _once(self, key: str, world: Any, at: float) -> bool:
        if key in self.done or world.time < at:
            return False
        self.done.add(key)
        return True

    def apply(self, world: Any) -> None:
        p = world.player
        for i, at in enumerate(STIMULUS_TIMES):
            if self._once(f"prefabs{i}", world, at):
                for j, prefab in enumerate(self.prefabs):
                    for k in range(3):
                        a = (j * 3 + k) * 2.1
                        eid = world.spawn_enemy(prefab, p.x + math.cos(a) * 320, p.y + math.sin(a) * 320)
                        if prefab in self.frail:
                            hp = world.enemies.view("hp")
                            hp[world.enemies.view("id") == eid] = 1.0
        if self.hp and self._once("dip", world, HP_DIP[0]):
            p.hp = 0.2 * p.stats.max_hp
        if self.hp and self._once("restore", world, HP_DIP[1]):
            p.hp = p.stats.max_hp
        if self.crowd and self._once("crowd", world, 10.0):
            for k in range(min(self.crowd, 120)):
                a = k * 0.7
                world.spawn_enemy("grunt", p.x + math.cos(a) * 700, p.y + math.sin(a) * 700)
        for i, at in enumerate(HIT_TIMES):
            if self.hits and self._once(f"hit{i}", world, at):
                for k in range(3):
                    world.spawn_enemy("runner", p.x + math.cos(k * 2.1) * 30, p.y + math.sin(k * 2.1) * 30)
        if self.wave > world.wave and self._once("wave", world, 20.0):
            world.start_wave(self.wave)


def _name_of(files: dict[str, str]) -> str:
    m = re.search(r'^name\s*=\s*"([^"]+)"', files.get("mod.toml", ""), re.M)
    return m.group(1) if m else "trial_mod"


def verdict(recipe: Recipe | None, rec: Record, fault: str | None, seconds: float) -> TrialVerdict:
    if fault is not None:
        said = f"it failed in the test run: {fault}"
        return TrialVerdict(ok=False, ran=False, fault=fault, summary=said, seconds=seconds)
    if recipe is None:
        said = f"it ran {seconds:g} s of play without an error (what it does was not checked)"
        return TrialVerdict(ok=True, ran=True, fault=None, summary=said, seconds=seconds)
    base = {p: v for p, v in (rec.ticks[0].params.items() if rec.ticks else ())}
    lines, ok, said_to_player = [], True, []
    for rule in recipe.rules:
        passed, said = check_rule(rule, rec, seconds, base)
        ok = ok and passed
        lines.append(f"{'ok' if passed else 'NOT OK'}: {say_rule(rule)}: {said}")
        said_to_player.append(said if passed else f"{said}, which is not what it should do")
    summary = "; ".join(said_to_player)
    return TrialVerdict(ok=ok, ran=True, fault=None, summary=summary, checks=tuple(lines), seconds=seconds)


def trial_seconds(recipe: Recipe | None) -> float:
    """Long enough for every timer of ``recipe`` to fire twice (60 s at least)."""
    timers = [r.seconds for r in (recipe.rules if recipe else ()) if r.trigger in ("every", "after")]
    return min(MAX_SECONDS, max([TRIAL_SECONDS, *(2 * s + 5 for s in timers)]))


def run_trial(files: dict[str, str], recipe: Recipe | None, seconds: float = TRIAL_SECONDS,
              seed: int = TRIAL_SEED) -> TrialVerdict:  # fmt: skip
    """In this process (its saves folder must be a scratch one: ``ARENA_SAVES_DIR``)."""
    rec, fault = _play(files, recipe, seconds, seed)
    return verdict(recipe, rec, fault, seconds)


def trial(files: dict[str, str], recipe: Recipe | None, seconds: float | None = None,
          seed: int = TRIAL_SEED) -> TrialVerdict:  # fmt: skip
    """The trial in a child process with a scratch saves folder (what the game and the eval call)."""
    seconds = trial_seconds(recipe) if seconds is None else seconds
    payload = json.dumps(
        {"files": files, "recipe": recipe.model_dump() if recipe else None, "seconds": seconds, "seed": seed}
    )
    with tempfile.TemporaryDirectory(prefix="arena-trial-") as scratch:
        env = {**os.environ, "ARENA_SAVES_DIR": scratch, "ARENA_DISCOVER_PORTS": "", "ARCADE_HEADLESS": "1"}
        try:
            out = subprocess.run(
                [sys.executable, "-m", "game.agents.trial"], input=payload, capture_output=True, text=True,
                timeout=TIMEOUT_S, env=env, check=False, close_fds=False,  # posix_spawn: no fork
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            why = "the test run took too long"
            return TrialVerdict(ok=False, ran=False, fault=why, summary=why)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        why = (out.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return TrialVerdict(ok=False, ran=False, fault=why, summary=f"the test run failed: {why}")
    return TrialVerdict.model_validate_json(lines[-1])


def main() -> int:
    from coreai.logging import configure_logging
    from coreai.settings import LogSettings

    configure_logging(LogSettings(level="ERROR", file=False))
    data = json.loads(sys.stdin.read())
    recipe = Recipe.model_validate(data["recipe"]) if data.get("recipe") else None
    result = run_trial(data["files"], recipe, float(data.get("seconds", TRIAL_SECONDS)),
                       int(data.get("seed", TRIAL_SEED)))  # fmt: skip
    sys.stdout.write(result.model_dump_json() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
