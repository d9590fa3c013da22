"""Determinism of whole runs, and the spatial grid against brute force."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.headless import run_headless
from game.sim.spatial import Grid, overlap_pairs


def _comparable(seed: int, bot: str) -> dict[str, object]:
    summary = run_headless(seed=seed, seconds=45, bot=bot)  # type: ignore[arg-type]
    return summary.model_dump(exclude={"ticks_per_second"})


def test_same_seed_same_inputs_gives_an_identical_run() -> None:
    a = _comparable(11, "average")
    b = _comparable(11, "average")
    assert a == b
    assert a["kills"] > 0  # the run actually did something


def test_different_seeds_give_different_runs() -> None:
    assert _comparable(11, "average") != _comparable(12, "average")


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 120),
    m=st.integers(0, 80),
    seed=st.integers(0, 2**32 - 1),
    cell=st.sampled_from([40.0, 64.0, 100.0]),
)
def test_grid_finds_exactly_the_brute_force_overlaps(n: int, m: int, seed: int, cell: float) -> None:
    rng = np.random.default_rng(seed)
    tx, ty = rng.uniform(0, 600, n), rng.uniform(0, 600, n)
    tr = rng.uniform(4, cell / 2 - 6, n)
    qx, qy = rng.uniform(0, 600, m), rng.uniform(0, 600, m)
    qr = 5.0
    grid = Grid(tx, ty, cell)
    qi, ti = overlap_pairs(qx, qy, qr, grid, tx, ty, tr)
    found = set(zip(qi.tolist(), ti.tolist(), strict=True))
    d2 = (qx[:, None] - tx[None, :]) ** 2 + (qy[:, None] - ty[None, :]) ** 2
    expected = {(int(i), int(j)) for i, j in zip(*np.nonzero(d2 < (qr + tr[None, :]) ** 2), strict=True)}
    assert found == expected


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 60), m=st.integers(0, 40), seed=st.integers(0, 2**32 - 1))
def test_targets_bigger_than_a_cell_are_still_found(n: int, m: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    tx, ty = rng.uniform(-50, 400, n), rng.uniform(0, 400, n)
    tr = np.where(rng.random(n) < 0.2, rng.uniform(40, 90, n), rng.uniform(3, 20, n))  # some bosses
    qx, qy = rng.uniform(-100, 500, m), rng.uniform(-100, 500, m)
    qr = rng.uniform(2, 18, m)
    grid = Grid(tx, ty, 40.0)
    qi, ti = overlap_pairs(qx, qy, qr, grid, tx, ty, tr)
    found = list(zip(qi.tolist(), ti.tolist(), strict=True))
    assert len(found) == len(set(found)), "no pair twice"
    d2 = (qx[:, None] - tx[None, :]) ** 2 + (qy[:, None] - ty[None, :]) ** 2
    expected = {
        (int(i), int(j)) for i, j in zip(*np.nonzero(d2 < (qr[:, None] + tr[None, :]) ** 2), strict=True)
    }
    assert set(found) == expected


def test_a_widely_spread_target_set_keeps_the_grid_small_and_exact() -> None:
    """Targets spread over 200,000 px would need millions of cell-sized buckets: the grid widens its buckets
    (so the table stays 16-bit and the sort a radix sort) and still finds exactly the overlaps."""
    rng = np.random.default_rng(5)
    tx = np.concatenate([rng.uniform(0, 400, 300), [200_000.0]])
    ty = np.concatenate([rng.uniform(0, 400, 300), [-50_000.0]])
    tr = rng.uniform(4, 14, len(tx))
    qx = np.concatenate([rng.uniform(-20, 420, 200), [200_003.0]])
    qy = np.concatenate([rng.uniform(-20, 420, 200), [-50_001.0]])
    grid = Grid(tx, ty, 40.0)
    assert grid.nx * grid.ny <= 1 << 16
    qi, ti = overlap_pairs(qx, qy, 5.0, grid, tx, ty, tr)
    d2 = (qx[:, None] - tx[None, :]) ** 2 + (qy[:, None] - ty[None, :]) ** 2
    expected = {(int(i), int(j)) for i, j in zip(*np.nonzero(d2 < (5.0 + tr[None, :]) ** 2), strict=True)}
    assert set(zip(qi.tolist(), ti.tolist(), strict=True)) == expected
    assert (200, 300) in expected
