"""Grounding: the Merchant's question intents map to the right items by their effect tags; the Chat finds
its answer in the knowledge file, and the knowledge file matches its sources (the F1 help, the data, the
skill docs), so it cannot drift."""

from __future__ import annotations

import pytest

from game.shop.inventory import load_inventory
from game.talk.knowledge import build_entries, knowledge_path, render
from game.talk.retrieve import chat_grounding
from game.talk.shelf import merchant_grounding
from game.talk.start import knowledge_index
from game.talk.wares import ShelfView, Ware


def shelf(coins: int) -> ShelfView:
    inv = load_inventory()
    return ShelfView(
        tuple(Ware(i.id, i.name, i.price, i.stock, i.description, i.tags) for i in inv.items), coins
    )


def test_the_knowledge_file_matches_its_sources() -> None:
    assert knowledge_path().read_text(encoding="utf-8") == render(build_entries()), (
        "assets/talk/knowledge.jsonl is stale: run python -m game.talk.knowledge"
    )


def test_every_shop_item_has_an_effect_tag() -> None:
    assert all(item.tags for item in load_inventory().items)


@pytest.mark.parametrize(
    ("question", "coins", "intent", "holds"),
    [
        ("do you have anything to heal me?", 10, "heal", ("Medkit", "6 coins", "so you can buy it")),
        ("I want to run faster", 5, "speed", ("Light Boots", "12 coins", "7 short")),
        ("I want to hit harder", 0, "damage", ("Hollow Points", "24")),
        ("how do I shoot faster?", 0, "fire_rate", ("Rapid Fire Kit", "20")),
        ("something for more max HP?", 0, "max_hp", ("Vitality Tonic", "18")),
        ("what helps me pick up xp from farther away?", 0, "pickup", ("Magnet", "9")),
        ("what's your cheapest item?", 0, "cheapest", ("Medkit", "6")),
        ("what can I afford?", 10, "afford", ("Medkit", "Magnet")),
        ("how much is the vitality tonic?", 0, "named", ("Vitality Tonic", "18")),
        ("how do I get more coins?", 0, "earn", ("killing enemies",)),
    ],
)
def test_a_merchant_question_maps_to_the_shelf(
    question: str, coins: int, intent: str, holds: tuple[str, ...]
) -> None:
    g = merchant_grounding(question, shelf(coins))
    assert g.intent == intent
    for fact in holds:
        assert fact in g.template, g.template
    assert g.template.count("coins") <= 3, "it answers the question, not the whole shelf"


def test_a_sold_out_item_is_said_to_be_sold_out() -> None:
    s = shelf(50)
    s = ShelfView(
        tuple(w if w.id != "medkit" else Ware(w.id, w.name, w.price, 0, w.effect, w.tags) for w in s.wares),
        50,
    )
    assert "sold out" in merchant_grounding("anything to heal me?", s).template


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("how do I dash?", "Shift"),
        ("what are the controls?", "W A S D"),
        ("how do I pause?", "P"),
        ("what does the blaster evolve into?", "Gatling Storm"),
        ("what does the spitter do?", "Spitter"),
        ("what does the AI director do?", "pressure"),
        ("how do I make a mod?", "mod.toml"),
    ],
)
def test_a_chat_question_finds_its_fact(question: str, fact: str) -> None:
    g = chat_grounding(question, knowledge_index())
    assert fact in g.template, (g.intent, g.template)


def test_small_talk_gets_a_friendly_pointer_to_what_chat_knows() -> None:
    g = chat_grounding("how are you today?", knowledge_index())
    assert g.intent == "small_talk" and "controls" in g.template


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("buy the medkit", True),
        ("I'll take a magnet", True),
        ("buy a rocket launcher", True),  # the buy_item tool refuses it and names the shelf
        ("what can I buy?", False),
        ("I have 7 coins, what can I buy?", False),
        ("can I buy the medkit?", False),
        ("do you have anything to heal me?", False),
    ],
)
def test_an_order_takes_the_tool_flow_and_a_question_stays_grounded(text: str, order: bool) -> None:
    from game.talk.start import is_purchase

    assert is_purchase(text, shelf(10)) is order


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("which mods are there?", "mod:all"),  # a topic and no one thing in it: the topic's list
        ("what does berserker do?", "mod:berserker"),
        ("what enemies are there?", "enemy:all"),
        ("what is this game?", "game:about"),  # a tie across topics is not a topic question
        ("hi, what can you tell me about this arena?", "game:about"),
    ],
)
def test_a_topic_question_gets_its_list_and_a_named_thing_its_entry(question: str, entry: str) -> None:
    assert chat_grounding(question, knowledge_index()).intent == entry
