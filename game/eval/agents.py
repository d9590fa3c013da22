"""``python -m game.eval programmer`` and ``python -m game.eval creator``: the agents that act, scored as a
player meets them, through a headless ``AiSession`` with the role routed to the backend under test.

Programmer: each request goes through the same queue as F9; a case passes when a mod is installed that loaded,
ran 60 s of headless play without a fault and passed its recipe's behaviour check (the trial), and its recipe
is what the request asked for (the case's ``expect``); an out-of-scope request passes with "I can't ..." and
no mod. Latency is request to running mod.

Creator: each case starts from the same world (15 s of play, then three of several prefabs); the world is
frozen while the Creator works, so its effect is exact: the counts and places of what it spawned, moved or
removed, the event it started, or, for a question, the true number read from the world. A reply must not loop
and must not state a false number.
"""

from __future__ import annotations

import math
import re
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from game.eval.agents_cases import (
    CREATOR_HELD_OUT,
    CREATOR_HELD_OUT_2,
    CREATOR_HELD_OUT_3,
    CREATOR_TUNED,
    PROGRAMMER_HELD_OUT,
    PROGRAMMER_HELD_OUT_2,
    PROGRAMMER_TUNED,
    Case,
)

SEED = 3
# tuned: developed on; held-out-N (seen): a held-out set that was run once and then used to fix the readers;
# held-out: the last set, written after those fixes and run once
SEEN_1, SEEN_2 = "held-out-1 (seen)", "held-out-2 (seen)"
SPLITS = ("tuned", SEEN_1, SEEN_2, "held-out")
WAIT_S = 90.0
MIX = ("grunt", "runner", "tank", "spitter", "charger", "exploder")  # three of each before a Creator case


@dataclass
class Row:
    split: str
    text: str
    passed: bool
    detail: str
    seconds: float
    path: str = ""
    mod_ok: bool | None = None


class _Session:
    def __init__(self, role: str, backend: str) -> None:
        from coreai.settings import load_settings
        from game.ai.session import AiSession
        from game.options import LaunchOptions

        base = load_settings()
        routes = {r: "stub" for r in ("Creator", "Programmer", "Analyzer", "Merchant", "Chat")}
        routes[role] = backend
        llm = base.llm.model_copy(update={"default_backend": "stub", "backends": routes})
        settings = base.model_copy(update={"llm": llm})
        self.session = AiSession(
            LaunchOptions(headless=True, seed=SEED), settings=settings, configure_logs=False
        )
        got = self.session.runtime.router.backend_for(role)
        if got != backend:
            why = self.session.backends.reasons.get(backend, "not configured")
            self.session.close()
            raise RuntimeError(f"backend {backend} is unavailable: {why}")
        client = self.session.backends.registry.get(backend)
        if callable(getattr(client, "wait_ready", None)):
            client.wait_ready(120.0)  # type: ignore[union-attr]
        self.world = self.session.world_factory(SEED)
        self.session.on_run_start(self.world)
        # the game's start-up work (the director's prompt prefix) is over before a player types
        end = time.monotonic() + 180.0
        while not self.session.director_warm.is_set() and time.monotonic() < end:
            self.session.on_frame(self.world, 0.0)
            time.sleep(0.01)

    def pump(self, handle: Any) -> None:
        end = time.monotonic() + WAIT_S
        while not handle.done() and time.monotonic() < end:
            self.session.on_frame(self.world, 0.0)
            time.sleep(0.003)

    def close(self) -> None:
        self.session.close()


# ------------------------------------------------------------------------------------------------ Programmer
def _matches(rule: Any, want: dict[str, Any]) -> bool:
    for k, v in want.items():
        got = getattr(rule, k, None)
        if isinstance(v, int | float) and not isinstance(v, bool):
            if got is None or abs(float(got) - float(v)) > 0.011 * max(1.0, abs(float(v))):
                return False
        elif got != v:
            return False
    return True


