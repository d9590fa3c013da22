"""The Director: scheduling, latest-wins, previous plan kept on bad replies, modes, panel, memory, events."""

from __future__ import annotations

import itertools
import json
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from director_support import ManualSource, ScriptedSource, plan, quiet_world, tick

from coreai.errors import LlmError, LlmErrorCode, SettingsError
from game.director.director import PENDING_MAX_S, STATIC, Director
from game.director.knobs import KNOB
from game.director.memory import DirectorMemory, default_memory_path
from game.director.read import HISTORY_HZ, HISTORY_S
from game.director.rules import EASE_FIRST, ease_floor
from game.director.source import PlanReply, PlanRequest
from game.director.tuning import TUNING
from game.render.ai_panels.director_view import panel_view
from game.sim.config import TICK_HZ
from game.sim.spawner import WaveSpawner
from game.sim.world import World


def setup(source: object, mode: str | None = None, **kw: object) -> tuple[Director, World]:
    d = Director(mode or source.name, sources=(source,), **kw)  # type: ignore[attr-defined,arg-type]
    w = World(seed=1, spawner=d.spawner)
    w.player.iframes = 1e9  # no hit: no falling bar asks for a decision
    return d, w


OPENING_PRESSURE = KNOB["pressure"].default  # a run opens at the default pressure (and a low danger)


def test_a_plan_is_requested_at_once_then_every_decision_interval() -> None:
    src = ScriptedSource("scripted", [])
    d, _ = setup(src)
    w = quiet_world()  # no wave boundary, no spawns, no hits in this test
    tick(d, w)
    assert len(src.requests) == 1 and d.accepted == 1
    tick(d, w, int(100 * TICK_HZ))
    times = [r.tick / TICK_HZ for r in src.requests]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(gaps) >= 9
    assert all(g == pytest.approx(TUNING.decide.interval_s, abs=2 / TICK_HZ) for g in gaps)
    assert [r.seq for r in src.requests] == list(range(1, len(times) + 1))


def test_a_run_opens_at_the_opening_danger() -> None:
    d, _ = setup(ScriptedSource("scripted", []))
    assert d.knobs.danger == TUNING.plan.opening_danger and d.knobs.pressure == OPENING_PRESSURE
    d.reset(seed=5)
    assert d.knobs.danger == TUNING.plan.opening_danger, "every run"


def test_the_bar_starting_to_fall_asks_for_a_decision_and_again_while_it_falls() -> None:
    src = ScriptedSource("scripted", [])
    d, w = setup(src, decision_interval_s=1e9)  # only the cues ask
    w.wave_time_left = 1e9
    tick(d, w)
    assert len(src.requests) == 1
    w.player.iframes = 0.0
    w.hurt_player((TUNING.read.fall_bars + 0.05) * w.player.stats.max_hp, "contact")
    tick(d, w, 2)
    assert len(src.requests) == 2, "the bar started falling"
    tick(d, w, int(TUNING.read.fall_s / 2 * TICK_HZ))
    w.player.iframes = 0.0
    w.hurt_player((TUNING.read.fall_bars + 0.05) * w.player.stats.max_hp, "contact")
    tick(d, w, 2)
    assert len(src.requests) == 2, "not again within fall_s"
    tick(d, w, int(TUNING.read.fall_s * TICK_HZ))
    w.player.iframes = 0.0
    w.hurt_player((TUNING.read.fall_bars + 0.05) * w.player.stats.max_hp, "contact")
    tick(d, w, 2)
    assert len(src.requests) == 3, "still falling fall_s later: asked again"


def test_wave_start_and_death_trigger_a_decision() -> None:
    src = ScriptedSource("scripted", [])
    d, w = setup(src)
    tick(d, w, 60)
    n = len(src.requests)
    w.wave_time_left = 0.0
    tick(d, w)  # wave ends -> upgrade pick
    w.choose_upgrade(w.choices[0])
    tick(d, w)
    assert len(src.requests) == n + 1 and src.requests[-1].situation.snapshot.wave == 2
    w.respawn = True
    w.player.iframes = 0.0
    w.player.hp = 1.0
    w.spawn_enemy("tank", w.player.x + 20, w.player.y)
    for _ in range(120):
        tick(d, w)
        if w.stats.deaths:
            break
    assert w.stats.deaths == 1
    assert src.requests[-1].situation.snapshot.seconds_since_death == 0.0


def test_rejected_plan_is_counted_and_the_previous_plan_keeps_running() -> None:
    good = plan("hold", pickup_rate=0.75, announcer="Bolder!")  # a first-timer: no raise past the ceiling
    src = ScriptedSource(
        "scripted", [good, plan("raise", mix={"dragon": 3.0}), "garbage {", plan("hold", elite_chance=2)]
    )
    d, w = setup(src)
    tick(d, w)
    knobs = d.knobs
    assert (
        knobs.pressure == pytest.approx(OPENING_PRESSURE * TUNING.decide.pressure_factor["hold"])
        and w.params.get("pickup_rate_mult") == 0.75
    )
    for _ in range(3):
        d.request_now()
        tick(d, w)
    assert (d.accepted, d.rejected) == (1, 3)
    assert d.knobs == knobs and w.params.get("pickup_rate_mult") == 0.75
    assert d.last_plan is not None and d.last_plan.pressure == "hold"
    panel = panel_view(d, w)
    assert panel.rejected == 3 and "elite_chance" in panel.last_error
    assert d.pop_announcements() == ["Bolder!"] and d.pop_announcements() == []


