"""A vectorised uniform-grid spatial hash: overlapping pairs between a query set and a target set.

Targets are bucketed into a dense table of cells covering their bounding box (plus an empty border):
``np.bincount`` gives each cell's count, a cumulative sum its start in the target order, so a query finds
its own and the 8 neighbouring cells by plain indexing (no binary search), and the candidate pairs are
expanded with ``repeat`` arithmetic: no Python loop runs per entity. Cost is O(n log n) for one sort of the
targets plus O(m + candidates). The 3×3 neighbourhood finds every overlap whose reach (query radius +
target radius) is at most the cell size; targets with a larger radius (bosses) are tested against every
query directly, so the cell can be sized for the common enemies rather than the biggest one.
"""

from __future__ import annotations

import numpy as np

_OFFSETS = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.int64)
_EMPTY = np.zeros(0, dtype=np.int64)


def cell_keys(x: np.ndarray, y: np.ndarray, cell: float) -> np.ndarray:
    """A dense non-negative cell index per point (equal for points sharing a cell); for grouping."""
    if len(x) == 0:
        return _EMPTY
    cx = np.floor(x * (1.0 / cell)).astype(np.int64)
    cy = np.floor(y * (1.0 / cell)).astype(np.int64)
    cx -= cx.min()
    cy -= cy.min()
    return cx * (int(cy.max()) + 1) + cy


class Grid:
    """Targets bucketed by cell; built once per tick and queried as often as needed."""

    def __init__(self, x: np.ndarray, y: np.ndarray, cell: float) -> None:
        self.cell = float(cell)
        self.n = len(x)
        if self.n == 0:
            self.x0 = self.y0 = 0
            self.nx = self.ny = 3
            self.keys = _EMPTY
            self.order = _EMPTY
            self.counts = np.zeros(9, dtype=np.int64)
            self.starts = np.zeros(9, dtype=np.int64)
            return
        inv = 1.0 / self.cell
        cx = np.floor(x * inv).astype(np.int64)
        cy = np.floor(y * inv).astype(np.int64)
        # one empty cell of border on every side: clipped queries and their neighbours stay in the table
        self.x0, self.y0 = int(cx.min()) - 1, int(cy.min()) - 1
        self.nx, self.ny = int(cx.max()) - self.x0 + 2, int(cy.max()) - self.y0 + 2
        self.keys = (cx - self.x0) * self.ny + (cy - self.y0)
        self.order = np.argsort(self.keys, kind="stable")
        self.counts = np.bincount(self.keys, minlength=self.nx * self.ny)
        self.starts = np.cumsum(self.counts) - self.counts

    def candidates(self, qx: np.ndarray, qy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """All (query index, target index) pairs whose cells are neighbours (a superset for queries that
        lie outside the targets' box: those are clipped onto its edge)."""
        m = len(qx)
        if m == 0 or self.n == 0:
            return _EMPTY, _EMPTY
        inv = 1.0 / self.cell
        qcx = np.clip(np.floor(qx * inv).astype(np.int64) - self.x0, 1, self.nx - 2)
        qcy = np.clip(np.floor(qy * inv).astype(np.int64) - self.y0, 1, self.ny - 2)
        base = qcx * self.ny + qcy
        qkeys = (base[None, :] + (_OFFSETS[:, 0:1] * self.ny + _OFFSETS[:, 1:2])).ravel()
        counts = self.counts[qkeys]
        total = int(counts.sum())
        if total == 0:
            return _EMPTY, _EMPTY
        start = self.starts[qkeys]
        qidx = np.tile(np.arange(m, dtype=np.int64), len(_OFFSETS))
        nz = counts > 0  # most of the 9 neighbours are empty in a sparse arena: skip them early
        counts, start, qidx = counts[nz], start[nz], qidx[nz]
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
    """Pairs (query i, target j) whose circles overlap: the grid's pairs first (ordered by neighbour cell,
    then query, then target cell), then those with targets too big for the grid."""
    qmax = float(np.max(qr)) if np.size(qr) else 0.0
    big = np.nonzero(tr + qmax > grid.cell)[0] if len(tr) else _EMPTY
    qi, ti = grid.candidates(qx, qy)
    if len(big) and len(qi):
        small = tr[ti] + qmax <= grid.cell
        qi, ti = qi[small], ti[small]
    if len(big) and len(qx):
        bq = np.repeat(np.arange(len(qx), dtype=np.int64), len(big))
        bt = np.tile(big, len(qx))
        qi, ti = np.concatenate([qi, bq]), np.concatenate([ti, bt])
    if len(qi) == 0:
        return qi, ti
    rq = qr[qi] if isinstance(qr, np.ndarray) else qr
    dx = qx[qi] - tx[ti]
    dy = qy[qi] - ty[ti]
    reach = rq + tr[ti]
    hit = dx * dx + dy * dy < reach * reach
    return qi[hit], ti[hit]
