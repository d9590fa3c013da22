"""The game's facts a recipe or a Creator command is checked against, from the game's own data."""

from __future__ import annotations

from functools import lru_cache

from coreai.lua.recipes.model import Facts, ParamFact
from coreai.settings import MainLoopSettings
from game.sim.config import ARENA_H, ARENA_W
from game.sim.events import SPAWN_CAUSES
from game.sim.params import PARAM_SPECS
from game.sim.prefabs import PrefabRegistry


@lru_cache(maxsize=1)
def game_facts() -> Facts:
    reg = PrefabRegistry.load()
    return Facts(
        prefabs=tuple(reg.names),
        params=tuple(ParamFact(p.name, p.minimum, p.maximum, p.default, p.description) for p in PARAM_SPECS),
        causes=tuple(SPAWN_CAUSES),
        bosses=tuple(n for n in reg.names if reg.get(n).is_boss),
        arena=(float(ARENA_W), float(ARENA_H)),
        spawn_per_call=MainLoopSettings().max_spawn_per_command,
    )
