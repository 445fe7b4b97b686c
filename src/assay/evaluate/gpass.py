"""G-Pass@k and mG-Pass@k: how reliably a model solves a sample over repeated runs.

With ``n`` runs of a sample of which ``c`` are correct, ``X`` is the number of
correct runs among ``k`` drawn without replacement (hypergeometric).

* ``G-Pass@k_t = P(X >= max(ceil(k*t), 1))``; ``t = 0`` is the unbiased pass@k.
* ``mG-Pass@k = (2/k) * sum_{i = ceil(k/2)+1 .. k} P(X >= i)``.

Example:
    >>> round(g_pass_at_k(4, 2, 2, 0.0), 6)
    0.833333
    >>> round(mg_pass_at_k(8, 5, 4), 6)
    0.285714
"""

from __future__ import annotations

import math

__all__ = ["THRESHOLDS", "g_pass_at_k", "hypergeom_tail", "mg_pass_at_k", "pass_at_k"]

THRESHOLDS: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)


def hypergeom_tail(n: int, c: int, k: int, m: int) -> float:
    """``P(X >= m)`` for ``X ~ Hypergeometric(population n, successes c, draws k)``."""
    if m <= 0:
        return 1.0
    total = math.comb(n, k)
    hi = min(c, k)
    acc = 0
    for i in range(m, hi + 1):
        acc += math.comb(c, i) * math.comb(n - c, k - i)
    return acc / total


def g_pass_at_k(n: int, c: int, k: int, t: float) -> float:
    """Probability that at least ``max(ceil(k*t), 1)`` of ``k`` drawn runs are correct."""
    return _at_least(n, c, k, max(math.ceil(k * t), 1))


def _at_least(n: int, c: int, k: int, m: int) -> float:
    if m > min(c, k) or k > n or c < 0 or n <= 0:
        return 0.0
    return hypergeom_tail(n, c, k, m)


def mg_pass_at_k(n: int, c: int, k: int) -> float:
    """Mean G-Pass@k over thresholds above one half (0 when ``k == 1``)."""
    low = math.ceil(k * 0.5)
    return (2 / k) * sum(_at_least(n, c, k, i) for i in range(low + 1, k + 1))


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k estimator ``1 - C(n-c, k) / C(n, k)``."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)
