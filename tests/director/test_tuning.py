"""The director's tuning as data (``assets/director/tuning.toml``, ``game/director/tuning.py``): a bad file is
refused with the key it got wrong, a difficulty preset changes only the values it names, and the file stays
small enough to read (at most ``MAX_VALUES`` values)."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest

from coreai.errors import SettingsError
from game.director.tuning import TUNING, Tuning, _text, parse, preset_names, tuning

MAX_VALUES = 120  # every player-facing balance value of static and the director (a table counts each entry)


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out |= _flat(value, f"{prefix}{key}.")
        else:
            out[f"{prefix}{key}"] = tuple(value) if isinstance(value, list) else value
    return out


def _sections(t: Tuning) -> dict[str, Any]:
    return _flat(t.model_dump(exclude={"label"}))


def _with(line: str, new: str) -> str:
    """The shipped file with the one line that starts with ``line`` starting with ``new`` instead."""
    text = _text()
    start = re.compile(r"^" + re.escape(line), re.MULTILINE)
    assert len(start.findall(text)) == 1, f"{line!r} does not start one line of tuning.toml"
    return start.sub(lambda _m: new, text)


def _line(section: str, key: str) -> str:
    """The ``key = value`` text of ``[section] key`` in the shipped file (its value as written)."""
    in_section = False
    for raw in _text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            in_section = line == f"[{section}]"
        elif in_section and line.split("=", 1)[0].strip() == key:
            return line
    raise AssertionError(f"[{section}] {key} not in tuning.toml")


def test_the_shipped_file_loads_and_normal_is_the_default() -> None:
    assert tuning() == tuning("normal") == TUNING
    assert TUNING.label == "Normal"
    assert {tuning(name).label for name in preset_names()} == set(preset_names().values())


def test_there_are_at_most_max_values_and_each_is_in_the_file() -> None:
    data = tomllib.loads(_text())
    data.pop("presets")
    assert TUNING.values() == len(_flat(data)), "values() counts what the file holds"
    assert set(_sections(TUNING)) == set(_flat(data))
    assert TUNING.values() <= MAX_VALUES


def test_an_unknown_key_is_refused_with_its_name() -> None:
    line = _line("rescue", "cooldown_s")
    with pytest.raises(SettingsError, match=r"rescue\.cooldwn_s"):
        parse(_with(line, line.replace("cooldown_s", "cooldwn_s")))
    with pytest.raises(SettingsError, match=r"nosuch"):
        parse(_text() + "\n[nosuch]\nvalue = 1\n")


@pytest.mark.parametrize(
    "section, key, value",
    [
        ("rescue", "charges", "50"),  # le=10
        ("read", "fall_bars", "1.5"),  # a share of a bar, le=1
        ("danger", "low_factor", "0"),  # gt=0
        ("presence", "floor_max", "100"),  # le=60
        ("pacing", "relax_s", "[15.0, 10.0]"),  # a [low, high] pair the wrong way round
    ],
)
def test_an_out_of_range_value_is_refused_with_its_key(section: str, key: str, value: str) -> None:
    line = _line(section, key)
    with pytest.raises(SettingsError) as err:
        parse(_with(line, f"{key} = {value}"))
    message = str(err.value)
    assert section in message and key in message and "tuning.toml" in message, message


def test_hp_low_must_stay_under_hp_full() -> None:
    line = _line("danger", "hp_low")
    with pytest.raises(SettingsError, match="hp_low"):
        parse(_with(line, f"hp_low = {TUNING.danger.hp_full}"))


def test_a_bad_file_or_preset_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="not TOML"):
        parse("[read\n")
    with pytest.raises(SettingsError, match="unknown preset 'nightmare'"):
        parse(_text(), "nightmare")
    with pytest.raises(SettingsError, match=r"plan\.typo"):
        parse(_text() + "\n[presets.typo]\nplan.typo = 1\n", "typo")  # a preset is validated too


@pytest.mark.parametrize("preset", ["easy", "hard"])
def test_a_preset_changes_only_the_values_it_names(preset: str) -> None:
    named = set(_flat(tomllib.loads(_text())["presets"][preset])) - {"label"}
    assert named, f"the {preset} preset names something"
    base, over = _sections(TUNING), _sections(tuning(preset))
    changed = {k for k in base if base[k] != over[k]}
    assert changed == named
    for key in named:
        section, name = key.split(".")
        assert over[key] == pytest.approx(_flat(tomllib.loads(_text())["presets"][preset])[key])
        assert getattr(getattr(tuning(preset), section), name) != getattr(getattr(TUNING, section), name)


def test_an_overlay_value_that_breaks_a_rule_is_refused() -> None:
    text = _text() + "\n[presets.broken]\ndanger.hp_low = 0.9\n"  # over normal's hp_full
    with pytest.raises(SettingsError, match=r"\(broken\).*hp_low"):
        parse(text, "broken")
    assert parse(text, "normal") == TUNING, "the other presets still load"
