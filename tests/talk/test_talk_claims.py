"""The claim reader: a reply read into (subject, attribute, value) claims, each judged against the game's
data and live state. The false statements the bundled model made (issue 36) are caught with their reason;
every grounded answer is true by the same reader, and the guard passes it."""

from __future__ import annotations

import itertools

import pytest

from game.shop.inventory import load_inventory
from game.talk.claims import Claim, false_claims, read_claims, unsupported
from game.talk.facts import FactBase
from game.talk.guard import Limits, check
from game.talk.knowledge import load_knowledge
from game.talk.retrieve import chat_grounding
from game.talk.shelf import merchant_grounding
from game.talk.start import knowledge_index
from game.talk.vocab import ORDER
from game.talk.wares import ShelfView, Ware


def shelf(coins: int = 0) -> ShelfView:
    inv = load_inventory()
    return ShelfView(
        tuple(Ware(i.id, i.name, i.price, i.stock, i.description, i.tags) for i in inv.items), coins
    )


BASE = FactBase.load(shelf(0))


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("The Exploder rushes in and explodes: 28 HP, hits for 30.", "the Exploder: damage is 28, not 30"),
        ("You have only a single coin.", "you: coins is 0, not 1"),
        ("Set -Dgd_mode=1 when you start the game.", "'-Dgd_mode=1' is not a command"),
        ("Export GD_MODE=1 first.", "is not a command"),
        ("The Exploder hits for a worth of 4 coins.", "the Exploder: coins is 2, not 4"),
        ("The Medkit costs 8 coins.", "the Medkit: price is 6, not 8"),
        ("I have 5 Medkits left.", "the Medkit: stock is 3, not 5"),
        ("The Tank comes from wave 2.", "the Tank: first wave is 3, not 2"),
        ("Press F4 to open the shop.", "there is no F4 key"),
        ("The boss comes every 4th wave.", "the game: boss every is 5, not 4"),
        ("With 9 coins you can buy the Medkit and the Magnet.", "cost 15 together"),
    ],
)
def test_a_false_claim_is_caught_with_its_reason(reply: str, reason: str) -> None:
    found = false_claims(reply, BASE)
    assert found and any(reason in why for _c, why in found), found


def test_a_number_is_bound_to_the_thing_it_is_said_of() -> None:
    claims = read_claims("The Tank has 170 HP, while the Runner hits for 6 and pays 1 coin.", BASE)
    assert Claim("enemy:tank", "hp", 170) in claims
    assert Claim("enemy:runner", "damage", 6) in claims and Claim("enemy:runner", "coins", 1) in claims
    assert not false_claims("The Tank has 170 HP, while the Runner hits for 6.", BASE)


def test_a_rephrasing_may_only_state_what_the_grounded_answer_states() -> None:
    g = chat_grounding("how much damage does the exploder do?", knowledge_index(), BASE)
    true_but_unstated = read_claims("The Exploder hits for 28 and has 28 HP.", BASE)
    assert [c for c, _why in unsupported(true_but_unstated, g.claims)] == [Claim("enemy:exploder", "hp", 28)]
    verdict = check("The Exploder hits for 28 and has 28 HP.", g, Limits(260, 2))
    assert not verdict.ok and "claims" in verdict.reasons and "unstated" in verdict.detail
    assert check("Careful: the Exploder hits for 28!", g, Limits(260, 2)).ok


def test_the_reply_that_spoke_as_the_player_is_caught() -> None:
    g = merchant_grounding("what's the cheapest thing you sell?", shelf(0))
    verdict = check(
        "The cheapest thing you sell is the Medkit for 6 coins: it heals 40 HP.", g, Limits(260, 2)
    )
    assert not verdict.ok and "voice" in verdict.reasons


def test_an_invented_flag_for_the_director_mode_is_caught_and_f6_passes() -> None:
    g = chat_grounding("how do I change the director's mode?", knowledge_index(), BASE)
    assert "F6" in g.template
    made_up = check("Start the game with -Dgd_mode=1 and the director switches to rules.", g, Limits(260, 2))
    assert not made_up.ok and "claims" in made_up.reasons and "-Dgd_mode=1" in made_up.detail
    assert check("Press F6 to switch the director between static and rules.", g, Limits(260, 2)).ok


def test_every_knowledge_entry_is_true() -> None:
    for entry in load_knowledge():
        assert not false_claims(entry.text, BASE), (entry.id, false_claims(entry.text, BASE))


