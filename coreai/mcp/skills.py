"""The skill library behind ``read_skill``: the markdown references in ``prompts/skills/`` (one file a skill).

A skill's name is its file stem (``lua_modding``); lookups forgive case, spaces and hyphens, so
``"Lua Modding"`` finds ``lua_modding.md``. Names are matched against the folder's listing, never joined
into a path, so no request can read outside the folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from coreai.errors import McpError
from coreai.paths import shipped_dir

DEFAULT_SKILLS_DIR = shipped_dir("prompts", "skills")
MAX_SKILL_CHARS = 200_000


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


class SkillLibrary:
    """Callable as the ``read_skill`` service: ``library("Lua Modding") -> markdown text``."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else DEFAULT_SKILLS_DIR

    def _files(self) -> dict[str, Path]:
        if not self.root.is_dir():
            return {}
        return {_key(p.stem): p for p in sorted(self.root.glob("*.md")) if p.is_file()}

    def names(self) -> list[str]:
        """Skill names available now (the folder is re-read, so new files show up while running)."""
        return [p.stem for p in self._files().values()]

    def __call__(self, name: str) -> str:
        files = self._files()
        path = files.get(_key(name))
        if path is None:
            known = ", ".join(p.stem for p in files.values()) or "none (prompts/skills/ is empty)"
            raise McpError(f"unknown skill '{name[:64]}'; available: {known}", status=404)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise McpError(f"skill '{path.stem}' could not be read: {exc}") from exc
        if len(text) > MAX_SKILL_CHARS:
            text = text[:MAX_SKILL_CHARS] + f"\n\n[truncated at {MAX_SKILL_CHARS} characters]"
        return text
