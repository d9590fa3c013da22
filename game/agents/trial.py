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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coreai.lua.grounded import TrialVerdict
from coreai.lua.recipes.catalogue import say_rule
from coreai.lua.recipes.model import POLL_S, Recipe, Rule
from coreai.lua.recipes.render import storage_key

TRIAL_SECONDS = 60.0
TRIAL_SEED = 7
STIMULUS_TIMES = (4.0, 24.0, 44.0)  # when the prefabs a rule names are brought in
HP_DIP = (15.0, 35.0)  # the player's HP is dropped to 20% at the first time and restored at the second
TIMEOUT_S = 60.0  # the child process's wall-clock limit


@dataclass
class Tick:
    t: float
    hp: float
    max_hp: float
    enemies: int
    wave: int
    score: int
    kills: int
    params: dict[str, float]


@dataclass
class Record:
    ticks: list[Tick] = field(default_factory=list)
    spawned: list[tuple[float, str, str]] = field(default_factory=list)  # (t, prefab, source)
    killed: list[tuple[float, str]] = field(default_factory=list)
    removed: list[tuple[float, str]] = field(default_factory=list)
    damaged: list[float] = field(default_factory=list)
    wave_start: list[tuple[float, int]] = field(default_factory=list)
    wave_end: list[tuple[float, int]] = field(default_factory=list)
    reports: list[tuple[float, str]] = field(default_factory=list)
    storage: dict[str, Any] = field(default_factory=dict)

    def at(self, t: float) -> Tick:
        """The record of the tick at (or just before) game time ``t``."""
        lo, hi = 0, len(self.ticks) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.ticks[mid].t <= t + 1e-9:
                lo = mid
            else:
                hi = mid - 1
        return self.ticks[lo]


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
        if self.wave > world.wave and self._once("wave", world, 20.0):
            world.start_wave(self.wave)


def _name_of(files: dict[str, str]) -> str:
    m = re.search(r'^name\s*=\s*"([^"]+)"', files.get("mod.toml", ""), re.M)
    return m.group(1) if m else "trial_mod"


# -------------------------------------------------------------------------------------------- the checks
def _cond(rule: Rule, tick: Tick) -> bool:
    t = rule.threshold
    return {
        "always": True,
        "hp_below": tick.hp < t * tick.max_hp,
        "hp_above": tick.hp > t * tick.max_hp,
        "enemies_above": tick.enemies > t,
        "enemies_below": tick.enemies < t,
        "wave_at_least": tick.wave >= t,
    }[rule.condition]


def _candidates(rule: Rule, rec: Record, end: float) -> list[float]:
    """The game times the rule's trigger went off (before its condition and n-th counting)."""
    if rule.trigger == "load":
        return [0.0]
    if rule.trigger == "every":
        return [rule.seconds * k for k in range(1, int((end - 0.01) / rule.seconds) + 1)]
    if rule.trigger == "after":
        return [rule.seconds] if end >= rule.seconds else []
    if rule.trigger == "wave_start":
        return [t for t, _ in rec.wave_start]
    if rule.trigger == "wave_end":
        return [t for t, _ in rec.wave_end]
    if rule.trigger == "damage":
        return list(rec.damaged)
    if rule.trigger == "kill":
        return [t for t, p in rec.killed if rule.filter_prefab in (None, p)]
    if rule.trigger == "spawn":
        return [
            t
            for t, p, src in rec.spawned
            if rule.filter_prefab in (None, p)
            and rule.filter_cause in (None, src)
            and not (rule.action == "spawn" and src == "mod")
        ]
    # when: rising edges of the condition, looked at every POLL_S
    out, was, k = [], False, 1
    while k * POLL_S <= end:
        now = _cond(rule, rec.at(k * POLL_S))
        if now and not was:
            out.append(k * POLL_S)
        was, k = now, k + 1
    return out


def _fires(rule: Rule, rec: Record, end: float) -> list[float]:
    times = _candidates(rule, rec, end)
    if rule.nth > 1:
        times = times[rule.nth - 1 :: rule.nth]
    if rule.trigger != "when" and rule.condition != "always":
        times = [t for t in times if _cond(rule, rec.at(t))]
    return times


def _n(n: float, word: str) -> str:
    return f"{n:g} {word}" if n == 1 else f"{n:g} {word}es" if word.endswith("s") else f"{n:g} {word}s"


def _band(n: int) -> tuple[int, int]:
    slack = 1 + n // 10
    return max(0, n - slack), n + slack


_INT = re.compile(r"-?\d+")


def _report_value(rule: Rule, tick: Tick) -> float:
    return {
        "player_hp": tick.hp,
        "enemies_alive": tick.enemies,
        "wave": tick.wave,
        "score": tick.score,
        "kills": tick.kills,
        "time": tick.t,
    }[rule.report]


