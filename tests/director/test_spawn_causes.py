"""Every spawn has one cause (the Director 2 issue, item 3): the wave, the director's credit bank, an event a
plan named, the presence floor, a splitter, or a mod / the console / an MCP agent. The cause rides on the
spawn event, F10 counts the last 30 s by cause, and each trajectory decision records the spawns since the
previous one, which a replay checks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from coreai.errors import PersistenceError
from game.bindings import GameWorldExecutor
from game.director.spawn_log import WINDOW_S
from game.headless import run_headless
from game.headless_runs.replay import replay
from game.headless_runs.run import build, run_directed
from game.headless_runs.trajectory_file import read_trajectory
from game.render.ai_panels.director_panel import status_rows
from game.render.ai_panels.director_view import panel_view
from game.sim import events as ev
from game.sim.world import World


def _causes(mode: str, seconds: float = 30.0, bot: str = "strong", seed: int = 3) -> Counter[str]:
    seen: Counter[str] = Counter()
    director, world = build(seed, mode)

    def tick(w: World) -> None:
        director.on_tick(w)
        seen.update(e.source for e in w.events if isinstance(e, ev.EnemySpawned))

    run_headless(seed, seconds, bot, world=world, on_tick=tick)
    return seen


def test_static_spawns_are_the_wave_and_the_director_names_its_own() -> None:
    static, rules = _causes("static"), _causes("rules")
    assert set(static) <= {"wave", "split"} and static["wave"] > 0
    assert set(rules) <= set(ev.SPAWN_CAUSES) and rules["wave"] <= 1  # under the director, a boss at most
    assert rules["bank"] > 0 and rules["presence"] > 0, rules
    assert "reflex" not in ev.SPAWN_CAUSES, "renamed presence"


def test_a_mod_or_agent_spawn_is_tagged_mod() -> None:
    class Handle:
        def __init__(self, w: World) -> None:
            self.w = w

        def require(self) -> World:
            return self.w

    w = World(seed=1)
    eid = GameWorldExecutor(Handle(w)).spawn("grunt", 100.0, 100.0)  # type: ignore[arg-type]
    w.step()
    assert [e.source for e in w.events if isinstance(e, ev.EnemySpawned) and e.id == eid] == ["mod"]


def test_f10_shows_the_last_30_seconds_of_spawns_by_cause() -> None:
    director, world = build(3, "rules")
    seen: list[tuple[float, str]] = []

    def tick(w: World) -> None:
        director.on_tick(w)
        seen.extend((w.time, e.source) for e in w.events if isinstance(e, ev.EnemySpawned))

    run_headless(3, 40.0, "strong", world=world, on_tick=tick)
    recent = Counter(cause for t, cause in seen if t >= world.time - WINDOW_S)
    assert sum(recent.values()) < len(seen), "older spawns dropped out of the window"
    panel = panel_view(director, world)
    assert panel.spawns == ", ".join(f"{c} {recent[c]}" for c in ev.SPAWN_CAUSES if recent[c])
    assert panel.spawns.startswith("bank ")
    rows = dict(status_rows(panel, 60))
    assert rows["spawns"].startswith("30s: bank ")


def test_decisions_record_their_spawns_and_a_replay_checks_them(saves_dir: Path) -> None:
    _, metrics = run_directed(3, 25.0, "strong", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    decisions = read_trajectory(path).decisions
    assert sum(sum(d.spawns.values()) for d in decisions) > 0
    replay(path)  # the same spawns by cause, decision by decision
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"type":"decision"' in line and '"bank"' in line)
    rec = json.loads(lines[i])
    rec["spawns"]["bank"] += 5
    lines[i] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PersistenceError, match="spawns by bank recorded"):
        replay(path)
