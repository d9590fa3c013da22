"""Textures: the prefab sprites from ``:resources:`` and a few generated ones (glows, heart, vignette).

Everything is created lazily on the main thread (the GL context's thread) and cached for the whole process,
so restarting a run never reloads or frees a texture.
"""

from __future__ import annotations

import math
from functools import cache

import arcade
import PIL.Image
import PIL.ImageDraw
from arcade import Texture
from arcade.texture import ImageData

PLAYER_SPRITE = ":resources:images/space_shooter/playerShip1_orange.png"
XP_GEM_SPRITE = ":resources:images/items/gemBlue.png"


def _texture(img: PIL.Image.Image, name: str) -> Texture:
    return Texture(ImageData(img, hash=name), hit_box_algorithm=arcade.hitbox.algo_bounding_box)


@cache
def load(resource: str) -> Texture:
    """A ``:resources:`` image cropped to its visible pixels, so the sprite's centre is the picture's
    centre (Kenney's slimes sit at the bottom of a square canvas). Scales keep their meaning: no resizing."""
    img = PIL.Image.open(arcade.resources.resolve(resource)).convert("RGBA")
    box = img.getchannel("A").getbbox()
    if box is not None:
        img = img.crop(box)
    return _texture(img, f"arena-cropped:{resource}")


@cache
def mirrored(resource: str) -> Texture:
    """The sprite facing the other way (Kenney enemies face left)."""
    return load(resource).flip_left_right()


@cache
def glow(diameter: int = 64) -> Texture:
    """A white soft circle, tinted per sprite: bullets, particles, elite auras."""
    return arcade.make_soft_circle_texture(
        diameter,
        (255, 255, 255, 255),
        center_alpha=255,
        outer_alpha=0,
        hit_box_algorithm=arcade.hitbox.algo_bounding_box,
    )


@cache
def dot(diameter: int = 32) -> Texture:
    """A white hard-edged circle with a soft rim, tinted per sprite: bullet cores, sparks."""
    size = diameter
    img = PIL.Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = PIL.ImageDraw.Draw(img)
    r = size / 2
    for i in range(int(r), 0, -1):
        a = 255 if i < r * 0.7 else int(255 * (r - i) / (r * 0.3))
        draw.ellipse((r - i, r - i, r + i - 1, r + i - 1), fill=(255, 255, 255, a))
    return _texture(img, f"arena-dot-{diameter}")


@cache
def heart(size: int = 48) -> Texture:
    """A white heart (tinted red for health pickups)."""
    img = PIL.Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = PIL.ImageDraw.Draw(img)
    pts = []
    for i in range(120):
        t = 2 * math.pi * i / 120
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((size / 2 + x * size / 36, size / 2 - y * size / 36 - size * 0.04))
    draw.polygon(pts, fill=(255, 255, 255, 255), outline=(255, 255, 255, 255))
    return _texture(img, f"arena-heart-{size}")


@cache
def ring(diameter: int = 128, width: int = 6) -> Texture:
    """A white ring: the player's pickup radius hint and boss telegraphs."""
    img = PIL.Image.new("RGBA", (diameter, diameter), (0, 0, 0, 0))
    draw = PIL.ImageDraw.Draw(img)
    draw.ellipse((1, 1, diameter - 2, diameter - 2), outline=(255, 255, 255, 255), width=width)
    return _texture(img, f"arena-ring-{diameter}-{width}")


@cache
def vignette(width: int = 320, height: int = 180) -> Texture:
    """White at the screen edges fading to transparent in the middle; tinted for damage and low-HP pulses."""
    img = PIL.Image.new("RGBA", (width, height), (255, 255, 255, 0))
    px = img.load()
    assert px is not None
    for y in range(height):
        ny = (y + 0.5) / height * 2 - 1
        for x in range(width):
            nx = (x + 0.5) / width * 2 - 1
            d = min(1.0, math.sqrt(nx * nx * 0.55 + ny * ny * 0.75))
            a = max(0.0, (d - 0.45) / 0.55) ** 1.6
            px[x, y] = (255, 255, 255, int(255 * a))
    return _texture(img, f"arena-vignette-{width}x{height}")
