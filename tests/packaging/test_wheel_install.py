"""The built wheel is self-contained: installed with --no-deps into an empty folder and run from elsewhere,
the game finds its shipped data through importlib.resources and writes into the per-user folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from coreai.paths import REPO_ROOT


def _tree_packages() -> set[str]:
    found = {
        ".".join(init.parent.relative_to(REPO_ROOT).parts)
        for top in ("game", "coreai")
        for init in (REPO_ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    return found | {"coreai.data.assets", "coreai.data.prompts"}


def test_pyproject_lists_every_package() -> None:
    """The package list is explicit (the data folders are mapped into coreai.data), so a new package must be
    added there or the wheel would silently lack it."""
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    assert listed == _tree_packages(), "add new packages to [tool.setuptools] packages in pyproject.toml"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(REPO_ROOT),
        ],
        check=True,
        cwd=build,
        capture_output=True,
        timeout=180,
    )
    (found,) = out.glob("arena_director-*.whl")
    return found


def test_wheel_holds_the_shipped_data_and_no_model(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "coreai/data/assets/prefabs/enemies.json",
        "coreai/data/assets/director/scenarios.jsonl",
        "coreai/data/assets/mods/meteor_shower/mod.toml",
        "coreai/data/prompts/skills/director.md",
        "coreai/data/prompts/roles/Creator.md",
        "coreai/lua/boot.lua",
        "coreai/lua/mod_api_meta.lua",
    ):
        assert needed in names, needed
    assert not any(n.endswith(".gguf") for n in names)
    assert not any(n.startswith(("assets/", "prompts/", "saves/")) for n in names)


@pytest.mark.slow
def test_installed_wheel_runs_headless_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "target"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=180,
    )
    before = sorted(p for p in target.rglob("*") if "__pycache__" not in p.parts)
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "XDG_", "PYTHON"))}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"),
        PYTHONPATH=str(target),
        PYTHONDONTWRITEBYTECODE="1",
    )
    probe = subprocess.run(
        [sys.executable, "-c", "import game, coreai.paths as p; print(game.__file__); print(p.mode())"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    game_file, mode = probe.stdout.split()
    assert Path(game_file).is_relative_to(target), game_file
    assert not Path(game_file).is_relative_to(REPO_ROOT)
    assert mode == "user"

    run = subprocess.run(
        [sys.executable, "-m", "game", "--headless", "--seconds", "5", "--seed", "4", "--json"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["seed"] == 4 and summary["ticks"] > 0

    data = home / "data" / "arena-director"
    runs = json.loads((data / "runs.json").read_text(encoding="utf-8"))
    assert runs, "the run was recorded in the per-user data folder"
    assert (home / "state" / "arena-director" / "log" / "coreai.log").is_file()
    after = sorted(p for p in target.rglob("*") if "__pycache__" not in p.parts)
    assert after == before, "nothing is written inside the installed package"
    assert list(elsewhere.iterdir()) == []

    paths = subprocess.run(
        [sys.executable, "-m", "game", "paths", "--json"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    where = json.loads(paths.stdout)
    assert where["saves"] == str(data)
    assert where["settings"] == str(home / "config" / "arena-director" / "settings.toml")
    assert Path(where["shipped_assets"]).is_relative_to(target)
