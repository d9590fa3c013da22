"""A grounded turn through the real runtime (task queue, orchestrator, the LLM decorators): a looping model
is stopped at its first repeat and replaced by the grounded answer, with the note in small print and the
replacement counted; a true phrasing passes; raw tool output never shows; the template shows at once when
asked to; the request is the tiny grounded prompt with the role's decoding."""

from __future__ import annotations

from chat_support import SlowStreamer

from coreai.llm.stub import StubLlmClient
from coreai.runtime import CoreAiRuntime
from coreai.settings import Settings, TalkDecoding
from game.shop.inventory import load_inventory
from game.talk.shelf import merchant_grounding
from game.talk.stats import TalkStats
from game.talk.turn import TalkTurn
from game.talk.wares import ShelfView, Ware

LOOP = " ".join(["it's a world of the arena."] * 30)


def runtime_with(client: object, role: str = "Merchant") -> CoreAiRuntime:
    settings = Settings.model_validate({"llm": {"default_backend": "stub", "backends": {}}})
    rt = CoreAiRuntime(settings, backends={"scripted": client})  # type: ignore[dict-item]
    rt.router.set_backend(role, "scripted")
    return rt


def heal(coins: int = 10) -> object:
    inv = load_inventory()
    shelf = ShelfView(
        tuple(Ware(i.id, i.name, i.price, i.stock, i.description, i.tags) for i in inv.items), coins
    )
    return merchant_grounding("do you have anything to heal me?", shelf)


def run(client: object, **kw: object) -> tuple[TalkTurn, TalkStats]:
    rt = runtime_with(client)
    stats = TalkStats()
    turn = TalkTurn(rt.tasks, rt.events, heal(), TalkDecoding(max_sentences=4), stats=stats, **kw)  # type: ignore[arg-type]
    assert turn.wait(15)
    rt.close()
    return turn, stats


def test_a_loop_is_stopped_at_its_first_repeat_and_replaced() -> None:
    slow = SlowStreamer(LOOP, pause_s=0.01)
    turn, stats = run(slow)
    assert turn.state == "done" and turn.replaced
    assert turn.text() == heal().template  # type: ignore[attr-defined]
    assert "repeated itself" in turn.note
    assert slow.sent < 20, "the model was stopped at the repeat, not left to loop"
    assert stats.replaced["Merchant"] == 1 and stats.reasons[("Merchant", "repeat")] == 1


def test_a_true_phrasing_passes_the_guard() -> None:
    turn, stats = run(
        StubLlmClient(["Ah, a Medkit for 6 coins heals 40 HP, and with your 10 coins you can buy it."])
    )
    assert not turn.replaced and turn.text().startswith("Ah, a Medkit") and not turn.note
    assert stats.replaced["Merchant"] == 0 and stats.replies["Merchant"] == 1


def test_raw_tool_output_never_shows() -> None:
    seen: list[str] = []
    raw = 'Get_inventory returned: {"ok": true, "result": {"items": [{"name": "Medkit"}]}}'
    turn, _ = run(SlowStreamer(raw, pause_s=0.01), on_piece=seen.append)
    assert turn.replaced and "{" not in "".join(seen) and "{" not in turn.text()


def test_template_first_shows_the_grounded_answer_at_once_and_keeps_it_over_nonsense() -> None:
    seen: list[str] = []
    slow = SlowStreamer("The answer to the question is a classic example of an understatement.", pause_s=0.02)
    rt = runtime_with(slow)
    turn = TalkTurn(
        rt.tasks,
        rt.events,
        heal(),
        TalkDecoding(),
        template_first=True,
        on_piece=seen.append,
        stats=TalkStats(),
    )  # type: ignore[arg-type]
    assert turn.text() == heal().template and seen == [heal().template]  # type: ignore[attr-defined]
    assert turn.first_piece_s is not None and turn.first_piece_s < 0.1
    assert turn.wait(15) and turn.replaced and turn.text() == heal().template  # type: ignore[attr-defined]
    rt.close()


def test_the_request_is_the_tiny_grounded_prompt_with_the_roles_decoding() -> None:
    stub = StubLlmClient(["The Medkit: 6 coins, heals 40 HP."])
    run(stub)
    (request,) = stub.requests
    assert [m.role for m in request.messages] == ["system", "user"]
    assert sum(len(m.content) for m in request.messages) < 900, "no tool contracts, memory or world dump"
    assert not request.tools and request.repeat_penalty == TalkDecoding().repeat_penalty
    assert request.max_tokens == TalkDecoding().max_tokens


def test_no_reply_by_the_deadline_gives_the_grounded_answer() -> None:
    slow = SlowStreamer(
        "Well well well, let me think about that for a long while", pause_s=0.5, first_token_s=0.2
    )
    turn, _stats = run(slow, deadline_s=0.6)
    assert turn.state == "done" and turn.replaced and turn.text() == heal().template  # type: ignore[attr-defined]
