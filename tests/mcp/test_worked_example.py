"""The worked playtest in docs/mcp_playtest.md cannot go stale (issue 35): ``scripts/mcp_playtest.py`` plays
it for real against ``python -m game --headless --mcp --frozen --seed 11`` (the same seed and inputs give
the same run, to the digest), and this test fails when the doc and the script's output differ.
To update the doc after a change to the game: ``python scripts/mcp_playtest.py --write``."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(240)


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mcp_playtest", ROOT / "scripts" / "mcp_playtest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_doc_shows_what_the_script_prints() -> None:
    script = _script()
    printed = script.transcript()
    shown = script.doc_block()
    lines = difflib.unified_diff(shown.splitlines(), printed.splitlines(), "doc", "script", lineterm="")
    stale = "docs/mcp_playtest.md is stale; run python scripts/mcp_playtest.py --write"
    assert printed == shown, stale + "\n" + "\n".join(lines)
    assert "kills" in printed and "<~ notifications/resources/updated arena://runs/current" in printed


def test_the_block_is_found_between_its_markers() -> None:
    script = _script()
    text = f"intro\n{script.BEGIN}\n\n    -> a\n    <- b\n\n{script.END}\nafter\n"
    assert script.doc_block(text) == "    -> a\n    <- b\n"
    assert script.doc_block(text) != script.doc_block(text.replace("<- b", "<- c"))
