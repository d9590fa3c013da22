"""Fixtures of the Lua tests: an in-memory host, a manual clock, a manager over a private saves folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lua_fakehost import FakeHost
from lua_testkit import ManualClock

from coreai.lua.manager import ModManager


@pytest.fixture
def host() -> FakeHost:
    return FakeHost()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def mods_root(saves_dir: Path) -> Path:
    root = saves_dir / "mods"
    root.mkdir(exist_ok=True)
    return root


@pytest.fixture
def manager(host: FakeHost, mods_root: Path, clock: ManualClock) -> Iterator[ModManager]:
    m = ModManager(host, roots=[mods_root], clock=clock)
    yield m
    m.close()


@pytest.fixture(autouse=True)
def _private_saves(saves_dir: Path) -> Path:
    """Every Lua test writes into its own saves folder, never the repository's."""
    return saves_dir
