"""The shipped example mods load and play: each reacts to its hooks against the in-memory host."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from lua_fakehost import FakeHost
from lua_testkit import ManualClock, run_ticks, write_mod

from coreai.lua.manager import ModManager
from coreai.lua.results import ModState
from coreai.paths import ASSETS_DIR

SHIPPED = ASSETS_DIR / "mods"


@pytest.fixture
def shipped(host: FakeHost, saves_dir: Path, clock: ManualClock) -> Iterator[ModManager]:
    m = ModManager(host, roots=[SHIPPED], clock=clock)
    yield m
    m.close()


def kill(manager: ModManager, eid: int, prefab: str = "grunt") -> None:
    manager.dispatch("on_enemy_killed", {"id": eid, "prefab": prefab, "x": 0.0, "y": 0.0})


def test_all_shipped_mods_load(shipped: ModManager) -> None:
    rows = {s.name: s for s in shipped.load_all()}
    assert set(rows) >= {"kill_streak", "meteor_shower", "glass_cannon"}
    # glass_cannon changes the rules, so it ships off until the player turns it on
    assert rows["glass_cannon"].state == ModState.DISABLED and not rows["glass_cannon"].enabled
    shipped.enable("glass_cannon")
    rows = {s.name: s for s in shipped.status()}
    for row in rows.values():
        assert row.state == ModState.LOADED and row.running and row.shipped, row
        assert row.version and row.author and row.description


def test_kill_streak_multiplier_bounty_and_reset(
    shipped: ModManager, host: FakeHost, saves_dir: Path
) -> None:
    shipped.load_all()
    shipped.disable("glass_cannon")
    shipped.disable("meteor_shower")
    for i in range(1, 6):
        kill(shipped, i)
    assert host.values["score_mult"] == pytest.approx(1.25)
    assert any("Kill streak 5" in n.text for n in shipped.drain_notices())
    for i in range(6, 11):
        kill(shipped, i)
    assert host.values["score_mult"] == pytest.approx(1.5)
    assert host.count("tank") == 1  # the bounty
    bounty = next(e.id for e in host.entities.values() if e.prefab == "tank")
    p = host.player
    assert math.hypot(host.entities[bounty].x - p["x"], host.entities[bounty].y - p["y"]) == pytest.approx(
        420
    )
    kill(shipped, bounty, "tank")
    texts = [n.text for n in shipped.drain_notices()]
    assert any("Bounty collected" in t for t in texts)
    assert host.values["score_mult"] == pytest.approx(2.0)  # 1 + (0.25 * 2) * 2
    shipped.dispatch("on_player_damaged", 12.5)
    assert host.values["score_mult"] == pytest.approx(1.0)
    assert any("Streak lost at 11" in n.text for n in shipped.drain_notices())
    shipped.close()
    saved = json.loads((saves_dir / "mod_storage" / "kill_streak.json").read_text())
    assert saved == {"best_streak": 11}


def test_kill_streak_bonus_expires_with_its_timer(
    shipped: ModManager, host: FakeHost, clock: ManualClock
) -> None:
    shipped.load_all()
    shipped.disable("meteor_shower")
    shipped.disable("glass_cannon")
    for i in range(1, 11):
        kill(shipped, i)
    bounty = next(e.id for e in host.entities.values() if e.prefab == "tank")
    kill(shipped, bounty, "tank")
    assert host.values["score_mult"] == pytest.approx(2.0)
    run_ticks(shipped, clock, 9.5)
    assert host.values["score_mult"] == pytest.approx(2.0)
    run_ticks(shipped, clock, 1.0)
    assert host.values["score_mult"] == pytest.approx(1.5)  # the timer re-applied it without the bonus


def test_glass_cannon_sets_and_restores_params(shipped: ModManager, host: FakeHost) -> None:
    shipped.load_all()
    assert host.values["player_damage_mult"] == 1.0  # off by default
    shipped.enable("glass_cannon")
    assert host.values["player_damage_mult"] == 2.0 and host.values["player_max_hp_mult"] == 0.5
    assert any("Glass cannon: damage x2" in n.text for n in shipped.drain_notices())
    shipped.dispatch("on_wave_start", 5)
    assert any("Wave 5" in n.text for n in shipped.drain_notices())
    host.player["hp"] = 20.0
    shipped.dispatch("on_player_damaged", 30.0)
    assert any(e.level == "warn" and "low HP" in e.message for e in shipped.logs("glass_cannon"))
    shipped.unload("glass_cannon")
    assert host.values["player_damage_mult"] == 1.0 and host.values["player_max_hp_mult"] == 1.0


def test_meteor_shower_spawns_runners_from_wave_two(
    shipped: ModManager, host: FakeHost, clock: ManualClock
) -> None:
    shipped.load_all()
    shipped.disable("kill_streak")
    shipped.disable("glass_cannon")
    shipped.dispatch("on_wave_start", 1)
    run_ticks(shipped, clock, 26.0)
    assert host.count() == 0  # wave 1: no showers
    shipped.dispatch("on_wave_start", 2)
    assert any("meteor showers begin" in n.text for n in shipped.drain_notices())
    run_ticks(shipped, clock, 25.0)
    assert any(n.text == "Meteor shower incoming!" for n in shipped.drain_notices())
    assert host.count() == 0  # the warning comes first
    run_ticks(shipped, clock, 2.5)
    assert host.count("runner") == 3  # min(6, 2 + 2 // 2)
    for e in host.entities.values():
        d = math.hypot(e.x - host.player["x"], e.y - host.player["y"])
        assert 250 - 1e-6 <= d <= 450 + 1e-6
        assert 40 <= e.x <= 3160 and 40 <= e.y <= 2360
    assert any("shower 1: 3 meteors" in e.message for e in shipped.logs("meteor_shower"))


def test_timers_fire_in_order_and_every_does_not_catch_up(
    manager: ModManager, mods_root: Path, clock: ManualClock
) -> None:
    write_mod(
        mods_root,
        "timers",
        """
        fired = {}
        after(0.5, function() fired[#fired + 1] = "after" end)
        every(0.2, function() fired[#fired + 1] = "every" end)
        local dead = after(0.1, function() fired[#fired + 1] = "cancelled" end)
        cancel(dead)
    """,
    )
    manager.load_all()
    run_ticks(manager, clock, 0.55)
    r = manager.execute("return table.concat(fired, ',')", mod="timers")
    assert r.values == ["every,every,after"]
    manager.tick(5.0)  # one long frame: the every timer fires once, not 25 times
    r = manager.execute("return #fired", mod="timers")
    assert r.values == [4]


def test_on_tick_is_throttled_to_tick_hz(manager: ModManager, mods_root: Path, clock: ManualClock) -> None:
    write_mod(
        mods_root,
        "ticker",
        "calls, total = 0, 0\nfunction on_tick(dt) calls = calls + 1 total = total + dt end",
    )
    manager.load_all()
    for _ in range(240):  # 240 frames of 1/240 s = one second at 240 fps
        clock.advance(1 / 240)
        manager.tick(1 / 240)
    calls, total = manager.execute("return calls, total", mod="ticker").values
    assert 59 <= calls <= 61
    assert total == pytest.approx(1.0, abs=1 / 60)


def test_director_events_need_a_host_that_offers_them(manager: ModManager, host: FakeHost) -> None:
    refused = manager.execute("game.director_event('storm', 'a storm')")
    assert not refused.ok and "no director events" in (refused.error or "")
    offered: list[tuple[str, str, float, str]] = []
    host.register_event = lambda name, desc, cooldown, *, source: offered.append(  # type: ignore[attr-defined]
        (name, desc, cooldown, source)
    )
    ok = manager.execute("game.director_event('storm', 'a storm', 12)")
    assert ok.ok, ok.error
    assert offered == [("storm", "a storm", 12.0, "console:console")]
    bad = manager.execute("game.director_event(42)")
    assert not bad.ok and "bad argument 'name'" in (bad.error or "")
