"""A write killed inside a mod's folder leaves no temporary file for ever (issue 38 item 3).

A real process installs a mod, then is killed with SIGKILL in the middle of updating it: after the new
``mod.toml`` was written and fsynced to ``mods/<name>/.mod.toml.<random>.tmp`` and before the rename (the
moment a crash leaves the file behind). The real game then starts once (``python -m game --headless --mcp``):
the temporary file is gone, the mod's files are the old version, whole, and a file of the modder's own that
merely ends in ``.tmp`` is left alone. Before the fix, temporary files were cleaned in the saves root,
``mod_storage`` and ``mod_versions`` but never in the mod folders.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from coreai.paths import REPO_ROOT

pytestmark = pytest.mark.timeout(120)

CHILD = r"""
import os, signal, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from lua_fakehost import FakeHost
from coreai.lua.manager import ModManager

manifest = 'name = "keeper"\nversion = "{}"\nauthor = "tests"\ndescription = "d"\napi_version = 1\n'
manager = ModManager(FakeHost())
manager.import_mod({"mod.toml": manifest.format("1.0.0"), "main.lua": "x = 1\n"}, load=False)
mods = str(manager.user_root.resolve())
real_replace = os.replace

def crash_in_mods(src, dst, *a, **k):
    if str(Path(dst).resolve()).startswith(mods):
        os.kill(os.getpid(), signal.SIGKILL)  # the temporary file is written and fsynced, not yet renamed
    return real_replace(src, dst, *a, **k)

os.replace = crash_in_mods
manager.import_mod({"mod.toml": manifest.format("2.0.0"), "main.lua": "x = 2\n"}, load=False)
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_temp_file_a_kill_left_in_a_mod_folder_is_gone_after_the_next_start(saves_dir: Path) -> None:
    env = {**os.environ, "ARENA_SAVES_DIR": str(saves_dir), "PYTHONPATH": str(REPO_ROOT),
           "ARENA_DISCOVER_PORTS": ""}  # fmt: skip
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(Path(__file__).parent)],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert child.returncode == -9, f"the child was not killed mid-write: {child.stderr[-2000:]}"
    folder = saves_dir / "mods" / "keeper"
    left = sorted(p.name for p in folder.glob(".*.tmp"))
    assert left and all(n.startswith((".mod.toml.", ".main.lua.")) for n in left), left  # the leftover
    own = folder / ".my_notes.tmp"  # a modder's own file, not of the atomic writer's shape
    own.write_text("todo: more meteors\n", encoding="utf-8")
    settings = '[llm]\ndefault_backend = "stub"\n\n[llm.backends]\n'  # no model: this is about files
    (saves_dir / "settings.toml").write_text(settings, encoding="utf-8")
    game = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--mcp", "--mcp-port", str(_free_port()),
         "--seconds", "1", "--bot", "still"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert game.returncode == 0, game.stderr[-3000:]
    stale = [p.name for p in folder.glob(".*.tmp") if p != own]
    assert not stale, f"the killed write's temp file is still there: {stale}"
    assert own.read_text(encoding="utf-8") == "todo: more meteors\n"
    assert 'version = "1.0.0"' in (folder / "mod.toml").read_text(encoding="utf-8")
    assert (folder / "main.lua").read_text(encoding="utf-8") == "x = 1\n"
