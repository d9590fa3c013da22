"""Messages that explain (issue 26 item 8): a diverged replay says which plan fields differ, and a header (or
any pydantic-validated file) that fails validation names the field in player words, without pydantic's
text or its documentation URL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreai.errors import CorruptSaveError, PersistenceError, SettingsError
from coreai.settings import settings_from_dict
from game.headless_runs.replay import replay
from game.headless_runs.run import run_directed
from game.headless_runs.trajectory_file import read_trajectory
from game.options import LaunchOptions


def _edited_decision(path: Path, pressure: str) -> dict[str, object]:
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"type":"decision"' in line and '"accepted"' in line)
    rec = json.loads(lines[i])
    old = dict(rec["plan"])
    rec["raw"] = json.dumps({**old, "pressure": pressure, "reason": "edited"})
    rec["reply_plan"] = None
    lines[i] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return old


def test_a_diverged_replay_names_the_plan_fields_that_differ(saves_dir: Path) -> None:
    _, metrics = run_directed(4, 30.0, "strong", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    recorded = read_trajectory(path).decisions[0].plan or {}
    other = "spike" if recorded.get("pressure") != "spike" else "ease"
    old = _edited_decision(path, other)
    with pytest.raises(PersistenceError) as info:
        replay(path)
    text = str(info.value)
    assert "diverged" in text
    assert f"plan field pressure recorded {json.dumps(old['pressure'])}, replayed {json.dumps(other)}" in text
    assert "accepted@" not in text, "not the old 'recorded accepted@1, replayed accepted@1'"


def _no_pydantic(text: str) -> None:
    assert "pydantic" not in text and "http" not in text and "Input should" not in text, text


def test_a_bad_trajectory_header_names_the_field_in_player_words(saves_dir: Path) -> None:
    _, metrics = run_directed(7, 5.0, "weak", "rules", trajectory=True)
    path = Path(metrics.trajectory or "")
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header.update(seconds=1e12, bot="superbot")
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(CorruptSaveError) as info:
        read_trajectory(path)
    text = str(info.value)
    _no_pydantic(text)
    assert "seconds must be at most 21600 (got 1000000000000.0)" in text
    assert "bot must be one of" in text and "'superbot'" in text


def test_settings_and_options_errors_are_in_player_words() -> None:
    with pytest.raises(SettingsError) as info:
        settings_from_dict({"lua": {"max_timers": 0}})
    _no_pydantic(str(info.value))
    assert "lua.max_timers must be at least 1 (got 0)" in str(info.value)
    from pydantic import ValidationError

    from coreai.validation import explain

    with pytest.raises(ValidationError) as bad:
        LaunchOptions(mcp_port=0, mystery=1)  # type: ignore[call-arg]
    text = explain(bad.value, flags=True)
    _no_pydantic(text)
    assert text == "--mcp-port must be at least 1 (got 0)" or "--mcp-port must be at least 1" in text
