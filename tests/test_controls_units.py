"""Rebindable controls and the gamepad mapping, without a window: key names both ways, a rebind that keeps
the arrow and frees the key elsewhere, reserved keys refused, stick dead zones, and HumanInput driven by a
gamepad reading (left stick moves, right stick aims from the player, trigger shoots, left trigger dashes)."""

from __future__ import annotations

import pytest
from arcade import key as K

from coreai.settings import KeyBindings
from game.controls import Controls, Gamepad, PadReading, key_code, key_name, pad_input
from game.views.input import PAD_AIM_REACH, HumanInput


def test_key_names_round_trip() -> None:
    for name in ("W", "Z", "UP", "SPACE", "LSHIFT", "KEY_1", "ENTER", "TAB"):
        code = key_code(name)
        assert code is not None and key_name(code) == name
    assert key_code("NOT_A_KEY") is None and key_code("MOD_SHIFT") is None


def test_rebind_replaces_the_primary_key_and_frees_it_elsewhere() -> None:
    c = Controls()
    new = c.rebind("move_up", K.Z)
    assert new is not None and new.move_up == ["Z", "UP"]
    moved = Controls(new).rebind("shoot", K.UP)  # UP leaves move_up for shoot
    assert moved is not None and moved.shoot == ["UP"] and moved.move_up == ["Z"]
    assert c.rebind("dash", K.ESCAPE) is None and c.rebind("dash", K.F1) is None


def test_bad_key_names_in_the_settings_are_ignored() -> None:
    c = Controls(KeyBindings(move_up=["NOPE", "I"]))
    assert c.action(K.I) == "move_up" and c.keys("move_up") == [K.I]


def test_pad_dead_zone_and_mapping() -> None:
    still = pad_input(PadReading(left_x=0.1, left_y=-0.1, right_x=0.05), deadzone=0.2)
    assert (still.move_x, still.move_y, still.aim, still.shoot, still.dash) == (0.0, 0.0, None, False, False)
    full = pad_input(PadReading(left_x=1.0, right_y=-1.0, right_trigger=1.0, left_trigger=1.0), 0.2)
    assert full.move_x == pytest.approx(1.0) and full.aim == pytest.approx((0.0, -1.0))
    assert full.shoot and full.dash


class FakePad:
    """A controller as pyglet exposes it: stick axes -1..1 (y grows downwards), triggers 0..1, buttons."""

    leftx, lefty, rightx, righty = 0.0, -0.8, 1.0, 0.0  # left stick pushed up, right stick right
    righttrigger, lefttrigger = 0.0, 0.0
    a = b = False


def test_human_input_follows_the_gamepad() -> None:
    pad = Gamepad(enabled=True)
    pad.device, pad._looked = FakePad(), True
    h = HumanInput(gamepad=pad)
    inp = h.sample(lambda x, y: (x, y), player=(100.0, 200.0))
    assert inp.move_y > 0.7 and inp.move_x == 0.0
    assert (inp.aim_x, inp.aim_y) == pytest.approx((100.0 + PAD_AIM_REACH, 200.0))
    assert inp.shoot  # the right stick aims and fires (twin-stick)
    pad.enabled = False  # the options screen's Gamepad toggle
    assert h.sample(lambda x, y: (x, y), player=(0.0, 0.0)).move_y == 0.0


def test_no_controller_means_no_gamepad_input() -> None:
    h = HumanInput(gamepad=Gamepad(enabled=True))  # headless: pyglet finds no controller
    inp = h.sample(lambda x, y: (5.0, 6.0), player=(0.0, 0.0))
    assert (inp.move_x, inp.move_y, inp.aim_x, inp.shoot) == (0.0, 0.0, 5.0, False)
