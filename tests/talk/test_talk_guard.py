"""The talk guard and the stream watch: raw output, repeats, missing facts, wrong prices and overlong replies
are caught; the grounded templates themselves always pass."""

from __future__ import annotations

import pytest

from coreai.settings import TalkDecoding
from game.shop.inventory import load_inventory
from game.talk.guard import Limits, check
from game.talk.repeat import first_repeat, repeats
from game.talk.shelf import merchant_grounding
from game.talk.wares import ShelfView, Ware
from game.talk.watch import StreamWatch


def shelf(coins: int = 10) -> ShelfView:
    inv = load_inventory()
    return ShelfView(
        tuple(Ware(i.id, i.name, i.price, i.stock, i.description, i.tags) for i in inv.items), coins
    )


HEAL = merchant_grounding("do you have anything to heal me?", shelf())
LIMITS = Limits(260, 2)


def test_a_loop_is_a_repeat_and_is_cut_at_its_first_repeat() -> None:
    loop = "it's a world of the arena. " * 30
    assert repeats(loop)
    assert first_repeat(loop) == len("it's a world of the arena. ")
    assert not repeats("Yes. Yes. The Medkit heals 40 HP.")  # short interjections are not a loop


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('Get_inventory returned: {"ok": true, "result": {"items": []}}', "raw"),
        ("The Medkit costs 6 coins. The Medkit costs 6 coins.", "repeat"),
        ("I sell the finest wares in the arena, friend!", "facts"),
        ("The Medkit costs 8 coins and heals 40 HP.", "shelf"),
        ("The Medkit costs 6 coins and heals 55 HP.", "shelf"),
        ("The Medkit for 6 coins heals 40 HP, worth $1 to you.", "shelf"),
        ("The Medkit for 6 coins heals 40 HP; you have one coin to spare.", "shelf"),
        ("The Medkit for 6 coins heals 40 HP, like a Dragonfruit Elixir.", "invented"),
        ("The Medkit for 6 coins. " + "Lovely weather here. " * 2 + "x" * 300, "length"),
        ("", "length"),
    ],
)
def test_the_guard_names_what_is_wrong(reply: str, reason: str) -> None:
    verdict = check(reply, HEAL, LIMITS)
    assert not verdict.ok and reason in verdict.reasons, verdict


def test_a_true_phrasing_passes() -> None:
    assert check("Ah, the Medkit! Six coins... no, 6 coins, and it heals 40 HP.", HEAL, LIMITS).ok


@pytest.mark.parametrize(
    "question",
    [
        "do you have anything to heal me?",
        "I want to run faster",
        "what's your cheapest item?",
        "what can I afford?",
        "how much is the magnet?",
        "what do you sell?",
        "how do I get coins?",
        "something for more max HP?",
        "what's the most expensive thing here?",
        "how many coins do I have?",
    ],
)
@pytest.mark.parametrize("coins", [0, 7, 30])
def test_every_merchant_template_passes_its_own_guard(question: str, coins: int) -> None:
    g = merchant_grounding(question, shelf(coins))
    assert check(g.template, g, Limits(TalkDecoding().max_chars, TalkDecoding().max_sentences)).ok, g.template


def test_the_watch_stops_a_loop_and_hides_raw_output() -> None:
    watch = StreamWatch(TalkDecoding(max_sentences=5))
    for piece in ["it's a world ", "of the arena. it's a ", "world of the arena. it's"]:
        watch.feed(piece)
    assert watch.cut == "repeat" and watch.visible == "it's a world of the arena."
    raw = StreamWatch(TalkDecoding())
    shown = "".join(raw.feed(p) for p in ["Sure! ", "get_inventory ", 'returned: {"ok": true}'])
    assert raw.cut == "raw" and "{" not in shown and "returned" not in shown


def test_the_watch_cuts_after_the_last_allowed_sentence() -> None:
    watch = StreamWatch(TalkDecoding(max_sentences=2))
    for piece in ["One thing. ", "Two things! ", "Three things."]:
        watch.feed(piece)
    assert watch.cut == "sentences" and watch.visible == "One thing. Two things!"


def test_a_reply_that_names_the_key_but_not_what_it_does_is_replaced() -> None:
    """The bundled model answered "what does F10 do?" with "The F10 team is a proud and dedicated group of
    performers": a hotkey's facts are the key and what it does."""
    from game.talk.retrieve import chat_grounding
    from game.talk.start import knowledge_index

    g = chat_grounding("what does F10 do?", knowledge_index())
    nonsense = check("The F10 team is a proud and dedicated group of performers.", g, LIMITS)
    assert not nonsense.ok and "facts" in nonsense.reasons
    assert check("F10 opens the director panel.", g, LIMITS).ok
    assert check(g.template, g, LIMITS).ok


def test_a_rephrasing_that_adds_what_the_data_does_not_say_is_replaced() -> None:
    """The bundled model called the Exploder "a legendary spaceship with incredible speed and agility"."""
    from game.talk.retrieve import chat_grounding
    from game.talk.start import knowledge_index

    g = chat_grounding("what does the exploder do?", knowledge_index())
    made_up = check(
        "The Exploder, a legendary spaceship with incredible speed and agility, explodes: 28 HP, "
        "hits for 28.",
        g,
        LIMITS,
    )
    assert not made_up.ok and "invented" in made_up.reasons and "spaceship" in made_up.detail
    assert check(
        "Watch out: the Exploder rushes in and explodes for 28. Shoot it before it reaches you!", g, LIMITS
    ).ok


def test_a_reply_that_speaks_as_the_player_or_drops_what_the_item_does_is_replaced() -> None:
    """The bundled model told a player with 10 coins: "The only thing that can heal me is a medkit for 6
    coins." It speaks as the player and leaves out what the Medkit heals."""
    g = merchant_grounding("anything to heal me?", shelf())
    verdict = check("The only thing that can heal me is a medkit for 6 coins.", g, LIMITS)
    assert not verdict.ok and {"facts", "voice"} <= set(verdict.reasons)
    assert check("I have the Medkit: 6 coins, and it heals 40 HP. You can afford it.", g, LIMITS).ok
