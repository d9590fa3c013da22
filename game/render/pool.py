"""A sprite list whose sprites are reused by slot: slot ``j`` draws the ``j``-th visible entity this frame.

Nothing is created or freed per frame: the pool only grows (on the main thread) when a frame needs more
sprites than ever before, and slots past the current count are hidden. One ``draw()`` is one batched call.
"""

from __future__ import annotations

import arcade
from arcade import BasicSprite, Sprite, Texture
from arcade.gl.types import BlendFunction
from arcade.types import Color


class SpritePool:
    def __init__(
        self,
        texture: Texture,
        *,
        capacity: int = 256,
        rotating: bool = False,
        additive: bool = False,
        color: Color | None = None,
        scale: tuple[float, float] | None = None,
    ) -> None:
        self.texture = texture
        self.color = color
        self.scale = scale
        self.rotating = rotating
        self.additive = additive
        self.list: arcade.SpriteList[BasicSprite] = arcade.SpriteList(capacity=capacity)
        self.sprites: list[BasicSprite] = []
        self.shown = 0

    def _grow(self, n: int) -> None:
        make = Sprite if self.rotating else BasicSprite
        new = [make(self.texture) for _ in range(n - len(self.sprites))]
        for s in new:
            if self.color is not None:
                s.color = self.color
            if self.scale is not None:
                s.scale = self.scale
            s.visible = False
        self.sprites.extend(new)
        self.list.extend(new)

    def show(self, n: int) -> list[BasicSprite]:
        """Make exactly the first ``n`` slots visible and return them (to be positioned by the caller)."""
        if n > len(self.sprites):
            self._grow(max(n, int(len(self.sprites) * 1.5)))
        sprites = self.sprites
        for i in range(n, self.shown):
            sprites[i].visible = False
        for i in range(self.shown, n):
            sprites[i].visible = True
        self.shown = n
        return sprites[:n]

    def hide_all(self) -> None:
        self.show(0)

    def draw(self) -> None:
        if self.shown == 0:
            return
        # additive light weighted by the texture's alpha: (SRC_ALPHA, ONE); arcade calls this blend
        # "premultiplied alpha", while its BLEND_ADDITIVE (ONE, ONE) would ignore the soft edges
        blend: BlendFunction | None = self.list.ctx.BLEND_PREMULTIPLIED_ALPHA if self.additive else None
        self.list.draw(blend_function=blend)
