"""Weapons in the headless simulation: the data file's schema, slots and levels, offers, evolutions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from coreai.errors import PersistenceError
from game.sim import events as ev
from game.sim.player import PlayerInput
from game.sim.spawner import NullSpawner
from game.sim.upgrades import WEAPON_PREFIX, describe_offer, open_offers, roll_choices
from game.sim.weapon_data import DEFAULT_WEAPON_FILE, MAX_SLOTS, WeaponCatalogue, catalogue
from game.sim.weapons import Arsenal, HeldWeapon, effective
from game.sim.world import World


def quiet_world(seed: int = 1) -> World:
    w = World(seed=seed, spawner=NullSpawner())
    w.wave_time_left = 1e6
    return w


def test_catalogue_has_distinct_patterns_and_evolutions() -> None:
    cat = catalogue()
    patterns = {cat.get(k).pattern for k in cat.base}
    assert len(cat.base) >= 5 and len(patterns) >= 5
    evolutions = {k: cat.get(k).evolves_into for k in cat.base if cat.get(k).evolves_into}
    assert len(evolutions) >= 3
    for target in evolutions.values():
        assert target is not None and cat.get(target).evolved


def test_a_bad_weapon_file_is_refused_with_its_path(tmp_path: Path) -> None:
    data = json.loads(DEFAULT_WEAPON_FILE.read_text())
    data["weapons"]["spread"]["speed"] = 0  # a spread needs a projectile speed
    bad = tmp_path / "weapons.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(PersistenceError, match="spread weapon needs speed"):
        WeaponCatalogue.load(bad)
    data = json.loads(DEFAULT_WEAPON_FILE.read_text())
    data["weapons"]["blaster"]["evolves_into"] = "spread"
    bad.write_text(json.dumps(data))
    with pytest.raises(PersistenceError, match="not an evolved weapon"):
        WeaponCatalogue.load(bad)


def test_slots_fill_up_to_four_and_levels_stop_at_max() -> None:
    a = Arsenal()
    for key in ("spread", "orbit", "lance"):
        a.take(key)
    assert len(a.held) == MAX_SLOTS
    assert not a.can_take("chain"), "no free slot"
    spec = a.cat.get("spread")
    for _ in range(spec.max_level - 1):
        a.take("spread")
    assert a.level("spread") == spec.max_level and not a.can_take("spread")
    with pytest.raises(ValueError):
        a.take("spread")


def test_levels_and_passives_change_a_weapons_numbers() -> None:
    from game.sim.upgrades import stats_for

    spec = catalogue().get("spread")
    base = effective(spec, 1, stats_for({}))
    up = effective(spec, 3, stats_for({"damage": 1, "multishot": 1, "fire_rate": 1}))
    assert up.damage > base.damage * 1.22 and up.count == base.count + 2 * spec.per_level.count + 1
    assert up.cooldown < base.cooldown


def test_offers_include_weapon_cards_only_for_available_weapons() -> None:
    a = Arsenal()
    keys, _ = open_offers({}, a, frozenset({"blaster", "spread"}))
    weapon_cards = {k for k in keys if k.startswith(WEAPON_PREFIX)}
    assert weapon_cards == {"weapon:blaster", "weapon:spread"}
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(60):
        seen.update(roll_choices(rng, {}, arsenal=a, available=catalogue().always_available()))
    assert {"weapon:spread", "weapon:orbit", "weapon:lance"} <= seen
    assert "weapon:chain" not in seen, "chain is locked until its achievement"


def test_picking_a_weapon_card_adds_then_levels_it() -> None:
    w = quiet_world()
    w.phase, w.pending_picks, w.choices = "upgrade", 2, ["weapon:lance", "damage", "max_hp"]
    w.choose_upgrade("weapon:lance")
    assert w.arsenal.keys == ["blaster", "lance"]
    w.choices = ["weapon:lance", "damage", "max_hp"]
    w.choose_upgrade("weapon:lance")
    assert w.arsenal.level("lance") == 2
    gained = [e for e in w.step(PlayerInput()) if isinstance(e, ev.WeaponGained)]
    assert [(g.weapon, g.level) for g in gained] == [("lance", 1), ("lance", 2)]


@pytest.mark.parametrize(
    ("weapon", "passive", "evolved"),
    [
        ("blaster", "fire_rate", "gatling"),
        ("orbit", "move_speed", "whirlwind"),
        ("lance", "pierce", "sunbeam"),
    ],
)
def test_a_maxed_weapon_evolves_when_its_passive_is_picked(weapon: str, passive: str, evolved: str) -> None:
    w = quiet_world()
    w.arsenal.held = [HeldWeapon(weapon, catalogue().get(weapon).max_level)]
    w.phase, w.pending_picks, w.choices = "upgrade", 1, [passive, "max_hp", "regen"]
    w.choose_upgrade(passive)
    assert w.arsenal.keys == [evolved] and w.evolutions == [evolved]
    assert any(isinstance(e, ev.WeaponEvolved) and e.evolved == evolved for e in w.step(PlayerInput()))
    offer = describe_offer(f"{WEAPON_PREFIX}{weapon}", w.stacks, w.arsenal)
    assert offer.tag == "NEW WEAPON"
    keys, _ = open_offers(w.stacks, w.arsenal, catalogue().always_available())
    assert f"{WEAPON_PREFIX}{weapon}" not in keys, "the evolved weapon's base is not offered again"


def test_the_passive_card_says_it_evolves() -> None:
    a = Arsenal()
    a.held[0].level = catalogue().get("blaster").max_level
    assert describe_offer("fire_rate", {}, a).tag == "EVOLVES Blaster -> Gatling Storm"
    a.held[0].level = 2
    assert describe_offer("fire_rate", {}, a).tag == "Blaster evolves with it"
    assert describe_offer("weapon:blaster", {}, a).tag == "LV 2 -> 3"


def test_every_pattern_deals_damage_headless() -> None:
    for key in catalogue().keys:
        w = quiet_world()
        w.arsenal.held = [HeldWeapon(key)]
        p = w.player
        for dx, dy in ((70, 60), (160, 0), (300, 40), (95, 0), (0, 95), (-95, 0)):
            w.spawn_enemy("tank", p.x + dx, p.y + dy)
        w.enemies.view("hp")[:] = 1e6
        for _ in range(90):
            w.step(PlayerInput(aim_x=p.x + 100, aim_y=p.y, shoot=True))
        assert (w.enemies.view("hp") < 1e6).any(), key


def test_summary_lists_the_weapons_held() -> None:
    from game.headless import summarize

    w = quiet_world()
    w.arsenal.take("orbit")
    s = summarize(w, 1.0, None)
    assert s.weapons == ["blaster", "orbit"] and s.weapon_levels == {"blaster": 1, "orbit": 1}
    assert w.game_state()["weapons"] == {"blaster": 1, "orbit": 1}
