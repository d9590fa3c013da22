"""Window-free pieces of the game's front end: the hotkey registry, sound throttling and human input."""

from __future__ import annotations

import pytest
from arcade import key as K

from game import hotkeys as hk
from game.audio import CUES, Audio
from game.sim import events as ev
from game.sim.config import DT
from game.sim.prefabs import PrefabRegistry
from game.views.input import DASH_BUFFER_S, HumanInput

REG = PrefabRegistry.load()


# ---------------------------------------------------------------------- hotkeys
def test_default_registry_lists_every_key_the_game_promises() -> None:
    r = hk.default_registry()
    for key in (K.F1, K.F2, K.F5, K.F11, K.P, K.ESCAPE):
        entry = r.find(key)
        assert entry is not None and entry.description
    for key in (K.F6, K.F7, K.F9, K.F10, K.GRAVE):
        entry = r.find(key)
        assert entry is not None and entry.reserved and entry.status == "coming"
    groups = dict(r.groups())
    assert {"Controls", "Game", "AI & mods"} <= set(groups)
    labels = {e.label for e in groups["Controls"]}
    assert {"W A S D", "Mouse", "Shift"} <= labels
    assert r.find(K.P) is r.find(K.ESCAPE)  # one entry, "P / Esc"
    assert r.find(K.P).label == "P / Esc"  # type: ignore[union-attr]


def test_registering_a_reserved_key_keeps_its_place_and_unregister_returns_it_to_coming() -> None:
    r = hk.default_registry()
    order = [e.label for e in r.entries]
    version = r.version
    hits: list[str] = []
    r.register(K.F9, "Programmer task: write a mod", lambda: hits.append("f9"))
    assert [e.label for e in r.entries] == order and r.version > version
    entry = r.find(K.F9)
    assert entry is not None and entry.status == "" and entry.group == "AI & mods"
    assert r.dispatch(K.F9) and hits == ["f9"]
    r.unregister(K.F9)
    entry = r.find(K.F9)
    assert entry is not None and entry.status == "coming" and not r.dispatch(K.F9)


def test_taking_one_key_of_a_shared_entry_splits_it() -> None:
    r = hk.default_registry()
    r.register(K.ESCAPE, "Close the console", lambda: None)
    assert r.find(K.P).label == "P"  # type: ignore[union-attr]
    assert r.find(K.ESCAPE).description == "Close the console"  # type: ignore[union-attr]


def test_a_failing_handler_is_reported_not_raised() -> None:
    r = hk.default_registry()
    errors: list[str] = []
    r.on_error = lambda entry, exc: errors.append(f"{entry.label}: {exc}")

    def boom() -> None:
        raise RuntimeError("broken panel")

    r.register(K.F7, "Mods panel", boom)
    assert r.dispatch(K.F7) is True
    assert errors == ["F7: broken panel"]
    assert r.dispatch(K.Z) is False  # not a hotkey
    with pytest.raises(ValueError):
        r.register((), "no key")


# ---------------------------------------------------------------------- audio
class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def make_audio() -> tuple[Audio, list[tuple[str, float]], Clock]:
    played: list[tuple[str, float]] = []
    clock = Clock()
    audio = Audio(player=lambda name, vol: played.append((name, vol)), clock=clock)
    return audio, played, clock


def test_thousands_of_hits_in_one_burst_play_a_throttled_handful() -> None:
    audio, played, clock = make_audio()
    for _ in range(1000):
        audio.on_events([ev.EnemyHit(50), ev.ShotFired(3)], REG.is_boss)
    assert [n for n, _ in played] == ["shoot", "hit"]
    cue = CUES["shoot"]
    for _ in range(300):  # five seconds of ticks
        clock.t += DT
        audio.on_events([ev.ShotFired(1)], REG.is_boss)
    shots = [n for n, _ in played].count("shoot")
    assert shots <= 5 * cue.max_per_second + 1
    assert shots >= 5 * min(cue.max_per_second, 1 / cue.min_interval) * 0.8
    assert audio.suppressed > 0


def test_kills_take_precedence_and_many_at_once_are_louder() -> None:
    audio, played, clock = make_audio()
    kill = ev.EnemyKilled(1, "grunt", 0.0, 0.0, False, 10, True)
    audio.on_events([ev.EnemyHit(3), kill], REG.is_boss)
    clock.t += 1.0
    audio.on_events([ev.EnemyHit(40), *[kill] * 40], REG.is_boss)
    names = [n for n, _ in played]
    assert names == ["kill", "kill"] and played[1][1] > played[0][1]
    clock.t += 1.0
    audio.on_events(
        [ev.PlayerDamaged(5, 90, "contact"), ev.PickupCollected("health", 20), ev.LevelUp(2)], REG.is_boss
    )
    assert [n for n, _ in played][2:] == ["hurt", "heal", "level_up"]


def test_boss_cues_follow_the_prefab_registry() -> None:
    audio, played, clock = make_audio()
    (boss,) = (n for n in REG.names if REG.is_boss(n))
    audio.on_events([ev.EnemySpawned(7, boss, 0.0, 0.0, False, "wave")], REG.is_boss)
    clock.t += 1.0
    audio.on_events([ev.EnemySpawned(8, "grunt", 0.0, 0.0, False, "wave")], REG.is_boss)
    assert [n for n, _ in played] == ["boss"]


def test_muted_or_headless_audio_plays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_HEADLESS", "1")
    assert not Audio().enabled
    monkeypatch.setenv("ARCADE_HEADLESS", "")
    assert not Audio(muted=True).enabled
    audio, played, _ = make_audio()
    audio.toggle_mute()
    audio.on_events([ev.ShotFired(1)], REG.is_boss)
    assert played == [] and not audio.play("ui")


# ---------------------------------------------------------------------- human input
def to_world(x: float, y: float) -> tuple[float, float]:
    return x + 1000.0, y + 500.0


def test_keys_and_mouse_become_player_input() -> None:
    h = HumanInput()
    assert h.press(K.W) and h.press(K.D) and h.press(K.A) and h.press(K.RIGHT)
    assert not h.press(K.F1)
    h.mouse = (10.0, 20.0)
    inp = h.sample(to_world)
    assert (inp.move_x, inp.move_y) == (1.0, 1.0)  # clamped: D + RIGHT - A is still "right"
    assert (inp.aim_x, inp.aim_y) == (1010.0, 520.0)
    assert not inp.shoot and not inp.dash
    h.press(K.SPACE)
    assert h.sample(to_world).shoot
    h.release(K.SPACE)
    h.mouse_down = True
    assert h.sample(to_world).shoot
    h.clear()
    inp = h.sample(to_world)
    assert (inp.move_x, inp.move_y, inp.shoot) == (0.0, 0.0, False)


def test_an_early_dash_press_is_buffered_briefly() -> None:
    h = HumanInput()
    h.press(K.LSHIFT)
    h.release(K.LSHIFT)
    held = [h.sample(to_world).dash for _ in range(20)]
    n = sum(held)
    assert held[0] and n == pytest.approx(DASH_BUFFER_S / DT, abs=1) and not held[-1]
    h.press(K.RSHIFT)
    assert h.sample(to_world).dash
    h.dashed()
    assert not h.sample(to_world).dash
