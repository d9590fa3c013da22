"""Where things live: the data shipped with the game, and the folders the game writes to.

Shipped data (prefabs, shipped mods, director scenarios, prompts, Lua boot files) is package data read through
``importlib.resources`` by :func:`shipped` / :func:`shipped_dir`, the one way every loader finds it. A
wheel maps the repository's top-level ``assets/`` and ``prompts/`` folders to the packages
``coreai.data.assets`` and ``coreai.data.prompts`` (see pyproject.toml); in a source checkout ``coreai.data``
finds the same folders in place (see ``coreai/data/__init__.py``), so nothing needs installing to edit them.

What the game writes depends on the *mode* (:func:`mode`):

- ``override``: the environment variable ``ARENA_SAVES_DIR`` names one folder for everything (tests, portable
  installs);
- ``dev``: the code runs from a source checkout (``pyproject.toml`` and ``assets/`` beside the packages, as
  with ``make run`` and an editable install) and ``ARENA_DEV`` is not ``0``: everything goes under the
  checkout's ``saves/``, as before;
- ``user``: an installed game (``pipx install .``, a wheel) uses the per-user folders from ``platformdirs``:
  saves, user mods and models in the user data folder, settings in the config folder, logs in the log folder,
  screenshots in the pictures folder.

``arena paths`` prints all of them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

APP_NAME = "arena-director"
REPO_ROOT = Path(__file__).resolve().parent.parent  # the checkout's root (meaningful in dev mode only)

Area = Literal["assets", "prompts", "lua"]
Mode = Literal["override", "dev", "user"]
_AREA_PACKAGES: dict[str, str] = {
    "assets": "coreai.data.assets",
    "prompts": "coreai.data.prompts",
    "lua": "coreai.lua",
}


def shipped(area: Area, *parts: str) -> Traversable:
    """A file or folder shipped with the game: ``shipped("prompts", "skills", "director.md").read_text()``."""
    node = resources.files(_AREA_PACKAGES[area])
    for part in parts:
        node = node.joinpath(part)
    return node


def shipped_dir(area: Area, *parts: str) -> Path:
    """A shipped folder as a real filesystem path, for loaders that scan folders (mods, prompt layers).
    Installed wheels are unpacked on disk, so this holds for every supported install."""
    node = shipped(area, *parts)
    if not isinstance(node, Path):
        raise RuntimeError(f"shipped data {area}/{'/'.join(parts)} is not on the filesystem ({node!r})")
    return node


def is_checkout() -> bool:
    """True when the packages run from a source checkout (the repository's files sit beside them)."""
    return (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "assets").is_dir()


def mode() -> Mode:
    if os.environ.get("ARENA_SAVES_DIR"):
        return "override"
    if is_checkout() and os.environ.get("ARENA_DEV", "1") != "0":
        return "dev"
    return "user"


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def saves_root() -> Path:
    """The folder for runs, high scores, mod storage, user mods, trajectories and agent memory."""
    current = mode()
    if current == "override":
        return _ensure(Path(os.environ["ARENA_SAVES_DIR"]))
    if current == "dev":
        return _ensure(REPO_ROOT / "saves")
    import platformdirs

    return _ensure(Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)))


def saves_path(*parts: str) -> Path:
    """A path under the saves folder; its parent folder exists on return."""
    path = saves_root().joinpath(*parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def settings_file() -> Path:
    """The user's settings.toml (a missing file means all defaults)."""
    if mode() != "user":
        return saves_path("settings.toml")
    import platformdirs

    return _ensure(Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))) / "settings.toml"


def logs_dir() -> Path:
    if mode() != "user":
        return _ensure(saves_root() / "logs")
    import platformdirs

    return _ensure(Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)))


def screenshots_dir() -> Path:
    if mode() != "user":
        return _ensure(saves_root() / "screenshots")
    import platformdirs

    return _ensure(Path(platformdirs.user_pictures_dir()) / APP_NAME)


def user_mods_dir() -> Path:
    return _ensure(saves_root() / "mods")


def models_dir() -> Path:
    """Where GGUF models are looked for: the checkout's assets/models, else the user data folder's models/."""
    if is_checkout():
        return REPO_ROOT / "assets" / "models"
    return saves_root() / "models"


@dataclass(frozen=True)
class Locations:
    mode: Mode
    shipped_assets: Path
    shipped_prompts: Path
    saves: Path
    settings: Path
    logs: Path
    mods: Path
    screenshots: Path
    models: Path


def locations() -> Locations:
    """Every folder at once (``arena paths``, the F1 help)."""
    return Locations(
        mode=mode(),
        shipped_assets=shipped_dir("assets"),
        shipped_prompts=shipped_dir("prompts"),
        saves=saves_root(),
        settings=settings_file(),
        logs=logs_dir(),
        mods=user_mods_dir(),
        screenshots=screenshots_dir(),
        models=models_dir(),
    )


# The shipped folders as paths, for code and tests that want a Path; both come from the helper above.
ASSETS_DIR = shipped_dir("assets")
PROMPTS_DIR = shipped_dir("prompts")
