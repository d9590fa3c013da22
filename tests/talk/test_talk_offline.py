"""Offline stubs that behave, through the game's own paths: the stub Merchant answers the question asked
from the shelf (not the whole shelf), the stub Chat answers from the knowledge file, a purchase still goes
at once from its receipt, and the talk evaluation on the stub meets the targets on both splits."""

from __future__ import annotations

import time
from typing import Any

from game.talk.start import start_turn


def ask(session: Any, role: str, text: str, coins: int = 10) -> Any:
    world = session.world_factory(1)
    session.on_run_start(world)
    session.shop.shop.open = True
    session.shop.shop.purse.balance = coins
    turn = start_turn(session, role, text)
    end = time.monotonic() + 10
    while turn.busy and time.monotonic() < end:
        session.on_frame(world, 0.0)
        time.sleep(0.005)
    return turn


def test_the_stub_merchant_answers_the_question_asked(session: Any) -> None:
    turn = ask(session, "Merchant", "do you have anything to heal me?")
    text = turn.text()
    assert "Medkit" in text and "6 coins" in text and "Hollow Points" not in text
    assert not turn.replaced


def test_the_stub_chat_answers_from_the_knowledge_file(session: Any) -> None:
    text = ask(session, "Chat", "how do I dash?").text()
    assert "Shift" in text and "stub" not in text


def test_an_order_buys_at_once_and_the_reply_is_the_receipt(session: Any) -> None:
    turn = ask(session, "Merchant", "buy the medkit")
    assert session.shop.shop.purse.balance == 4 and session.shop.shop.stock["medkit"] == 2
    assert turn.text() == (
        "Here is your Medkit: it heals 40 HP, for 6 coins. You have 4 coins left, and I have 2 more of them."
    )
    assert turn.ended_s is not None and turn.ended_s < 0.5 and not turn.replaced


def test_the_talk_eval_on_the_stub_meets_the_targets() -> None:
    from game.eval.talk import evaluate, load_questions

    questions = load_questions()
    assert len(questions) >= 60
    assert {q.role for q in questions} == {"Merchant", "Chat", "Analyzer"}
    assert any(q.tuned for q in questions) and any(not q.tuned for q in questions)
    answers = evaluate("stub", questions)
    assert not [a for a in answers if a.degenerate]
    for role, need in (("Merchant", 0.9), ("Chat", 0.8)):
        held = [a for a in answers if a.q.role == role and not a.q.tuned]
        assert sum(a.right for a in held) / len(held) >= need, [a.q.id for a in held if not a.right]