def programmer_case(h: _Session, split: str, case: Case) -> Row:
    s = h.session
    started = time.perf_counter()
    handle = s.programmer_task(case["text"], on_done=lambda _t: None)
    h.pump(handle)
    took = time.perf_counter() - started
    out = getattr(s.programmer.runner, "last", None)
    if out is None or not handle.done():
        return Row(split, case["text"], False, "no answer", took)
    if case.get("cant"):
        ok = not out.ok and out.message.startswith("I can't") and out.mod is None
        return Row(split, case["text"], ok, out.message[:110], took, out.path)
    if not out.ok or out.recipe is None or out.mod is None:
        return Row(split, case["text"], False, out.message[:110], took, out.path, False)
    status = s.mods.get_status(out.mod)
    mod_ok = bool(out.verdict and out.verdict.ok) and not status.last_error
    wants = case["expect"]  # every asked-for rule is there, and nothing else
    intent = all(any(_matches(r, w) for r in out.recipe.rules) for w in wants) and all(
        any(_matches(r, w) for w in wants) for r in out.recipe.rules
    )
    from coreai.lua.recipes.catalogue import say

    detail = say(out.recipe) if intent else f"asked for {case['expect']}, made: {say(out.recipe)}"
    return Row(split, case["text"], mod_ok and intent, detail[:110], took, out.path, mod_ok)


# ------------------------------------------------------------------------------------------------ Creator
def _setup(h: _Session) -> None:
    from game.zoo import make_player

    s = h.session
    h.world = s.world_factory(SEED)
    s.on_run_start(h.world)
    w = h.world
    bot = make_player("average", SEED)
    while w.time < 15.0:
        if w.phase == "upgrade":
            w.choose_upgrade(bot.choose_upgrade(w))
            continue
        w.step(bot.act(w))
    p = w.player
    for j, prefab in enumerate(MIX):
        for k in range(3):
            a = (j * 3 + k) * 0.35
            w.spawn_enemy(prefab, p.x + math.cos(a) * 520, p.y + math.sin(a) * 520)


def _counts(w: Any) -> dict[str, int]:
    return dict(w.game_state()["enemies_by_prefab"])


def _in_place(place: str | None, w: Any, x: float, y: float) -> bool:
    from game.sim.config import ARENA_H, ARENA_W

    p = w.player
    if place is None:
        return True
    if place == "near_player":
        return math.hypot(x - p.x, y - p.y) <= 450
    if place == "far":
        return math.hypot(x - p.x, y - p.y) >= 600
    if place == "edge":
        return min(x, y, ARENA_W - x, ARENA_H - y) <= 150
    if place == "center":
        return math.hypot(x - ARENA_W / 2, y - ARENA_H / 2) <= 300
    return True


def _truth(ask: str, w: Any) -> tuple[int | None, set[int], str]:
    """``(the number the answer must give, the other numbers it may state truly, a name it must say)``."""
    st = w.game_state()
    p = st["player"]
    if ask.startswith("count:"):
        return int(st["enemies_by_prefab"].get(ask[6:], 0)), set(), ""
    if ask == "nearest":
        e = w.list_enemies(1)
        return (round(e[0]["distance"]), set(), e[0]["prefab"]) if e else (None, set(), "none")
    also = {
        "enemies_alive": set(st["enemies_by_prefab"].values()),
        "hp": {round(p["max_hp"])},
        "wave": {round(st["wave_time_left"])},
        "wave_time_left": {st["wave"]},
        "level": {p["xp"]},
    }.get(ask, set())
    value = {"enemies_alive": st["enemies_alive"], "hp": round(p["hp"]), "wave": st["wave"],
             "score": st["score"], "kills": st["kills"], "wave_time_left": round(st["wave_time_left"]),
             "level": p["level"]}[ask]  # fmt: skip
    return int(value), {int(v) for v in also}, ""


def _looped(text: str) -> bool:
    parts = [x.strip() for x in re.split(r"[.!?]", text) if x.strip()]
    return len(text) > 400 or len(parts) != len(set(parts))