def test_failures_and_broken_sources_keep_the_game_running() -> None:
    class Exploding:
        name = "exploding"

        def request(self, req: PlanRequest) -> Future[PlanReply]:
            raise RuntimeError("backend crashed")

    src = ScriptedSource(
        "scripted", [plan("ease_off"), LlmError(LlmErrorCode.UNAVAILABLE, "down", backend="x")]
    )
    d, w = setup(src)
    tick(d, w)
    knobs = d.knobs
    d.request_now()
    tick(d, w)
    assert d.failed == 1 and "backend_unavailable" in d.last_error and d.knobs == knobs
    d.register_source(Exploding())
    d.set_mode("exploding", w)
    tick(d, w, 5)
    assert d.failed == 2 and "backend crashed" in d.last_error and d.knobs == knobs
    assert w.tick == 7  # the world kept stepping


def test_latest_wins_an_older_slow_reply_is_discarded() -> None:
    src = ManualSource()
    d, w = setup(src)
    tick(d, w)
    assert len(src.pending) == 1 and panel_view(d, w).pending
    d.request_now()  # an urgent decision (wave start, death, mode switch) supersedes the one in flight
    tick(d, w)
    assert len(src.pending) == 2 and d.superseded == 1
    assert src.pending[0][1].cancelled()  # the director cancelled it ...
    old_req = src.pending[0][0]
    src.pending[0] = (old_req, Future())
    src.answer(0, plan("spike", event="swarm"))  # ... and a reply arriving anyway is ignored
    tick(d, w, 3)
    assert d.accepted == 0 and d.knobs.pressure == OPENING_PRESSURE
    src.answer(1, plan("hold"))  # (a raise would meet the guard's ceiling: a first-timer is at it)
    tick(d, w)
    assert d.accepted == 1 and d.last_plan is not None and d.last_plan.pressure == "hold"
    assert d.trace_id == src.pending[1][0].trace_id


def test_a_scheduled_request_waits_for_a_young_one_in_flight() -> None:
    src = ManualSource()
    d, w = setup(src)
    w.wave_time_left = 1e9
    tick(d, w)
    tick(d, w, int((TUNING.decide.interval_s + 1) * TICK_HZ))
    assert len(src.pending) == 1 and d.superseded == 0  # still waiting on the slow backend
    tick(d, w, int(PENDING_MAX_S * TICK_HZ))
    assert len(src.pending) == 2 and d.superseded == 1  # too old: the next scheduled request replaces it


def test_threaded_slow_source_latest_wins() -> None:
    """A real worker thread answers each request after a delay; only the newest request's plan lands."""
    pool = ThreadPoolExecutor(max_workers=2)
    release = threading.Event()

    class Slow:
        name = "slow"

        def request(self, req: PlanRequest) -> Future[PlanReply]:
            def work() -> PlanReply:
                if req.seq == 1:
                    release.wait(timeout=5)  # the first request is the slow one
                data = plan("spike" if req.seq == 1 else "hold")
                return PlanReply(json.dumps(data), data, "slow", 0.0, req.trace_id)

            return pool.submit(work)

    d, w = setup(Slow(), decision_interval_s=1e9)  # only the two requests the test makes
    w.wave_time_left = 1e9
    try:
        tick(d, w)
        d.request_now()
        tick(d, w)
        deadline = time.monotonic() + 5
        while d.accepted == 0 and time.monotonic() < deadline:
            tick(d, w)
            time.sleep(0.001)
        release.set()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            tick(d, w)
        assert d.accepted == 1 and d.superseded == 1
        assert d.last_plan is not None and d.last_plan.pressure == "hold"
    finally:
        release.set()
        pool.shutdown(wait=True, cancel_futures=True)


def test_modes_static_rules_and_cycling() -> None:
    src = ScriptedSource("scripted", [])
    d, w = setup(src, mode=STATIC)
    assert d.modes() == (STATIC, "rules", "scripted")
    assert isinstance(d.active_spawner(), WaveSpawner)
    tick(d, w, 120)
    assert src.requests == [] and d.accepted == 0 and d.intensity is not None
    assert d.cycle_mode(w) == "rules"
    tick(d, w)
    assert d.accepted == 1 and d.backend == "rules"
    assert d.cycle_mode(w) == "scripted" and d.cycle_mode(w) == STATIC
    tick(d, w)
    assert w.params.get("pickup_rate_mult") == 1.0  # static mode restores the default ...
    assert w.params.get("enemy_damage_mult") == 1.0  # ... and full hits
    with pytest.raises(SettingsError, match="unknown mode"):
        d.set_mode("gpt-99", w)
    with pytest.raises(SettingsError):
        Director("nope")


