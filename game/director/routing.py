"""``DirectorSpawner``: the world's spawner while a director runs. It routes each call to the director's
active spawner (the static ``WaveSpawner`` or the ``CreditSpawner``, by mode) and asks for a decision at
each wave start. It is handed two callables, not the director: no import cycle."""

from __future__ import annotations

from collections.abc import Callable

from game.sim.spawner import Spawner
from game.sim.world import World


class DirectorSpawner:
    def __init__(self, active: Callable[[], Spawner], request_now: Callable[[bool], None]) -> None:
        self._active = active
        self._request_now = request_now

    def on_wave_start(self, world: World, wave: int) -> None:
        self._active().on_wave_start(world, wave)
        self._request_now(False)  # a soft cue: a slow model's reply in flight still lands

    def update(self, world: World, dt: float) -> None:
        self._active().update(world, dt)
