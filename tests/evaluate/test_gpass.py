"""G-Pass@k and mG-Pass@k against the verified test vectors."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.evaluate.gpass import THRESHOLDS, g_pass_at_k, hypergeom_tail, mg_pass_at_k, pass_at_k

# n, c, k, G@t for t in THRESHOLDS, mG
VECTORS = [
    (4, 2, 2, [0.833333, 0.833333, 0.833333, 0.166667, 0.166667], 0.166667),
    (4, 3, 4, [1, 1, 1, 1, 0], 0.5),
    (8, 5, 4, [1, 1, 0.928571, 0.5, 0.071429], 0.285714),
    (16, 8, 16, [1, 1, 1, 0, 0], 0),
    (4, 0, 2, [0, 0, 0, 0, 0], 0),
    (4, 4, 4, [1, 1, 1, 1, 1], 1),
]


@pytest.mark.parametrize(("n", "c", "k", "g", "mg"), VECTORS)
def test_reference_vectors(n: int, c: int, k: int, g: list[float], mg: float) -> None:
    for t, expected in zip(THRESHOLDS, g):
        assert g_pass_at_k(n, c, k, t) == pytest.approx(expected, abs=1e-6)
    assert mg_pass_at_k(n, c, k) == pytest.approx(mg, abs=1e-6)


def test_mg_pass_is_zero_for_k_one() -> None:
    assert mg_pass_at_k(4, 3, 1) == 0.0


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_g_pass_at_zero_threshold_is_unbiased_pass_at_k(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    assert g_pass_at_k(n, c, k, 0.0) == pytest.approx(pass_at_k(n, c, k))


@given(st.integers(1, 25).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_hypergeometric_tail_sums_to_one(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    pmf = [hypergeom_tail(n, c, k, m) - hypergeom_tail(n, c, k, m + 1) for m in range(k + 1)]
    assert math.fsum(pmf) == pytest.approx(1.0)
    assert all(p >= -1e-12 for p in pmf)
