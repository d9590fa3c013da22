"""Suite-wide fixtures: no accidental real LLM calls, every test writes into its own saves folder, and the
window tests' fixtures (one shared arcade window, a fresh GameApp per test, an offline AI session; arcade is
imported only when a test asks for them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
# no test finds whatever model server happens to run on this machine's usual ports (tests that want
# discovery set the ports they started a server on)
os.environ["ARENA_DISCOVER_PORTS"] = ""

from coreai.llm import guard


@pytest.fixture(autouse=True, scope="session")
def _saves_never_in_the_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Whatever a test writes without asking for ``saves_dir`` lands in a scratch folder, never in saves/."""
    previous = os.environ.get("ARENA_SAVES_DIR")
    os.environ["ARENA_SAVES_DIR"] = str(tmp_path_factory.mktemp("saves-default"))
    yield
    if previous is None:
        os.environ.pop("ARENA_SAVES_DIR", None)
    else:
        os.environ["ARENA_SAVES_DIR"] = previous


@pytest.fixture(autouse=True)
def _no_accidental_real_llm(request: pytest.FixtureRequest) -> Iterator[None]:
    allowed = request.node.get_closest_marker("real_llm") is not None
    guard.set_real_calls_allowed(allowed)
    yield
    guard.set_real_calls_allowed(True)


@pytest.fixture
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private saves/ folder; code that honours ARENA_SAVES_DIR writes there instead of the repo's."""
    d = tmp_path / "saves"
    d.mkdir()
    monkeypatch.setenv("ARENA_SAVES_DIR", str(d))
    return d


@pytest.fixture(scope="session")
def window() -> Any:
    from window_support import shared_window

    return shared_window()


@pytest.fixture
def make_app(window: Any, saves_dir: Path) -> Iterator[Any]:
    from window_support import app_factory

    yield from app_factory(window)


@pytest.fixture
def session(saves_dir: Path) -> Iterator[Any]:
    """An AI session with every role on the scripted stub (no model calls)."""
    from coreai.settings import Settings
    from game.ai.session import AiSession
    from game.options import LaunchOptions

    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    s = AiSession(LaunchOptions(), settings=settings, configure_logs=False)
    yield s
    s.close()
