"""Fixtures of the coreai tests: a fake world bound to a main-loop queue, a thread playing the game loop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from coreai_fakes import FakeWorld, LoopThread
from loguru import logger

from coreai.mainloop import MainLoopQueue
from coreai.settings import MainLoopSettings
from coreai.world import CoreAiBindings


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def bindings(world: FakeWorld) -> CoreAiBindings:
    b = CoreAiBindings()
    b.register_world(world)
    b.register_state(world)
    return b


@pytest.fixture
def mainloop(bindings: CoreAiBindings) -> Iterator[MainLoopQueue]:
    q = MainLoopQueue(bindings, MainLoopSettings(wait_timeout_s=2.0))
    yield q
    q.close()


@pytest.fixture
def loop_thread(mainloop: MainLoopQueue) -> Iterator[LoopThread]:
    lt = LoopThread(mainloop).start()
    yield lt
    lt.stop()


@pytest.fixture
def log_records() -> Iterator[list[Any]]:
    """Every loguru record emitted during the test, at every level."""
    records: list[Any] = []
    sink_id = logger.add(lambda m: records.append(m.record), level="TRACE", format="{message}")
    yield records
    logger.remove(sink_id)
