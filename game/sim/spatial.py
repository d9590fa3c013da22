"""A vectorised uniform-grid spatial hash: overlapping pairs between a query set and a target set.

Targets are bucketed into a dense table of square buckets (``SUBDIV`` per cell side) covering their bounding
box; ``np.bincount`` gives each bucket's count and a cumulative sum its start in the target order. Buckets are
numbered column by column, so the buckets a query's reach spans in one column are one contiguous run of the
target order: a query looks up one (start, end) pair per column it spans, and the candidate pairs are
expanded with ``repeat`` arithmetic. No Python loop runs per entity. The bucket numbers fit 16 bits, so the
one sort of the targets is numpy's radix sort, O(n). A query's reach is the query radius plus the largest
target radius actually present, so the candidates cover little more than the circles that can overlap.
Targets whose reach is above the cell size (bosses) are tested against every query directly, so the cell can
be sized for the common enemies rather than the biggest one.
"""

from __future__ import annotations

import numpy as np

SUBDIV = 2  # buckets per cell side: smaller buckets fit the queried square tighter, at more runs per query
_EMPTY = np.zeros(0, dtype=np.int64)
_RADIX_LIMIT = 1 << 16


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
    """Targets bucketed by position; built once per tick and queried as often as needed. ``cell`` is the
    largest reach (query radius + target radius) the buckets serve; ``overlap_pairs`` tests targets with a
    larger reach directly."""

    def __init__(self, x: np.ndarray, y: np.ndarray, cell: float) -> None:
        self.cell = float(cell)
        self.n = len(x)
        bucket = self.cell / SUBDIV
        if self.n:
            # buckets as large as it takes for the table to stay within 16-bit numbers (a huge spread-out set)
            span = max(float(np.ptp(x)), float(np.ptp(y)), 1.0)
            bucket = max(bucket, span / 250.0)
        self.bucket = bucket
        self.inv = 1.0 / bucket
        if self.n == 0:
            self.x0 = self.y0 = 0
            self.nx = self.ny = 1
            self.order = _EMPTY
            self.starts = self.ends = np.zeros(1, dtype=np.int64)
            return
        cx = np.floor(x * self.inv).astype(np.int64)
        cy = np.floor(y * self.inv).astype(np.int64)
        self.x0, self.y0 = int(cx.min()), int(cy.min())
        self.nx, self.ny = int(cx.max()) - self.x0 + 1, int(cy.max()) - self.y0 + 1
        keys = (cx - self.x0) * self.ny + (cy - self.y0)
        if self.nx * self.ny <= _RADIX_LIMIT:
            keys = keys.astype(np.uint16)  # numpy sorts 16-bit integers by radix: stable and O(n)
        self.order = np.argsort(keys, kind="stable")
        counts = np.bincount(keys, minlength=self.nx * self.ny)
        self.ends = np.cumsum(counts)
        self.starts = self.ends - counts

    def candidates(
        self, qx: np.ndarray, qy: np.ndarray, reach: float | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """All (query index, target index) pairs whose target lies in a bucket that the square of half side
        ``reach`` (default: the cell size) around the query touches; queries outside the targets' box are
        clipped onto its edge (a superset). Pairs come ordered by column offset, query, target bucket."""
        m = len(qx)
        if m == 0 or self.n == 0:
            return _EMPTY, _EMPTY
        r = self.cell if reach is None else float(reach)
        inv = self.inv
        last_x, last_y = self.nx - 1, self.ny - 1
        c0 = np.clip(np.floor((qx - r) * inv).astype(np.int64) - self.x0, 0, last_x)
        c1 = np.clip(np.floor((qx + r) * inv).astype(np.int64) - self.x0, 0, last_x)
        r0 = np.clip(np.floor((qy - r) * inv).astype(np.int64) - self.y0, 0, last_y)
        r1 = np.clip(np.floor((qy + r) * inv).astype(np.int64) - self.y0, 0, last_y)
        width = int((c1 - c0).max()) + 1
        col = c0[None, :] + np.arange(width, dtype=np.int64)[:, None]  # (width, m)
        inside = col <= c1[None, :]
        col = np.minimum(col, c1[None, :])
        lo = self.starts[col * self.ny + r0[None, :]]
        hi = self.ends[col * self.ny + r1[None, :]]
        counts = np.where(inside, hi - lo, 0).ravel()
        nz = counts > 0
        counts, lo = counts[nz], lo.ravel()[nz]
        total = int(counts.sum())
        if total == 0:
            return _EMPTY, _EMPTY
        qidx = np.broadcast_to(np.arange(m, dtype=np.int64), (width, m)).ravel()[nz]
        qi = np.repeat(qidx, counts)
        first = np.repeat(lo - (np.cumsum(counts) - counts), counts)
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
    """Pairs (query i, target j) whose circles overlap: the grid's pairs first, then those with targets too
    big for the grid (every pair once; the order within is the grid's, so callers that pick one pair per
    query choose by a rule of their own, e.g. the nearest)."""
    if len(qx) == 0 or len(tr) == 0:
        return _EMPTY, _EMPTY
    qmax = float(np.max(qr))
    big_mask = tr + qmax > grid.cell
    big = np.nonzero(big_mask)[0]
    if len(big) == len(tr):
        qi, ti = _EMPTY, _EMPTY
    else:
        small_r = float(tr[~big_mask].max()) if len(big) else float(tr.max())
        qi, ti = grid.candidates(qx, qy, qmax + small_r)
        if len(big) and len(qi):
            keep = ~big_mask[ti]
            qi, ti = qi[keep], ti[keep]
    if len(big):
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
