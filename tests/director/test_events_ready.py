"""The situation offers only events that may fire now: the rules never propose one on cooldown (F10 used to
show "event 'supply' dropped ... on cooldown" on every ease while the bar stayed low)."""

from __future__ import annotations

from director_support import quiet_world, tick

from game.director.director import Director
from game.director.events import EventRegistry
from game.sim.config import TICK_HZ


def test_ready_lists_only_events_off_cooldown() -> None:
    reg = EventRegistry()
    world = quiet_world()
    assert "supply" in reg.ready(world)
    reg.fire("supply", world, placer=None)  # type: ignore[arg-type]  # drop_supply does not use the placer
    assert "supply" not in reg.ready(world) and "swarm" in reg.ready(world)
    assert reg.names() == ("boss", "supply", "swarm", "surround", "climax"), (
        "the registry (and the plan grammar) still names all"
    )


def test_the_rules_do_not_propose_supply_while_it_is_on_cooldown() -> None:
    d = Director("rules")
    w = quiet_world()
    tick(d, w, 11 * TICK_HZ)  # past the warm-up
    w.player.hp = 0.2 * w.player.stats.max_hp
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.event == "supply", "the first ease drops health packs"
    tick(d, w, 5 * TICK_HZ)
    w.player.hp = 0.2 * w.player.stats.max_hp  # low again a few seconds later
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.pressure == "ease_off"
    assert d.last_plan.event is None, "supply is on cooldown: the rules must not offer it"
    assert not any("cooldown" in c for c in d.last_clamped), d.last_clamped
    assert "supply" not in d.situation(w).events
