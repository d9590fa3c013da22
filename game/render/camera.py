"""The world camera: follows the player smoothly with a little look-ahead toward the aim, shakes on impact,
and stops at the arena's edge (a strip of the border stays visible so the player knows where the wall is)."""

from __future__ import annotations

import math

import arcade

from game.sim.config import VIEW_EDGE_MARGIN


class CameraRig:
    EDGE_MARGIN = VIEW_EDGE_MARGIN
    LOOK_AHEAD = 70.0
    STIFFNESS = 7.0  # higher follows tighter

    def __init__(self, arena_w: float, arena_h: float) -> None:
        self.arena_w, self.arena_h = arena_w, arena_h
        self.camera = arcade.Camera2D()
        self.x, self.y = arena_w / 2, arena_h / 2

    def resize(self, width: float | None = None, height: float | None = None) -> None:
        """Call from ``on_resize`` (F11) or when a panel docks: the viewport and projection follow the window,
        or with ``width``/``height`` the play area at the window's bottom left."""
        if width is None or height is None:
            self.camera.match_window()
        else:
            self.camera.update_values(arcade.LBWH(0, 0, width, height))
        self._clamp()
        self.camera.position = (self.x, self.y)

    @property
    def half_size(self) -> tuple[float, float]:
        z = self.camera.zoom or 1.0
        return self.camera.viewport_width / 2 / z, self.camera.viewport_height / 2 / z

    def _clamp(self) -> None:
        hw, hh = self.half_size
        m = self.EDGE_MARGIN
        for axis, size, half in (("x", self.arena_w, hw), ("y", self.arena_h, hh)):
            lo, hi = half - m, size - half + m
            v = getattr(self, axis)
            setattr(self, axis, size / 2 if lo > hi else min(hi, max(lo, v)))

    def snap(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        self._clamp()
        self.camera.position = (self.x, self.y)

    def follow(
        self, x: float, y: float, aim_angle: float, dt: float, shake: tuple[float, float] = (0, 0)
    ) -> None:
        tx = x + math.cos(aim_angle) * self.LOOK_AHEAD
        ty = y + math.sin(aim_angle) * self.LOOK_AHEAD
        k = 1.0 - math.exp(-self.STIFFNESS * max(0.0, dt))
        self.x += (tx - self.x) * k
        self.y += (ty - self.y) * k
        self._clamp()
        self.camera.position = (self.x + shake[0], self.y + shake[1])

    def view_rect(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the visible world."""
        hw, hh = self.half_size
        cx, cy = self.camera.position
        return cx - hw, cy - hh, cx + hw, cy + hh

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """A window pixel (mouse) → world coordinates."""
        p = self.camera.unproject((sx, sy))
        return float(p[0]), float(p[1])

    def use(self) -> None:
        self.camera.use()
