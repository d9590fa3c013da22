"""The agents that act (issue 39), on the offline stub: the Programmer writes the mods its rules read, checks
them in a headless trial and installs them as user mods; the Creator spawns, removes and answers from the
live world. The same paths with the bundled model are measured by ``python -m game.eval programmer|creator``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from coreai.lua import PROGRAMMER_DEMO_TASK
from coreai.lua.recipes import Recipe, Rule, mod_files, read
from game.agents.facts import game_facts
from game.agents.trial import run_trial

REPO = Path(__file__).resolve().parents[2]


def _recipe(**slots: Any) -> Recipe:
    return Recipe(request="test", rules=(Rule(**slots),))


def test_a_trial_passes_what_the_mod_does_and_fails_what_it_does_not(saves_dir: Path) -> None:
    facts = game_facts()
    asked = _recipe(trigger="every", seconds=5.0, action="spawn", prefab="tank", count=2)
    good = run_trial(mod_files(asked, facts, "tanks_every_5"), asked, seconds=20.0)
    assert good.ok and good.ran, good.summary
    assert "it spawned 8 tanks" in good.summary  # 20 s / 5 s = 4 times (the last at 20 s is not reached) x 2
    other = _recipe(trigger="every", seconds=5.0, action="spawn", prefab="grunt", count=2)
    wrong = run_trial(mod_files(other, facts, "grunts_every_5"), asked, seconds=20.0)  # checked as tanks
    assert wrong.ran and not wrong.ok, wrong.summary
    assert "it spawned 0 tanks" in wrong.summary


def test_a_mod_that_faults_fails_its_trial(saves_dir: Path) -> None:
    asked = _recipe(trigger="load", action="report", report="wave")
    files = mod_files(asked, game_facts(), "faulty")
    files["main.lua"] += "\nfunction on_wave_start(w) error('boom') end\n"
    verdict = run_trial(files, asked, seconds=5.0)
    assert not verdict.ran and "boom" in (verdict.fault or "")


def test_a_param_on_a_condition_is_checked_both_ways(saves_dir: Path) -> None:
    reading = read("double the score multiplier while the player is under half health", game_facts())
    assert reading.recipe is not None
    verdict = run_trial(mod_files(reading.recipe, game_facts(), "double_score"), reading.recipe, seconds=40.0)
    assert verdict.ok, verdict.checks


def _pump(session: Any, world: Any, handle: Any, limit: float = 60.0) -> None:
    end = time.monotonic() + limit
    while not handle.done() and time.monotonic() < end:
        session.on_frame(world, 0.0)
        time.sleep(0.005)
    assert handle.done()


def test_the_programmer_on_the_stub_installs_a_mod_its_rules_cover(session: Any, saves_dir: Path) -> None:
    world = session.world_factory(1)
    session.on_run_start(world)
    said: list[str] = []
    text = "spawn 3 grunts next to the player every 10 seconds"
    _pump(session, world, session.programmer_task(text, on_done=said.append))
    assert " is on (F7" in said[0], said
    out = session.programmer.runner.last
    assert out.ok and out.path == "reader" and out.mod in session.mods.list_mods()
    toml = (saves_dir / "mods" / out.mod / "mod.toml").read_text(encoding="utf-8")
    assert f'description = "{text}"' in toml
    assert "it spawned 15 grunts" in said[0]  # what the 60 s trial saw, said to the player
    session.mods.disable(out.mod)  # a mod like any other: F7 turns it off
    assert session.mods.get_status(out.mod).state != "loaded"


def test_the_stub_plays_the_demo_only_for_the_demo_task(session: Any) -> None:
    world = session.world_factory(1)
    session.on_run_start(world)
    said: list[str] = []
    _pump(session, world, session.programmer_task(PROGRAMMER_DEMO_TASK, on_done=said.append))
    assert said[0].startswith("Programmer: ok after 2 attempt(s)")
    _pump(session, world, session.programmer_task("do something cool with my run", on_done=said.append))
    assert "can't write that mod offline" in said[1]
    _pump(session, world, session.programmer_task("make me invincible", on_done=said.append))
    assert "I can't write that mod, because nothing can make you invincible" in said[2]


def _creator(session: Any, world: Any, text: str) -> str:
    from game.ai.chat import ChatTurn, chat_request

    turn = ChatTurn(session.creator, session.runtime.events, chat_request("Creator", text))
    _pump(session, world, turn.handle)
    return turn.text()


def test_the_creator_spawns_removes_and_answers_from_the_world(session: Any) -> None:
    world = session.world_factory(1)
    session.on_run_start(world)
    before = world.game_state()["enemies_by_prefab"].get("grunt", 0)
    reply = _creator(session, world, "spawn 5 grunts near me")
    grunts = world.game_state()["enemies_by_prefab"].get("grunt", 0)
    assert grunts == before + 5 and reply.startswith("Spawned 5 grunts near you"), reply
    near = [e for e in world.list_enemies(100) if e["prefab"] == "grunt" and e["distance"] <= 300]
    assert len(near) >= 5
    reply = _creator(session, world, "how many enemies are alive right now?")
    assert reply.startswith(f"There are {world.enemies.n} enemies alive"), reply
    reply = _creator(session, world, "remove all grunts")
    assert world.game_state()["enemies_by_prefab"].get("grunt", 0) == 0 and reply.startswith("Removed"), reply
    reply = _creator(session, world, "heal me to full")
    assert reply.startswith("I can't do that, because the Mod API has no way to set your HP"), reply


def test_ask_programmer_from_the_command_line(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    routes = "\n".join(f'{r} = "stub"' for r in ("Creator", "Programmer", "Analyzer", "Merchant", "Chat"))
    (saves / "settings.toml").write_text(f'[llm]\ndefault_backend = "stub"\n[llm.backends]\n{routes}\n')
    out = subprocess.run(
        [sys.executable, "-m", "game", "ask", "Programmer", "print my kills every 20 seconds", "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "ARENA_SAVES_DIR": str(saves), "ARENA_DISCOVER_PORTS": ""},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    reply = json.loads(out.stdout.strip().splitlines()[-1])["reply"]
    assert "is on (F7" in reply and "every 20 seconds shows your kills" in reply, reply
    assert (saves / "mods" / "print_kills_20_seconds" / "main.lua").is_file()