def creator_case(h: _Session, split: str, case: Case) -> Row:
    from game.ai.chat import ChatTurn, chat_request

    _setup(h)
    w, s = h.world, h.session
    before, ids_before = _counts(w), {int(i) for i in w.enemies.view("id")}
    started = time.perf_counter()
    turn = ChatTurn(s.creator, s.runtime.events, chat_request("Creator", case["text"]))
    h.pump(turn.handle)
    took = time.perf_counter() - started
    reply = turn.text()
    after = _counts(w)
    if _looped(reply):
        return Row(split, case["text"], False, "looped: " + reply[:90], took)
    nums = [int(float(n)) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", reply)]
    if case.get("cant"):
        ok = reply.startswith("I can't") and after == before
        return Row(split, case["text"], ok, reply[:110], took)
    if "ask" in case:
        must, may, name = _truth(case["ask"], w)
        ok = (must is None or must in nums) and set(nums) <= {must} | may and (not name or name in reply)
        return Row(split, case["text"], ok, reply[:110], took)
    if "spawn" in case:
        prefab, n, place = case["spawn"]
        new = [e for e in w.list_enemies(2000) if e["id"] not in ids_before and e["prefab"] == prefab]
        placed = all(_in_place(place, w, e["x"], e["y"]) for e in new)
        said = re.search(r"Spawned (\d+)", reply)
        true_words = said is not None and int(said.group(1)) == len(new)
        ok = len(new) == n and placed and true_words
        return Row(split, case["text"], ok, f"{len(new)} new {prefab}s, placed={placed}: {reply[:70]}", took)
    if "destroy" in case:
        prefab, n = case["destroy"]
        want = 0 if n is None else max(0, before.get(prefab, 0) - n)
        got = after.get(prefab, 0)
        said = re.search(r"Removed (\d+)", reply)
        true_words = said is not None and int(said.group(1)) == before.get(prefab, 0) - got
        said_ = f"{prefab}: {before.get(prefab, 0)} -> {got}: {reply[:60]}"
        return Row(split, case["text"], got == want and true_words, said_, took)
    if "move" in case:
        prefab, place = case["move"]
        mine = [e for e in w.list_enemies(2000) if e["prefab"] == prefab]
        good = sum(_in_place(place, w, e["x"], e["y"]) for e in mine)
        ok = bool(mine) and good == len(mine) and reply.startswith("Moved")
        return Row(split, case["text"], ok, f"{good}/{len(mine)} {prefab}s placed: {reply[:60]}", took)
    grew = sum(after.values()) > sum(before.values())
    ok = grew and case["event"] in reply
    said_ = f"enemies {sum(before.values())} -> {sum(after.values())}: {reply[:60]}"
    return Row(split, case["text"], ok, said_, took)


# ------------------------------------------------------------------------------------------------ report
def _table(kind: str, backend: str, rows: list[Row], load: str) -> str:
    out = [f"{kind} evaluation, backend {backend} (load average at start: {load})", ""]
    for split in SPLITS:
        part = [r for r in rows if r.split == split]
        if not part:
            continue
        out.append(f"## {split}: {sum(r.passed for r in part)}/{len(part)} pass "
                   f"({100 * sum(r.passed for r in part) / len(part):.0f}%)")  # fmt: skip
        out.append(f"{'pass':<5} {'s':>5} {'path':<8} request -> what happened")
        for r in part:
            out.append(
                f"{'yes' if r.passed else 'NO':<5} {r.seconds:5.1f} {r.path:<8} {r.text[:52]!r} -> {r.detail}"
            )
        made = [r.seconds for r in part if r.mod_ok]
        if kind == "programmer" and made:
            p95 = statistics.quantiles(made, n=20)[18] if len(made) >= 2 else made[0]
            out.append(f"request -> running mod: median {statistics.median(made):.1f} s, p95 {p95:.1f} s, "
                       f"max {max(made):.1f} s over {len(made)} mods")  # fmt: skip
        out.append("")
    return "\n".join(out)


def run_agents(kind: str, backend: str, split: str = "all", limit: int = 0) -> int:
    import os

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    role = "Programmer" if kind == "programmer" else "Creator"
    sets = {
        "programmer": (
            ("tuned", PROGRAMMER_TUNED),
            (SEEN_1, PROGRAMMER_HELD_OUT),
            ("held-out", PROGRAMMER_HELD_OUT_2),
        ),
        "creator": (
            ("tuned", CREATOR_TUNED),
            (SEEN_1, CREATOR_HELD_OUT),
            (SEEN_2, CREATOR_HELD_OUT_2),
            ("held-out", CREATOR_HELD_OUT_3),
        ),
    }[kind]
    todo = [(name, c) for name, cases in sets for c in cases if split in ("all", name)]
    if limit:
        todo = todo[:limit]
    h = _Session(role, backend)
    rows: list[Row] = []
    try:
        for i, (sp, case) in enumerate(todo, 1):
            run = programmer_case if kind == "programmer" else creator_case
            rows.append(run(h, sp, case))
            sys.stderr.write(f"\r{kind}: {i}/{len(todo)}")
            sys.stderr.flush()
    finally:
        h.close()
    sys.stderr.write("\n")
    sys.stdout.write(_table(kind, backend, rows, load) + "\n")
    held_rows = [r for r in rows if r.split == "held-out"]
    return 0 if not held_rows or sum(r.passed for r in held_rows) >= 0.8 * len(held_rows) else 1
