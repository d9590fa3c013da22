"""The chat panel's state without a window: per-role transcripts and turns, history from agent memory
for the roles that keep it, and failures in player words."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from coreai.errors import LlmError, LlmErrorCode
from coreai.llm.stub import StubLlmClient
from coreai.settings import Settings
from game.ai.session import AiSession
from game.options import LaunchOptions
from game.render.ai_panels.chat_model import ChatModel


@pytest.fixture
def session(saves_dir: Path) -> Iterator[AiSession]:
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    s = AiSession(LaunchOptions(headless=True), settings=settings, configure_logs=False)
    world = s.world_factory(1)
    s.on_run_start(world)
    assert s.shop is not None
    s.shop.shop.open = True
    yield s
    s.close()


def settle(model: ChatModel, session: AiSession) -> None:
    deadline = time.monotonic() + 20
    while model.turns:
        assert time.monotonic() < deadline
        session.runtime.drain()
        model.poll()
        time.sleep(0.002)


def test_each_role_has_its_transcript_and_stored_history_comes_back(session: AiSession) -> None:
    model = ChatModel(session)
    model.pick("Merchant")
    model.type("what do you have?")
    assert model.submit() and model.busy and not model.submit(), "one reply at a time per role"
    settle(model, session)
    lines = model.transcript()
    assert [line.speaker for line in lines] == ["you", "agent"] and "Medkit" in lines[1].text
    model.cycle()
    assert model.role == "Creator" and model.transcript() == []
    again = ChatModel(session)  # a new panel (a new game) shows the Merchant's stored turns
    stored = again.transcript("Merchant")
    assert [line.text for line in stored][:1] == ["what do you have?"] and "Medkit" in stored[1].text


def test_a_failed_reply_reads_in_player_words(session: AiSession) -> None:
    broken = StubLlmClient([LlmError(LlmErrorCode.UNAVAILABLE, "server down", backend="x")], name="broken")
    session.runtime.router.register("broken", broken)
    session.runtime.router.set_backend("Creator", "broken")
    model = ChatModel(session)
    model.pick("Creator")
    model.type("hello")
    model.submit()
    settle(model, session)
    last = model.transcript()[-1]
    assert "can't" in last.text and "the model gave no answer" in last.text, last.text
    assert "[trace" not in last.text and "Error" not in last.text, "player words, not the exception"


def test_a_failed_talk_reply_gives_the_grounded_answer_with_small_print(session: AiSession) -> None:
    broken = StubLlmClient([LlmError(LlmErrorCode.UNAVAILABLE, "server down", backend="x")], name="broken")
    session.runtime.router.register("broken", broken)
    session.runtime.router.set_backend("Chat", "broken")
    model = ChatModel(session)
    model.type("how do I dash?")
    model.submit()
    settle(model, session)
    answer, note = model.transcript()[-2:]
    assert answer.speaker == "agent" and "Shift" in answer.text
    assert note.speaker == "info" and "failed" in note.text and "[trace" not in note.text
