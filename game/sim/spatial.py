"""A vectorised uniform-grid spatial hash: overlapping pairs between a query set and a target set.

The targets are sorted by grid cell once; every query looks in its own and the 8 neighbouring cells with
``searchsorted`` and the candidate pairs are expanded with ``repeat`` arithmetic, so no Python loop runs per
entity. Cost is O((n + m) log n + candidates); with a cell at least as large as the largest radius sum the
3×3 neighbourhood finds every overlap.
"""

from __future__ import annotations

import numpy as np

_KEY_STRIDE = np.int64(1 << 21)
_OFFSETS = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.int64)


class Grid:
    """Targets bucketed by cell; built once per tick and queried as often as needed."""

    def __init__(self, x: np.ndarray, y: np.ndarray, cell: float) -> None:
        self.cell = float(cell)
        self.n = len(x)
        cx = np.floor(x / self.cell).astype(np.int64) + 1
        cy = np.floor(y / self.cell).astype(np.int64) + 1
        self.keys = cx * _KEY_STRIDE + cy
        self.order = np.argsort(self.keys, kind="stable")
        self.sorted_keys = self.keys[self.order]

    def candidates(self, qx: np.ndarray, qy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """All (query index, target index) pairs whose cells are neighbours."""
        m = len(qx)
        if m == 0 or self.n == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        qcx = np.floor(qx / self.cell).astype(np.int64) + 1
        qcy = np.floor(qy / self.cell).astype(np.int64) + 1
        qkeys = ((qcx[None, :] + _OFFSETS[:, 0:1]) * _KEY_STRIDE + (qcy[None, :] + _OFFSETS[:, 1:2])).ravel()
        start = np.searchsorted(self.sorted_keys, qkeys, side="left")
        end = np.searchsorted(self.sorted_keys, qkeys, side="right")
        counts = end - start
        total = int(counts.sum())
        if total == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        qidx = np.tile(np.arange(m, dtype=np.int64), len(_OFFSETS))
        qi = np.repeat(qidx, counts)
        first = np.repeat(start - (np.cumsum(counts) - counts), counts)
        ti = self.order[first + np.arange(total, dtype=np.int64)]
        return qi, ti


def overlap_pairs(
    qx: np.ndarray,
    qy: np.ndarray,
    qr: np.ndarray | float,
    grid: Grid,
    tx: np.ndarray,
    ty: np.ndarray,
    tr: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (query i, target j) whose circles overlap, ordered by query then target cell."""
    qi, ti = grid.candidates(qx, qy)
    if len(qi) == 0:
        return qi, ti
    rq = qr[qi] if isinstance(qr, np.ndarray) else qr
    dx = qx[qi] - tx[ti]
    dy = qy[qi] - ty[ti]
    reach = rq + tr[ti]
    hit = dx * dx + dy * dy < reach * reach
    return qi[hit], ti[hit]
