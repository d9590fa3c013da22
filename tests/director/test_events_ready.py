"""The situation offers only events that may fire now: the rules never propose one on cooldown (F10 used to
show "event 'supply' dropped ... on cooldown" on every ease while the bar stayed low)."""

from __future__ import annotations

from director_support import quiet_world, tick

from game.director.director import Director
from game.director.events import EventRegistry
from game.director.pacing import PacingState
from game.director.rules import EASE_FIRST
from game.director.tuning import TUNING
from game.sim.config import TICK_HZ

HURT = min(TUNING.plan.low_hp, TUNING.danger.prey_hp) / 2  # eased (softer hits first), with supply


def test_ready_lists_only_events_off_cooldown() -> None:
    reg = EventRegistry()
    world = quiet_world()
    assert "supply" in reg.ready(world)
    reg.fire("supply", world, placer=None)  # type: ignore[arg-type]  # drop_supply does not use the placer
    assert "supply" not in reg.ready(world) and "swarm" in reg.ready(world)
    assert reg.names() == ("boss", "supply", "swarm", "surround"), (
        "the registry (and the plan grammar) still names all"
    )


def test_the_rules_do_not_propose_supply_while_it_is_on_cooldown() -> None:
    d = Director("rules")
    w = quiet_world()
    tick(d, w, 11 * TICK_HZ)
    w.player.hp = HURT * w.player.stats.max_hp
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.event == "supply", "the first ease drops health packs"
    tick(d, w, 5 * TICK_HZ)
    w.player.hp = HURT * w.player.stats.max_hp  # low again a few seconds later
    d.request_now()
    tick(d, w)
    assert d.last_plan is not None and d.last_plan.reason.endswith(EASE_FIRST), "still easing"
    assert d.last_plan.event is None, "supply is on cooldown: the rules must not offer it"
    assert not any("cooldown" in c for c in d.last_clamped), d.last_clamped
    assert "supply" not in d.situation(w).events


def test_a_new_run_restarts_event_cooldowns() -> None:
    d = Director("rules")
    w = quiet_world()
    w.time = 500.0
    d.events.fire("surround", w, placer=None)  # type: ignore[arg-type]  # the ring does not use the placer
    assert "surround" not in d.events.ready(w)
    d.reset(seed=1)
    fresh = quiet_world(seed=1)  # game time starts at 0 again
    assert "surround" in d.events.ready(fresh), "a cooldown from the last run must not block this one"


class _Tracking:
    """A mod's event handler with per-run state: it hears of new runs and Sustain Peaks."""

    def __init__(self) -> None:
        self.peaks: list[float] = []
        self.runs = 0

    def __call__(self, world: object, placer: object) -> None:
        pass

    def new_run(self) -> None:
        self.runs += 1

    def note_peak(self, time: float) -> None:
        self.peaks.append(time)


def test_the_director_tells_handlers_of_peaks_and_new_runs() -> None:
    d = Director("rules")
    handler = _Tracking()
    d.events.register("tracking", handler)
    w = quiet_world()
    tick(d, w, TICK_HZ)
    assert handler.peaks == []
    d.intensity.value = 1.0  # the next tick peaks
    tick(d, w)
    assert d.pacing.state is PacingState.SUSTAIN_PEAK
    assert handler.peaks == [w.time]
    d.reset(seed=2)
    assert handler.runs == 1
