"""Struct-of-arrays pools for enemies, bullets and pickups.

Each pool keeps its live entries dense in ``[:n]`` so the simulation works on whole numpy slices; removal
compacts with a boolean mask (order is preserved, which keeps runs deterministic). Capacity doubles on demand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

FIELDS_ENEMY: dict[str, Any] = {
    "id": np.int64,
    "kind": np.int16,
    "behaviour": np.int8,
    "x": np.float64,
    "y": np.float64,
    "hp": np.float64,
    "max_hp": np.float64,
    "speed": np.float64,
    "damage": np.float64,
    "radius": np.float64,
    "elite": np.bool_,
    "cooldown": np.float64,  # ranged / boss attack timer
    "pattern": np.int8,  # boss pattern index
    "charge": np.float64,  # boss charge time left
    "hit_flash": np.float64,
    "dir_x": np.float64,  # charger: dash direction
    "dir_y": np.float64,
}

FIELDS_BULLET: dict[str, Any] = {
    "x": np.float64,
    "y": np.float64,
    "vx": np.float64,
    "vy": np.float64,
    "damage": np.float64,
    "ttl": np.float64,
    "pierce": np.int16,
    "last_hit": np.int64,  # enemy id hit last (a piercing bullet never hits the same enemy twice in a row)
    "weapon": np.int8,  # index in the weapon catalogue (what the renderer draws)
    "turn": np.float64,  # homing turn rate, rad/s (0: flies straight)
    "target": np.int64,  # homing target's enemy id (-1: none yet)
}

FIELDS_PICKUP: dict[str, Any] = {
    "x": np.float64,
    "y": np.float64,
    "kind": np.int8,  # 0 = xp, 1 = health
    "value": np.float64,
    "ttl": np.float64,
}


class Pool:
    """A growable struct-of-arrays; attributes are the field arrays (full capacity), live part is ``[:n]``."""

    def __init__(self, fields: dict[str, Any], capacity: int = 256) -> None:
        self._fields = fields
        self.capacity = capacity
        self.n = 0
        self.arrays: dict[str, np.ndarray] = {k: np.zeros(capacity, dtype=t) for k, t in fields.items()}

    def __getattr__(self, name: str) -> np.ndarray:
        arrays = self.__dict__.get("arrays")
        if arrays is not None and name in arrays:
            return arrays[name]
        raise AttributeError(name)

    def view(self, name: str) -> np.ndarray:
        return self.arrays[name][: self.n]

    def _grow(self, need: int) -> None:
        cap = self.capacity
        while cap < need:
            cap *= 2
        for k, arr in self.arrays.items():
            bigger = np.zeros(cap, dtype=arr.dtype)
            bigger[: self.n] = arr[: self.n]
            self.arrays[k] = bigger
        self.capacity = cap

    def add(self, count: int, **values: Any) -> slice:
        """Append ``count`` entries; each keyword is a scalar or an array of length ``count``."""
        if count <= 0:
            return slice(self.n, self.n)
        if self.n + count > self.capacity:
            self._grow(self.n + count)
        sl = slice(self.n, self.n + count)
        for k, arr in self.arrays.items():
            arr[sl] = values.get(k, 0)
        self.n += count
        return sl

    def keep(self, mask: np.ndarray) -> None:
        """Keep the live entries where ``mask`` is true, preserving order."""
        k = int(mask.sum())
        if k == self.n:
            return
        for arr in self.arrays.values():
            arr[:k] = arr[: self.n][mask]
        self.n = k

    def clear(self) -> None:
        self.n = 0
