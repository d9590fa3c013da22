"""Mods register passives through the real Lua sandbox (``game.register_upgrade``): the shipped berserker mod
adds Berserker Blood to the real game's upgrade picks; bad specs and stolen keys get clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.sim.config import PLAYER_BASE
from tests.game_ai.test_session import closing, make_session

__all__ = ["closing"]


def test_the_berserker_mod_adds_a_passive_the_picks_offer(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    assert "berserker_blood" in world.mod_upgrades, "registered when the mod loaded"
    up = world.mod_upgrades["berserker_blood"]
    assert up.source == "mod:berserker" and up.max_stacks == 3
    offered = set()
    for _ in range(40):
        offered.update(world._roll())
    assert "berserker_blood" in offered
    world.phase, world.pending_picks, world.choices = "upgrade", 1, ["berserker_blood", "max_hp", "regen"]
    world.choose_upgrade("berserker_blood")
    assert world.player.stats.damage == pytest.approx(PLAYER_BASE.damage * 1.15)
    assert world.player.stats.max_hp == pytest.approx(PLAYER_BASE.max_hp * 0.92)
    from game.sim.upgrades import describe_offer

    assert describe_offer("berserker_blood", world.stacks, world.arsenal, world.mod_upgrades).name == (
        "Berserker Blood"
    )
    # a new run offers it too
    later = session.world_factory(9)
    session.on_run_start(later)
    assert "berserker_blood" in later.mod_upgrades


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("{key='x', name='X', description='', effects={damage=50}}", "outside [0.5, 1.6]"),
        ("{key='damage', name='X', description='', effects={damage=1.1}}", "built-in upgrade"),
        ("{key='ok', name='X', description='', effects={god_mode=2}}", "effects.god_mode"),
        ("{key='Bad Key', name='X', description='', effects={damage=1.1}}", "key"),
        ("42", "bad argument 'spec'"),
    ],
)
def test_bad_upgrade_specs_are_refused_with_the_reason(
    saves_dir: Path, closing: list, spec: str, error: str
) -> None:
    session, world = make_session()
    closing.append(session)
    result = session.mods.execute(f"return game.register_upgrade({spec})")
    assert not result.ok and error in (result.error or ""), result.error
    assert set(world.mod_upgrades) == {"berserker_blood"}


def test_another_mod_cannot_take_a_registered_key(saves_dir: Path, closing: list) -> None:
    session, world = make_session()
    closing.append(session)
    code = "game.register_upgrade({key='berserker_blood', name='Mine', description='', effects={regen=2}})"
    result = session.mods.execute(code)
    assert not result.ok and "belongs to mod:berserker" in (result.error or "")
    ok = session.mods.execute(
        "return game.register_upgrade({key='iron_skin', name='Iron Skin', "
        "description='+10% max HP', effects={max_hp=1.1}})"
    )
    assert ok.ok, ok.error
    assert world.mod_upgrades["iron_skin"].source.startswith("console:")
