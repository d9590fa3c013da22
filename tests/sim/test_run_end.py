"""A run has an end (Director 3 item 1): surviving the final wave wins it. The world stops, the headless run
stops at the win, its summary says ``won`` with the time it ended, and a run cut by the time limit says
neither."""

from __future__ import annotations

import pytest

from game.headless import run_headless
from game.sim import events as ev
from game.sim.config import FINAL_WAVE, wave_duration
from game.sim.player import PlayerInput
from game.sim.spawner import NullSpawner
from game.sim.world import World


def _play_wave(w: World) -> list[ev.Event]:
    seen: list[ev.Event] = []
    while w.phase == "playing":
        seen += w.step(PlayerInput())
    return seen


def test_surviving_the_final_wave_wins_the_run_and_the_world_stops() -> None:
    w = World(seed=1, spawner=NullSpawner(), final_wave=2)
    _play_wave(w)
    assert w.phase == "upgrade", "wave 1 of 2 ends in an upgrade pick"
    w.choose_upgrade(w.choices[0])
    events = _play_wave(w)
    assert w.phase == "won" and w.won and w.over and w.alive
    won = [e for e in events if isinstance(e, ev.RunWon)]
    assert len(won) == 1 and won[0].wave == 2
    assert won[0].time == pytest.approx(wave_duration(1) + wave_duration(2), abs=0.05)
    assert not w.choices, "no upgrade pick after the final wave"
    tick = w.tick
    w.step(PlayerInput())
    assert w.tick == tick, "a won run does not step on"
    assert w.game_state()["phase"] == "won" and w.game_state()["final_wave"] == 2


def test_a_run_is_twenty_waves_by_default_and_endless_on_request() -> None:
    assert World(seed=1, spawner=NullSpawner()).final_wave == FINAL_WAVE == 20
    w = World(seed=1, spawner=NullSpawner(), final_wave=None)
    w.wave = 25
    w.wave_time_left = 0.0
    w.step(PlayerInput())
    assert w.phase == "upgrade", "an endless world never ends by its waves"


def test_a_headless_run_stops_at_the_win_and_says_so() -> None:
    w = World(seed=1, spawner=NullSpawner(), final_wave=1)
    s = run_headless(1, 600.0, "average", world=w)
    assert s.won and not s.died and s.waves_reached == 1
    assert s.ended_at == pytest.approx(wave_duration(1), abs=0.05) and s.seconds == s.ended_at
    cut = run_headless(1, 5.0, "average", world=World(seed=1, spawner=NullSpawner()))
    assert not cut.won and not cut.died and cut.ended_at is None, "a run cut by time neither won nor ended"


def test_a_lost_run_ends_when_the_player_dies() -> None:
    w = World(seed=1, spawner=NullSpawner())
    w.hurt_player(10_000.0, "test")
    s = run_headless(1, 60.0, None, world=w)
    assert s.died and not s.won and s.ended_at is not None