def _questions() -> list[tuple[str, str]]:
    enemies = [t.name for t in BASE.of_kind("enemy")]
    items = [t.name for t in BASE.of_kind("item")]
    weapons = [t.name for t in BASE.of_kind("weapon")]
    out: list[tuple[str, str]] = []
    for e in enemies:
        out += [
            ("Chat", f"how do I fight the {e}?"),
            ("Chat", f"how much HP does the {e} have?"),
            ("Chat", f"what wave does the {e} appear in?"),
            ("Chat", f"how hard does the {e} hit?"),
            ("Chat", f"what does the {e} do?"),
        ]
    for a, b in itertools.combinations(enemies[:6], 2):
        out += [
            ("Chat", f"which is tougher, the {a} or the {b}?"),
            ("Chat", f"is the {a} faster than the {b}?"),
        ]
    for a, b in itertools.combinations(items, 2):
        out.append(("Merchant", f"which is cheaper, the {a} or the {b}?"))
    for i in items:
        out += [("Merchant", f"how many {i} do you have left?"), ("Merchant", f"how much is the {i}?")]
        out += [("Merchant", f"buy the {i}")]  # asked, not ordered, through merchant_grounding: the item
    for w in weapons:
        out.append(("Chat", f"what does the {w} evolve into?"))
    words = {attr: said[0] for attr, _s, said in ORDER}
    for kind in ("enemy", "weapon", "item"):
        out += [("Chat", f"which {kind} is the {w}?") for w in words.values()]
    out += [
        ("Chat", "how many weapons are there?"), ("Chat", "how many mods are there?"),
        ("Chat", "how many enemies are there?"), ("Chat", "how many weapons can I hold?"),
        ("Chat", "how do weapons evolve?"), ("Chat", "how do coins work?"), ("Chat", "how long are waves?"),
        ("Chat", "when does the boss come?"), ("Chat", "how do I switch the director mode?"),
        ("Chat", "how do I heal?"), ("Chat", "is there a flamethrower?"), ("Chat", "is there a dragon?"),
        ("Merchant", "do you sell shields?"), ("Merchant", "do you have a rocket launcher?"),
        ("Merchant", "do you sell pizza?"), ("Merchant", "how much stock do you have?"),
        ("Merchant", "I'm about to die, what do I buy?"), ("Merchant", "what can I afford?"),
    ]  # fmt: skip
    return out


@pytest.mark.parametrize("coins", [0, 7, 30])
def test_every_grounded_answer_is_true_and_passes_its_own_guard(coins: int) -> None:
    view = shelf(coins)
    base = FactBase.load(view)
    for role, question in _questions():
        if role == "Merchant":
            g = merchant_grounding(question, view)
        else:
            g = chat_grounding(question, knowledge_index(), base)
        assert not false_claims(g.template, base), (question, g.template, false_claims(g.template, base))
        verdict = check(g.template, g, Limits(600, 9))
        assert verdict.ok, (question, g.template, verdict)


def test_each_kind_of_question_gets_its_own_answer() -> None:
    def chat(q: str) -> str:
        return chat_grounding(q, knowledge_index(), BASE).template

    assert chat("which enemy has the most HP?").startswith("The Elite Boss has the most HP: 2600 HP")
    assert "Runner is the fastest" in chat("what's the fastest enemy?")
    assert chat("how many mods are there?").startswith("There are 4 mods")
    assert "up to 4 weapons" in chat("how many weapons can I carry?")
    assert "go around it" in chat("how do I beat a shielder?").lower()
    assert "winds up" in chat("any tips against chargers?")
    assert "F6" in chat("how do I turn the director off?")
    assert "max level" in chat("how do weapons evolve?")
    flame = chat("is there a flamethrower?")
    assert flame.startswith("There is no flamethrower") and "Dragon's Breath" in flame
    merchant = merchant_grounding("do you sell shields?", shelf(20)).template
    assert merchant.startswith("No, I don't sell shields") and "Vitality Tonic" in merchant
    assert "Medkit" in merchant_grounding("I'm about to die, what do I buy?", shelf(10)).template
    assert "3 left" in merchant_grounding("how many medkits have you got?", shelf(10)).template


def test_a_number_said_of_nothing_or_with_no_attribute_is_not_taken_on_trust() -> None:
    """The bundled model answered "The answer is 6." to "how many guns can I have at the same time?" (the
    weapons are 6, the slots 4) and "The Exploder is a wave of 4." to when it appears."""
    g = chat_grounding("what wave do exploders start appearing?", knowledge_index(), BASE)
    verdict = check("The Exploder is a wave of 4.", g, Limits(260, 2))
    assert not verdict.ok and "claims" in verdict.reasons
    assert check("The Exploder comes from wave 4.", g, Limits(260, 2)).ok
    count = chat_grounding("how many weapons are there?", knowledge_index(), BASE)
    assert not check("The answer is 6.", count, Limits(260, 2)).ok


def test_an_evolution_said_backwards_and_a_list_cut_short_are_caught() -> None:
    """Two rewrites the bundled model made that the guard let through before it read relations and lists:
    "Dragon's Breath ... evolves into Spread Shot" and "The enemies are: Grunt, Runner, Tank, Spitter, Elite
    Boss." (five of ten)."""
    backwards = "Dragon's Breath evolves into Spread Shot at max level with one Hollow Points upgrade."
    assert any("Dragon's Breath has no evolves into" in why for _c, why in false_claims(backwards, BASE))
    assert not false_claims("The Spread Shot evolves into Dragon's Breath with one Hollow Points.", BASE)
    g = chat_grounding("what enemies are there?", knowledge_index(), BASE)
    cut = check("The enemies are: Grunt, Runner, Tank, Spitter, Elite Boss.", g, Limits(260, 2))
    assert not cut.ok and "facts" in cut.reasons and "Shielder" in cut.detail
    assert check(g.template, g, Limits(260, 2)).ok


