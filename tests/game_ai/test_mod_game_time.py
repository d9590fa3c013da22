"""Game-driven mod work is limited in game time (issue 12 item 8), and max-HP changes never heal (item 9).

The shipped kill_streak mod, on the real world + command queue + mod host the game uses, through 1,500 s of
game time of hard fighting (4 kills a second, every bounty tank killed as soon as it spawns) simulated as
fast as the CPU goes: it must never be rate-limited, faulted or quarantined. Without the game clock the same
drive gets it quarantined, which is what a 14x headless run did.
"""

from __future__ import annotations

from pathlib import Path

from coreai.lua.manager import ModManager
from coreai.lua.results import ModState
from coreai.mainloop import MainLoopQueue
from coreai.world import CoreAiBindings
from game.ai.modhost import GameModHost
from game.bindings import GameWorldExecutor, WorldHandle
from game.sim.config import PLAYER_BASE
from game.sim.spawner import NullSpawner
from game.sim.world import World


class _Game:
    def __init__(self, *, game_clock: bool) -> None:
        self.time = 0.0
        self.world = World(seed=1, spawner=NullSpawner())
        handle = WorldHandle()
        handle.world = self.world
        bindings = CoreAiBindings()
        executor = GameWorldExecutor(handle)
        bindings.register_world(executor)
        bindings.register_state(executor)
        self.queue = MainLoopQueue(bindings)
        self.mods = ModManager(GameModHost(handle, self.queue))
        if game_clock:
            self.queue.set_game_clock(lambda: self.time)
            self.mods.set_game_clock(lambda: self.time)
        self.mods.load_all()
        self.mods.disable("meteor_shower")

    def fight(self, seconds: float, kills_per_s: float = 4.0) -> int:
        """Advance game time, report kills and kill every bounty tank at once; returns tanks spawned."""
        tanks, next_id, per_kill = 0, 10_000_000, 1.0 / kills_per_s
        while self.time < seconds:
            self.time += per_kill
            next_id += 1
            self.mods.dispatch("on_enemy_killed", {"id": next_id, "prefab": "grunt", "x": 0, "y": 0})
            for e in self.world.list_enemies(50):
                if e["prefab"] == "tank":
                    tanks += 1
                    self.world.destroy_enemy(e["id"])
                    self.mods.dispatch("on_enemy_killed", {"id": e["id"], "prefab": "tank", "x": 0, "y": 0})
            self.mods.tick(per_kill)
            if self.mods.get_status("kill_streak").state == ModState.QUARANTINED:
                break
        return tanks


def test_kill_streak_through_1500_game_seconds_at_full_speed_is_never_quarantined(saves_dir: Path) -> None:
    game = _Game(game_clock=True)
    try:
        tanks = game.fight(1500.0)
        status = game.mods.get_status("kill_streak")
        assert status.state == ModState.LOADED and status.faults == 0, status.last_error
        assert tanks >= 500, f"only {tanks} bounty tanks spawned: spawns were refused"
    finally:
        game.mods.close()


def test_without_the_game_clock_the_same_play_is_throttled(saves_dir: Path) -> None:
    game = _Game(game_clock=False)  # the wall-clock limiter of agents: what the issue reproduced
    try:
        game.fight(1500.0)
        status = game.mods.get_status("kill_streak")
        assert status.faults > 0 and "rate" in (status.last_error or "").lower(), status
    finally:
        game.mods.close()


def test_toggling_glass_cannon_never_heals(saves_dir: Path) -> None:
    game = _Game(game_clock=True)
    try:
        world = game.world
        game.mods.enable("glass_cannon")
        assert world.player.stats.max_hp == PLAYER_BASE.max_hp * 0.5
        world.player.hp = 21.0
        for _ in range(5):
            game.mods.disable("glass_cannon")
            assert world.player.stats.max_hp == PLAYER_BASE.max_hp
            assert world.player.hp == 21.0, "raising max HP must not add current HP"
            game.mods.enable("glass_cannon")
            assert world.player.hp == 21.0
        world.player.hp = 50.0
        game.mods.disable("glass_cannon")
        world.set_param("player_max_hp_mult", 0.25)  # a lower max clamps current HP
        assert world.player.hp == PLAYER_BASE.max_hp * 0.25
        world.set_param("player_max_hp_mult", 3.0)
        assert world.player.hp == PLAYER_BASE.max_hp * 0.25 and world.player.stats.max_hp == 300
    finally:
        game.mods.close()
