"""The trial's record (what the world showed, tick by tick) and the checks: each rule's trigger and condition
replayed over the record, and its effect compared with what the rule should have done."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from coreai.lua.recipes.catalogue import say_rule
from coreai.lua.recipes.model import POLL_S, Rule, storage_key


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
