"""The reference flow through the real session (task queue, orchestrator, tool loop, main-loop queue) on
the offline stub: player asks -> get_inventory (forced) -> the answer names the shelf. The reply streams
as TextDelta events; a "buy" message lets the Merchant call buy_item, whose refusals reach the reply."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from coreai.settings import Settings
from game.ai.chat import ChatTurn, chat_request
from game.ai.session import AiSession
from game.options import LaunchOptions
from game.sim.world import World


@pytest.fixture
def session(saves_dir: Path) -> Iterator[tuple[AiSession, World]]:
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    s = AiSession(LaunchOptions(headless=True), settings=settings, configure_logs=False)
    world = s.world_factory(1)
    s.on_run_start(world)
    assert s.shop is not None
    s.shop.shop.open = True
    yield s, world
    s.close()


def run_turn(s: AiSession, world: World, text: str) -> tuple[ChatTurn, list[str]]:
    pieces: list[str] = []
    turn = ChatTurn(s.runtime.tasks, s.runtime.events, chat_request("Merchant", text), on_piece=pieces.append)
    deadline = time.monotonic() + 20
    while not turn.handle.done():
        assert time.monotonic() < deadline, "no answer"
        s.on_frame(world, 0.0)
        time.sleep(0.002)
    assert turn.state == "done", turn.error
    return turn, pieces


def test_the_merchant_answers_from_get_inventory(session: tuple[AiSession, World]) -> None:
    s, world = session
    assert s.shop is not None
    s.shop.shop.purse.balance = 7
    turn, pieces = run_turn(s, world, "what do you have?")
    assert turn.tools_called() == ["get_inventory"]
    reply = turn.text()
    for item in s.shop.shop.inventory.items:
        assert item.name in reply and f"{item.price} coins" in reply
    assert "You have 7 coins" in reply
    assert len(pieces) > 1 and "".join(pieces) == reply, "the reply streamed in pieces"


def test_buying_through_the_merchant_spends_coins_and_refusals_reach_the_reply(
    session: tuple[AiSession, World],
) -> None:
    s, world = session
    assert s.shop is not None
    s.shop.shop.purse.balance = 10
    turn, _ = run_turn(s, world, "I'll buy a magnet")
    assert turn.tools_called() == ["buy_item"] and "1 coin left" in turn.text()
    assert s.shop.shop.purse.balance == 1 and world.stacks.get("pickup_radius") == 1
    turn, _ = run_turn(s, world, "buy a medkit")
    assert "costs 6 coins; you have 1" in turn.text() and s.shop.shop.purse.balance == 1
    turn, _ = run_turn(s, world, "buy the rocket launcher")
    assert "no 'rocket launcher' on the shelf" in turn.text()
