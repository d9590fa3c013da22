"""The world as drawn through the camera: floor, pickups, enemies, the player, bullets and effects, in a
fixed back-to-front order. ``sync`` reads the world (main thread, once per frame); ``draw`` only draws."""

from __future__ import annotations

import math

import arcade
from arcade.types import Color

from game.render import textures
from game.render.effects import Effects
from game.render.enemies import EnemyLayer
from game.render.floor import Floor
from game.render.pool import SpritePool
from game.render.projectiles import EnemyBullets, PickupsLayer
from game.render.quality import HIGH, Quality
from game.render.weapons import Beams, Blades, PlayerShots
from game.sim.config import ARENA_H, ARENA_W
from game.sim.prefabs import PrefabRegistry
from game.sim.weapon_data import catalogue
from game.sim.world import World

View = tuple[float, float, float, float]


class PlayerLayer:
    SHIP_SCALE = 0.5

    def __init__(self) -> None:
        self.ship = arcade.Sprite(textures.load(textures.PLAYER_SPRITE), scale=self.SHIP_SCALE)
        self.glow = arcade.Sprite(textures.glow(), scale=1.5)
        self.glow.color = Color(255, 150, 60, 110)
        self.ring = arcade.Sprite(textures.ring(128, 3))
        self.ring.color = Color(80, 220, 255, 40)
        self.ships: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList(capacity=2)
        self.ships.append(self.ship)
        self.glows: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList(capacity=4)
        self.glows.extend([self.ring, self.glow])
        self.visible = True

    def sync(self, world: World, t: float) -> None:
        p = world.player
        self.visible = p.alive
        self.ship.position = (p.x, p.y)
        self.glow.position = (p.x, p.y)
        self.ring.position = (p.x, p.y)
        self.ring.scale = p.stats.pickup_radius * 2 / 128.0
        # the ship's nose points up in the texture; arcade angles are clockwise degrees
        self.ship.angle = 90.0 - math.degrees(p.aim_angle)
        blink = p.invulnerable and p.dash_timer <= 0.0 and int(t * 18) % 2 == 0
        self.ship.alpha = 90 if blink else 255
        self.glow.color = Color(120, 255, 210, 160) if p.dash_timer > 0.0 else Color(255, 150, 60, 110)

    def draw(self, glow: bool = True) -> None:
        if not self.visible:
            return
        self.glow.visible = glow  # the pickup ring stays: it shows the pickup radius
        self.glows.draw(blend_function=self.glows.ctx.BLEND_PREMULTIPLIED_ALPHA)  # alpha-weighted additive
        self.ships.draw()


class Scene:
    def __init__(self, prefabs: PrefabRegistry, seed: int = 0) -> None:
        self.floor = Floor(ARENA_W, ARENA_H)
        self.enemies = EnemyLayer(prefabs)
        self.pickups = PickupsLayer()
        self.bullets = PlayerShots(catalogue())
        self.blades = Blades(catalogue())
        self.beams = Beams()
        self.enemy_bullets = EnemyBullets()
        self.player = PlayerLayer()
        self.effects = Effects(seed)
        self._cursor = SpritePool(textures.ring(64, 4), capacity=1, color=Color(255, 255, 255, 150))
        self.quality: Quality = HIGH  # which costly effects are drawn (game.render.quality)

    def reset(self) -> None:
        self.effects.reset()

    def sync(self, world: World, view: View, t: float, aim: tuple[float, float] | None = None) -> None:
        q = self.quality
        self.enemies.sync(world, view, t, glow=q.glow)
        self.pickups.sync(world.pickups, view, t)
        self.bullets.sync(world.bullets, view, glow=q.glow)
        self.blades.sync(world, t, glow=q.glow)
        self.beams.sync(world, glow=q.glow)
        self.enemy_bullets.sync(world.enemy_bullets, view, t)
        self.player.sync(world, t)
        if q.particles:
            self.effects.sync(view)
        else:
            self.effects.particles.pool.hide_all()
        cursor = self._cursor.show(1 if aim is not None and world.player.alive else 0)
        if cursor and aim is not None:
            cursor[0].position = aim
            cursor[0].scale = 0.42

    def draw(self) -> None:
        self.floor.draw(detailed=self.quality.glow)
        self.pickups.draw()
        self.enemies.draw_shadows()  # empty when glow is off
        self.enemies.draw()
        self.player.draw(self.quality.glow)
        self.blades.draw()
        self.bullets.draw()
        self.beams.draw()
        self.effects.particles.draw()  # empty when particles are off
        self.enemy_bullets.draw()
        self.effects.popups.draw()
        self._cursor.draw()

    @property
    def stats(self) -> dict[str, int]:
        """Sprites drawn last frame, per layer (for the HUD's debug line and the render benchmark)."""
        return {
            "enemies": self.enemies.sprites.shown,
            "bullets": self.bullets.shown,
            "enemy_bullets": self.enemy_bullets.core.shown,
            "pickups": self.pickups.gems.shown + self.pickups.hearts.shown,
            "particles": self.effects.particles.pool.shown,
        }