def check_rule(rule: Rule, rec: Record, end: float, base: dict[str, float]) -> tuple[bool, str]:
    """Did the world show what ``rule`` should have done? ``(passed, plain sentence)``."""
    fires = _fires(rule, rec, end)
    n = len(fires)
    lo, hi = _band(n)
    if n == 0:
        return False, f"'{say_rule(rule)}' never came up in the test run, so it could not be checked"
    if rule.action == "spawn":
        got = sum(1 for _, p, src in rec.spawned if src == "mod" and p == rule.prefab)
        ok = lo * rule.count * 0.5 <= got <= hi * rule.count and got > 0
        return ok, f"it spawned {_n(got, rule.prefab or '')} ({_n(n, 'time')} x {rule.count} expected)"
    if rule.action == "set_param":
        param, value = rule.param or "", float(rule.value or 0.0)
        if rule.trigger != "when":
            after = [t for t in rec.ticks if t.t >= fires[0] + 0.1]
            right = sum(1 for t in after if abs(t.params.get(param, math.nan) - value) < 1e-6)
            ok = bool(after) and right >= 0.9 * len(after)
            return ok, f"{param} was {value:g} in {right} of {len(after)} ticks after it was set"
        on = off = good = 0
        k = 2
        while k * POLL_S <= end:
            t = k * POLL_S
            held = [_cond(rule, rec.at(t - d * POLL_S)) for d in range(3)]
            cur = rec.at(t).params.get(param, math.nan)
            if all(held):
                on += 1
                good += abs(cur - value) < 1e-6
            elif not any(held):
                off += 1
                good += abs(cur - base.get(param, 1.0)) < 1e-6
            k += 1
        ok = on > 0 and good >= 0.9 * (on + off)
        return ok, f"{param} followed the condition in {good} of {on + off} looks ({on} while it held)"
    if rule.action == "report":
        lines = [(t, line) for t, line in rec.reports]
        ok = lo <= len(lines) <= hi
        if rule.report == "message":
            ok = ok and all(line == (rule.text or "Mod triggered") for _, line in lines)
            return ok, f"it showed {_n(len(lines), 'message')} ({n} expected)"
        wrong = 0
        for t, line in lines:
            m = _INT.search(line)
            if rule.report == "spawned":
                made = sum(1 for ts, _, src in rec.spawned if src == "mod" and t - 0.02 <= ts <= t + 0.04)
                wrong += m is None or int(m.group()) != made
                continue
            ticks = [rec.at(t), rec.at(t - 1 / 60)]
            if m is None or all(abs(int(m.group()) - _report_value(rule, x)) > 1 for x in ticks):
                wrong += 1
        ok = ok and wrong == 0
        shown = f'"{lines[-1][1]}"' if lines else "nothing"
        return (
            ok,
            f"it showed {_n(len(lines), 'line')} ({n} expected, {wrong} with a wrong number), "
            f"the last {shown}",
        )
    if rule.action == "count":
        got = rec.storage.get(storage_key(rule), 0)
        ok = isinstance(got, int | float) and lo <= got <= hi
        return ok, f"it stored a count of {got} ({n} expected)"
    if rule.action == "best":
        field_ = {"wave": "wave", "score": "score", "kills": "kills"}[rule.best]
        best = max(getattr(rec.at(t), field_) for t in fires)
        got = rec.storage.get(storage_key(rule), 0)
        ok = isinstance(got, int | float) and best - 1 <= got <= best + 1 and got > 0
        return ok, f"it stored a best {rule.best} of {got} ({best} expected)"
    target = rule.prefab or rule.filter_prefab
    removed = sum(1 for _, p in rec.removed if p == target)
    if rule.trigger == "spawn":
        appeared = sum(1 for t, p, src in rec.spawned if p == target)
        ok = appeared > 0 and removed >= 0.9 * appeared
        return ok, f"it removed {removed} of the {_n(appeared, target or '')} that appeared"
    return removed > 0, f"it removed {_n(removed, target or '')}"


def verdict(recipe: Recipe | None, rec: Record, fault: str | None, seconds: float) -> TrialVerdict:
    if fault is not None:
        return TrialVerdict(ok=False, ran=False, fault=fault, summary=f"it failed in the test run: {fault}")
    if recipe is None:
        said = f"it ran {seconds:g} s of play without an error (what it does was not checked)"
        return TrialVerdict(ok=True, ran=True, fault=None, summary=said)
    base = {p: v for p, v in (rec.ticks[0].params.items() if rec.ticks else ())}
    lines, ok, said_to_player = [], True, []
    for rule in recipe.rules:
        passed, said = check_rule(rule, rec, seconds, base)
        ok = ok and passed
        lines.append(f"{'ok' if passed else 'NOT OK'}: {say_rule(rule)}: {said}")
        said_to_player.append(said if passed else f"{said}, which is not what it should do")
    summary = "; ".join(said_to_player)
    return TrialVerdict(ok=ok, ran=True, fault=None, summary=summary, checks=tuple(lines))


def run_trial(files: dict[str, str], recipe: Recipe | None, seconds: float = TRIAL_SECONDS,
              seed: int = TRIAL_SEED) -> TrialVerdict:  # fmt: skip
    """In this process (its saves folder must be a scratch one: ``ARENA_SAVES_DIR``)."""
    rec, fault = _play(files, recipe, seconds, seed)
    return verdict(recipe, rec, fault, seconds)


def trial(files: dict[str, str], recipe: Recipe | None, seconds: float = TRIAL_SECONDS,
          seed: int = TRIAL_SEED) -> TrialVerdict:  # fmt: skip
    """The trial in a child process with a scratch saves folder (what the game and the eval call)."""
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
