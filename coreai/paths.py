"""Where things live: the repository's asset folders and the saves folder.

Everything the game persists goes under ``saves_root()``: ``saves/`` in the repository, or the folder named
by the environment variable ``ARENA_SAVES_DIR`` (tests point it at a temporary folder).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS_DIR = REPO_ROOT / "assets"
PROMPTS_DIR = REPO_ROOT / "prompts"


def saves_root() -> Path:
    override = os.environ.get("ARENA_SAVES_DIR")
    root = Path(override) if override else REPO_ROOT / "saves"
    root.mkdir(parents=True, exist_ok=True)
    return root


def saves_path(*parts: str) -> Path:
    """A path under the saves folder; its parent folder exists on return."""
    path = saves_root().joinpath(*parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
