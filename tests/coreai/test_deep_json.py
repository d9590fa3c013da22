"""Every JSON read from disk or the network is parsed with bounded depth (issue 12 item 2).

100,000 levels of ``[`` used to raise RecursionError out of ``read_json``; now each reader quarantines the
file (or refuses the text) with a clear error. MCP bodies are covered in tests/mcp/test_hostile_mcp.py,
runs.json/highscores.json in tests/sim/test_saves_journal.py, mod files in
tests/lua/test_lua_persisted_files.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreai.errors import CorruptSaveError
from coreai.memory import MemoryStore
from coreai.persist import MAX_JSON_DEPTH, loads_json, read_json, too_deep
from game.director.memory import DirectorMemory
from game.headless_runs.trajectory_file import read_trajectory

DEEP = "[" * 100_000


def test_loads_json_bounds_depth_and_ignores_brackets_inside_strings() -> None:
    with pytest.raises(json.JSONDecodeError, match="nested deeper than 64 levels"):
        loads_json(DEEP)
    with pytest.raises(ValueError):
        loads_json(b"{" * 70)
    ok = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert loads_json(ok) is not None
    tricky = {"s": "[[[[" * 10_000 + '"\\' + "{" * 100}  # brackets, a quote and a backslash in a string
    assert loads_json(json.dumps(tricky)) == tricky
    assert too_deep("[" * 65 + "]" * 65) and not too_deep('["' + "[" * 1000 + '"]')


def test_read_json_quarantines_a_deep_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(DEEP)
    with pytest.raises(CorruptSaveError, match="nested deeper"):
        read_json(path)
    assert not path.exists() and list(tmp_path.glob("x.json.corrupt-*"))


def test_deep_agent_memory_is_quarantined_and_the_role_starts_clean(saves_dir: Path) -> None:
    folder = saves_dir / "agent_memory"
    folder.mkdir(parents=True)
    (folder / "Creator.json").write_text(DEEP)
    store = MemoryStore()
    assert store.memory("Creator") == ""
    assert list(folder.glob("Creator.json.corrupt-*")) and "nested deeper" in (
        store.last_error("Creator") or ""
    )
    store.write("Creator", "fresh")
    assert MemoryStore().memory("Creator") == "fresh"


def test_deep_director_notes_are_quarantined(tmp_path: Path) -> None:
    path = tmp_path / "director_notes.json"
    path.write_text('{"version": 1, "notes": ' + DEEP + "}")
    memory = DirectorMemory(path=path)
    assert memory.notes() == [] and memory.warning and "nested deeper" in memory.warning
    assert list(tmp_path.glob("director_notes.json.corrupt-*"))


def test_a_deep_trajectory_line_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(DEEP + "\n" + DEEP + "\n")
    with pytest.raises(CorruptSaveError, match="line 1 is not a valid trajectory record"):
        read_trajectory(path)
