"""Translate the simulation's per-tick events into Mod API v1 hook calls (plain data only)."""

from __future__ import annotations

from collections.abc import Iterable

from coreai.lua import ModManager
from game.sim import events as ev


def dispatch_events(mods: ModManager, events: Iterable[ev.Event]) -> None:
    for e in events:
        if isinstance(e, ev.EnemyKilled):
            mods.dispatch(
                "on_enemy_killed",
                {"id": e.id, "prefab": e.prefab, "x": e.x, "y": e.y, "elite": e.elite, "score": e.score},
            )
        elif isinstance(e, ev.EnemySpawned):
            mods.dispatch(
                "on_enemy_spawned",
                {"id": e.id, "prefab": e.prefab, "x": e.x, "y": e.y, "elite": e.elite, "source": e.source},
            )
        elif isinstance(e, ev.PlayerDamaged):
            mods.dispatch("on_player_damaged", e.amount)
        elif isinstance(e, ev.WaveStarted):
            mods.dispatch("on_wave_start", e.wave)
        elif isinstance(e, ev.WaveEnded):
            mods.dispatch("on_wave_end", e.wave)
