"""`arena` is a subcommand dispatcher: --version, help listing the subcommands, `paths`, an unknown
subcommand is a clear error, and plain options still play (covered by the headless CLI tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from coreai.paths import REPO_ROOT
from coreai.version import __version__
from game.cli import SUBCOMMANDS


def arena(*args: str, saves: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARENA_SAVES_DIR": str(saves)}
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_version_help_paths_and_unknown(tmp_path: Path) -> None:
    assert arena("--version", saves=tmp_path).stdout == f"arena {__version__}\n"
    helptext = arena("--help", saves=tmp_path).stdout
    for name in SUBCOMMANDS:
        assert f"  {name} " in helptext
    assert "--headless" in helptext
    where = json.loads(arena("paths", "--json", saves=tmp_path).stdout)
    assert where["mode"] == "override" and where["saves"] == str(tmp_path)
    assert where["settings"] == str(tmp_path / "settings.toml")
    bad = arena("frobnicate", saves=tmp_path)
    assert bad.returncode == 2 and "unknown subcommand 'frobnicate'" in bad.stderr
