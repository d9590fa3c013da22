"""``DirectorSpawner``: the world's spawner while a director runs. It routes each call to the director's
active spawner (the static ``WaveSpawner`` or the ``CreditSpawner``, by mode) and asks for a decision at
each wave start."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.director.director import Director
    from game.sim.world import World


class DirectorSpawner:
    """The world's spawner: routes to the static ``WaveSpawner`` or the ``CreditSpawner`` by mode."""

    def __init__(self, director: Director) -> None:
        self._director = director

    def on_wave_start(self, world: World, wave: int) -> None:
        self._director.active_spawner().on_wave_start(world, wave)
        self._director.request_now(supersede=False)  # a slow model's reply in flight still lands

    def update(self, world: World, dt: float) -> None:
        self._director.active_spawner().update(world, dt)