def test_panel_exposes_history_knobs_and_counts() -> None:
    d, _ = setup(ScriptedSource("scripted", [plan("raise", announcer="More!")]))
    w = quiet_world()  # nothing spawns: a long run in little time
    tick(d, w, int((HISTORY_S + 30) * TICK_HZ))
    p = panel_view(d, w)
    assert len(p.history) == int(HISTORY_S * HISTORY_HZ)  # bounded: the last two minutes
    assert p.history[-1].time == pytest.approx(w.time, abs=1.0 / HISTORY_HZ)
    assert {s.pacing for s in p.history} <= {"build_up", "sustain_peak", "peak_fade", "relax"}
    assert p.mode == "scripted" and p.backend == "scripted" and p.trace_id and p.trace_id.startswith("dir-")
    # only the first plan had a line; the hold plans after it clear it (a HOLD never shows "More!")
    assert p.accepted >= 10 and p.knobs == d.knobs and p.last_announcer == ""
    assert 0 <= p.next_decision_in <= TUNING.decide.interval_s


def test_memory_notes_reach_the_next_request_and_persist(saves_dir: Path) -> None:
    src = ScriptedSource("scripted", [plan("hold", note="player died twice at wave 2"), plan("hold")])
    d, w = setup(src, memory=DirectorMemory.persistent())
    tick(d, w)
    d.request_now()
    tick(d, w)
    assert src.requests[1].situation.memory == ["player died twice at wave 2"]
    assert default_memory_path().is_relative_to(saves_dir)
    assert DirectorMemory.persistent().notes() == ["player died twice at wave 2"]


def test_corrupt_memory_file_is_quarantined(saves_dir: Path) -> None:
    path = default_memory_path()
    path.write_text("{not json", encoding="utf-8")
    mem = DirectorMemory.persistent()
    assert mem.notes() == [] and mem.warning
    assert list(path.parent.glob("director_notes.json.corrupt-*"))


def test_a_failing_event_handler_is_contained() -> None:
    d, w = setup(ScriptedSource("scripted", [plan("spike", event="meteor")]))

    def meteor(world: World, placer: object) -> None:
        raise ValueError("mod bug")

    d.events.register("meteor", meteor)
    tick(d, w, 3)
    assert d.accepted == 1 and d.event_errors == 1 and "mod bug" in d.last_error


def test_rules_mode_eases_a_struggling_player_danger_first_then_the_crowd() -> None:
    d = Director("rules")
    w = World(seed=2, spawner=d.spawner)
    tick(d, w, 11 * TICK_HZ)
    w.player.iframes = 1e9  # the HP the test sets stays: no hit, no death
    lowest = ease_floor(TUNING, w.wave)  # no lower than [plan] ease_floor (the first wave: the bottom)
    seen = []
    pressure = d.knobs.pressure
    while d.knobs.danger > lowest:  # softer hits, a step a decision, while the crowd's size stays
        w.player.hp = TUNING.plan.low_hp / 2 * w.player.stats.max_hp
        danger = d.knobs.danger
        d.request_now()
        tick(d, w)
        assert d.last_plan is not None
        seen.append(d.last_plan.pressure)
        assert d.last_plan.pressure == "hold" and d.last_plan.reason.endswith(EASE_FIRST)
        assert d.knobs.danger < danger and d.knobs.pressure == pressure, "softer hits, the same crowd"
        assert len(seen) < 12, seen
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.pressure == "ease_off", (
        "danger at its lowest: the crowd too"
    )
    assert d.knobs.pressure == pytest.approx(pressure * TUNING.decide.pressure_factor["ease_off"])


def test_calls_without_a_new_tick_do_not_count_events_twice() -> None:
    d, w = setup(ScriptedSource("scripted", []))
    w.player.iframes = 0.0
    w.hurt_player(10.0, "contact")  # between ticks: the world hands it to the next step
    w.step()
    d.on_tick(w)
    once = d.intensity.value
    for _ in range(5):  # e.g. the window redraws while the upgrade screen is open
        d.on_tick(w)
    assert d.intensity.value == once > 0
    assert d.telemetry.snapshot(w).damage_5s == pytest.approx(0.1)


def test_events_from_a_step_that_did_not_tick_reach_the_next_tick() -> None:
    d, w = setup(ScriptedSource("scripted", []))
    w.player.iframes = 0.0
    tick(d, w)
    w.phase = "upgrade"  # the upgrade screen: step() hands over pending events without ticking
    w.hurt_player(10.0, "contact")
    w.step()
    d.on_tick(w)
    assert d.intensity.value == 0.0  # nothing folded in yet: no tick passed
    w.phase = "playing"
    tick(d, w)
    assert d.telemetry.snapshot(w).damage_5s == pytest.approx(0.1)
