"""Run the real game with no window, as fast as the CPU allows, with a bot at the controls."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from pydantic import Field

from coreai.persist import SaveModel
from game.sim.config import TICK_HZ
from game.sim.player import IDLE
from game.sim.world import World
from game.zoo import make_player


class RunSummary(SaveModel):
    """What ``--json`` prints and what the run history stores (a key it does not know makes a saved one
    invalid: ``SaveModel``)."""

    seed: int
    seconds: float
    waves_reached: int
    kills: int
    bosses_killed: int = 0
    deaths: int
    damage_taken: float
    final_score: int
    ticks: int
    ticks_per_second: float
    level: int = 1
    bot: str | None = None
    upgrades: dict[str, int] = Field(default_factory=dict)
    # held at the end, in slot order (evolved ones under their evolved key)
    weapons: list[str] = Field(default_factory=list)
    weapon_levels: dict[str, int] = Field(default_factory=dict)
    evolutions: list[str] = Field(default_factory=list)
    died: bool = False
    won: bool = False  # survived the final wave
    ended_at: float | None = None  # game time the run ended (lost or won); None: stopped at the time limit


def summarize(world: World, wall_s: float, bot: str | None) -> RunSummary:
    return RunSummary(
        seed=world.seed,
        seconds=round(world.time, 3),
        waves_reached=world.wave,
        kills=world.stats.kills,
        bosses_killed=world.stats.bosses_killed,
        deaths=world.stats.deaths,
        damage_taken=round(world.stats.damage_taken, 2),
        final_score=world.stats.score,
        ticks=world.tick,
        ticks_per_second=round(world.tick / wall_s, 1) if wall_s > 0 else 0.0,
        level=world.player.level,
        bot=bot,
        upgrades=dict(world.stacks),
        weapons=world.arsenal.keys,
        weapon_levels={h.key: h.level for h in world.arsenal.held},
        evolutions=list(world.evolutions),
        died=world.phase == "dead",
        won=world.won,
        ended_at=round(world.time, 3) if world.over else None,
    )


def run_headless(
    seed: int = 0,
    seconds: float = 60.0,
    bot: str | None = "average",
    *,
    world: World | None = None,
    respawn: bool = False,
    on_tick: Callable[[World], None] | None = None,
) -> RunSummary:
    """Play ``seconds`` of game time (or until the run ends, lost or won; ``math.inf``: until it ends or is
    interrupted) and return the summary."""
    w = world if world is not None else World(seed=seed, respawn=respawn)
    player = make_player(bot, seed) if bot else None
    max_ticks = math.inf if math.isinf(seconds) else round(seconds * TICK_HZ)
    start = time.perf_counter()
    while w.tick < max_ticks and not w.over:
        if w.phase == "upgrade":
            w.choose_upgrade(player.choose_upgrade(w) if player else w.choices[0])
            continue
        w.step(player.act(w) if player else IDLE)
        if on_tick is not None:
            on_tick(w)
    return summarize(w, time.perf_counter() - start, bot)