def test_a_sentence_that_says_what_a_thing_is_must_be_true_of_it() -> None:
    """The bundled model's "The Exploder is a wave of 4." passed on its words and its number: the reader
    now reads what a sentence says a thing is, and an enemy is not a wave, nor the Medkit a weapon."""
    garbled = ["The Exploder is a wave of 4.", "Mind the Exploder. It's wave 4.", "The Medkit is a weapon.",
               "The Tank is the boss."]  # fmt: skip
    for text in garbled:
        assert any(c.attribute == "is_a" for c, _why in false_claims(text, BASE)), text
    g = chat_grounding("what wave do exploders start appearing?", knowledge_index(), BASE)
    verdict = check("The Exploder is wave 4.", g, Limits(260, 2))
    assert not verdict.ok and "an enemy, not a wave" in verdict.detail
    fine = ["The Exploder is a fast enemy.", "The Elite Boss is the boss.", "The Medkit's price is 6 coins.",
            "The Exploder is worth 2 coins.", "The Tank is slow; next is the Elite Boss."]  # fmt: skip
    for text in fine:
        assert not false_claims(text, BASE), (text, false_claims(text, BASE))


@pytest.mark.parametrize(
    ("role", "question", "closest", "not_closest"),
    [
        ("Merchant", "any potions of invisibility?", "Light Boots", "Medkit"),
        ("Merchant", "I need an invisibility potion", "Light Boots", "Medkit"),
        ("Merchant", "do you sell potions?", "Medkit", "Light Boots"),
        ("Merchant", "got a potion of flying?", "Nothing I sell is like it", "The closest"),
        ("Chat", "is there a potion of invisibility?", "Shift", "Medkit"),
    ],
)
def test_the_closest_to_a_missing_thing_is_by_what_it_is_for(
    role: str, question: str, closest: str, not_closest: str
) -> None:
    """A potion of invisibility is for getting away from hits (the dash; on the shelf, the Light Boots), not
    for healing: its form ("potion") counts only when no other word says what it is for."""
    if role == "Merchant":
        g = merchant_grounding(question, shelf(10))
    else:
        g = chat_grounding(question, knowledge_index(), BASE)
    assert g.template.startswith(("No, I don't sell", "There is no")), g.template
    assert closest in g.template and not_closest not in g.template, g.template
    assert check(g.template, g, Limits(600, 9)).ok


@pytest.mark.parametrize(
    ("role", "question", "says"),
    [
        ("Merchant", "boots or magnet, which one costs more?", "The Light Boots cost more"),
        ("Merchant", "what's your stock on magnets?", "Magnet: 2 left"),
        ("Merchant", "what should I get with 20 coins?", "With 20 coins you can buy"),
        ("Merchant", "can I sell you my stuff?", "I don't buy"),
        ("Merchant", "do you give discounts?", "I don't know about that"),
        ("Merchant", "got any armor for me?", "No, I don't sell armor. The closest"),
        ("Chat", "which enemy shows up first?", "The Grunt comes earliest"),
        ("Chat", "can I play co-op with a friend?", "I don't know that"),
        ("Chat", "what's the best weapon?", "No one weapon is best at everything; by damage"),
        ("Chat", "are there any dragons to fight?", "There are no dragons in the game."),
        ("Chat", "how strong are the homing missiles?", "The Homing Missiles hit for 22"),
        # from the v36e blind run
        ("Merchant", "is the vitality tonic sold out?", "Vitality Tonic: 1 left"),
        ("Merchant", "can I buy a second life?", "No, I don't sell a second life. The closest"),
        ("Merchant", "I want a bigger health bar", "For more max HP I have the Vitality Tonic"),
        ("Merchant", "do you sell a speed boost?", "The closest, to move faster, is the Light Boots"),
        ("Chat", "how does the shop work?", "Merchant's shop"),
        ("Chat", "how many upgrades exist?", "Regeneration, Hollow Points, Light Boots, Magnet."),
    ],
)
def test_questions_from_the_blind_runs_get_what_a_player_expects(role: str, question: str, says: str) -> None:
    """What the v36d blind run showed (each a mechanism: a name's last word, stock words, the asker selling, a
    question the data cannot answer said so, plural agreement), now tuned on."""
    if role == "Merchant":
        g = merchant_grounding(question, shelf(20))
    else:
        g = chat_grounding(question, knowledge_index(), BASE)
    assert says in g.template, g.template
    assert not false_claims(g.template, g.base or BASE) and check(g.template, g, Limits(600, 9)).ok


def test_a_fight_answer_says_an_enemy_bounces_back_only_when_its_prefab_has_a_recoil() -> None:
    def chat(q: str) -> str:
        return chat_grounding(q, knowledge_index(), BASE).template

    assert "bounces back" in chat("how do I beat the boss?")
    assert "bounces back" not in chat("any tips against chargers?")
