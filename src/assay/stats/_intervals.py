"""Interval arithmetic of one cell: Wilson, t and bootstrap intervals, exact binomial tails.

Everything here is a pure function of numbers.  numpy is imported inside the
functions that need it; the t quantile is scipy's ``stdtrit`` (what
``scipy.stats.t.ppf`` computes it with) when scipy is installed, otherwise a
Cornish–Fisher expansion (error below 1e-3 for 3 or more degrees of freedom)
stands in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from assay._dataclass import FACTORY, FrozenMethods

__all__ = [
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_SEED",
    "CellStat",
    "Method",
    "binomial_two_sided_p",
    "bootstrap_interval",
    "holm_adjust",
    "normal_quantile",
    "t_interval",
    "t_quantile",
    "wilson_interval",
]

#: Resamples of every bootstrap unless asked otherwise.
DEFAULT_BOOTSTRAP = 2000
#: Seed of every bootstrap unless asked otherwise: reruns give the same intervals.
DEFAULT_SEED = 20240101

Method = Literal["wilson", "t", "bootstrap", "propagated", "simulated", "none"]


@dataclass(init=False, repr=False, eq=False)
class CellStat(FrozenMethods):
    """The uncertainty of one table cell.

    Attributes:
        value: the cell's value as the summary shows it.
        se: standard error in the metric's units, or ``None`` without an interval.
        low, high: the interval bounds, or ``None``.
        method: ``wilson`` (binary outcomes), ``t`` (mean of per-sample scores,
            clustered by sample over runs), ``bootstrap`` (corpus metric),
            ``propagated`` (a linear group), ``simulated`` (a group with std
            or harmonic mean somewhere below it), ``none``.
        n: the number of independent units (samples) behind the value.
        runs: runs per sample.
        basis: what the interval was computed from (``'correct'``,
            ``'details.rouge1'``, ``'corpus bleu'``, ``'3 inputs'``…).
        reason: why there is no interval, when there is none.
        confidence: the interval's confidence level.

    >>> CellStat(50.0, 5.0, 40.2, 59.8, 'wilson', n=100).to_json()['method']
    'wilson'
    """

    value: float
    se: float | None = None
    low: float | None = None
    high: float | None = None
    method: Method = "none"
    n: int | None = None
    runs: int | None = None
    basis: str | None = None
    reason: str | None = None
    confidence: float = 0.95
    extra: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        value: float,
        se: float | None = None,
        low: float | None = None,
        high: float | None = None,
        method: Method = "none",
        n: int | None = None,
        runs: int | None = None,
        basis: str | None = None,
        reason: str | None = None,
        confidence: float = 0.95,
        extra: dict[str, Any] = FACTORY,
    ) -> None:
        self.value = value
        self.se = se
        self.low = low
        self.high = high
        self.method = method
        self.n = n
        self.runs = runs
        self.basis = basis
        self.reason = reason
        self.confidence = confidence
        self.extra = {} if extra is FACTORY else extra

    @property
    def has_interval(self) -> bool:
        """True when ``low`` and ``high`` are known."""
        return self.low is not None and self.high is not None

    def describe(self) -> str:
        """A one-line description, used in tooltips and ``--ci`` tables.

        >>> CellStat(50.0, 5.0, 40.0, 60.0, 'wilson', n=100, basis='correct').describe()
        '95% CI [40.00, 60.00] (wilson, n=100, correct), se 5.00'
        >>> CellStat(50.0, reason='no per-sample details').describe()
        'no interval: no per-sample details'
        """
        if not self.has_interval:
            return f"no interval: {self.reason or 'unknown'}"
        parts: list[str] = [self.method]
        if self.n is not None:
            parts.append(f"n={self.n}" + (f"×{self.runs} runs" if self.runs and self.runs > 1 else ""))
        if self.basis:
            parts.append(self.basis)
        se = f", se {self.se:.2f}" if self.se is not None else ""
        return f"{round(self.confidence * 100):d}% CI [{self.low:.2f}, {self.high:.2f}] ({', '.join(parts)}){se}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``None`` fields left out)."""
        out: dict[str, Any] = {"value": self.value, "method": self.method}
        # field by field (this runs once per leaderboard cell)
        if self.se is not None:
            out["se"] = self.se
        if self.low is not None:
            out["low"] = self.low
        if self.high is not None:
            out["high"] = self.high
        if self.n is not None:
            out["n"] = self.n
        if self.runs is not None:
            out["runs"] = self.runs
        if self.basis is not None:
            out["basis"] = self.basis
        if self.reason is not None:
            out["reason"] = self.reason
        if self.low is not None and self.high is not None:
            out["confidence"] = self.confidence
        if self.extra:
            out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CellStat:
        """The inverse of :meth:`to_json`.

        >>> CellStat.from_json(CellStat(1.0, 0.5, 0.0, 2.0, 't', n=9).to_json()).n
        9
        """
        if _CELL_FIELDS.issuperset(data):  # the usual cell: no extra fields (a leaderboard has fifty thousand)
            return cls(**data)
        kwargs = {k: v for k, v in data.items() if k in _CELL_FIELDS}
        extra = {k: v for k, v in data.items() if k not in _CELL_FIELDS}
        return cls(**kwargs, extra=extra)


#: The fields of :class:`CellStat` its JSON names (the others are its ``extra``).
_CELL_FIELDS = frozenset({"value", "se", "low", "high", "method", "n", "runs", "basis", "reason", "confidence"})


def normal_quantile(p: float) -> float:
    """The standard normal quantile.

    >>> round(normal_quantile(0.975), 4)
    1.96
    """
    from statistics import NormalDist  # imported by the first interval, not with the package

    return NormalDist().inv_cdf(p)


def t_quantile(p: float, df: float) -> float:
    """The quantile of Student's t with ``df`` degrees of freedom.

    >>> round(t_quantile(0.975, 10), 3)
    2.228
    """
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    p, df = float(p), float(df)  # in double precision, as scipy.stats converts a float32
    if not 0 < p < 1:  # the ends and beyond as scipy.stats gives them (stdtrit's sign at 0 differs)
        return -math.inf if p == 0 else math.inf if p == 1 else math.nan
    try:
        # the function scipy.stats.t.ppf computes its quantile with (the same value), without importing
        # scipy.stats and its distributions (about half a second of CPU for the one function)
        from scipy.special import stdtrit
    except ImportError:  # pragma: no cover - scipy is normally installed
        z = normal_quantile(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
        return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
    return float(stdtrit(df, p))


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion, on [0, 1].

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if n <= 0:
        raise ValueError("the Wilson interval needs at least one trial")
    if successes == 0:
        return 0.0, _wilson_high(0, n, confidence)
    if successes == n:
        return 1.0 - _wilson_high(0, n, confidence), 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in [0, {n}], got {successes}")
    z = normal_quantile(0.5 + confidence / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _wilson_high(successes: int, n: int, confidence: float) -> float:
    z = normal_quantile(0.5 + confidence / 2)
    p = successes / n
    denom = 1 + z * z / n
    return (p + z * z / (2 * n) + z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / denom


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, standard error, half width)`` of the t interval of a mean.

    >>> m, se, hw = t_interval([1.0, 2.0, 3.0, 4.0])
    >>> m, round(se, 4), round(hw, 4)
    (2.5, 0.6455, 2.0543)
    """
    n = len(values)
    if n < 2:
        raise ValueError("a t interval needs at least two values")
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    se = math.sqrt(var / n)
    return mean, se, t_quantile(0.5 + confidence / 2, n - 1) * se


def bootstrap_interval(
    n: int,
    statistic: Callable[[Any], float],
    *,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """``(standard error, low, high)`` of a statistic over ``n`` samples by the percentile bootstrap.

    ``statistic`` receives an integer index array (samples drawn with
    replacement) and returns the statistic of that resample.  The same seed
    gives the same interval.

    >>> import numpy as np
    >>> x = np.arange(10.0)
    >>> a = bootstrap_interval(10, lambda idx: float(x[idx].mean()), resamples=200, seed=1)
    >>> a == bootstrap_interval(10, lambda idx: float(x[idx].mean()), resamples=200, seed=1)
    True
    """
    import numpy as np

    if n < 2:
        raise ValueError("a bootstrap needs at least two samples")
    rng = np.random.default_rng(seed)
    draws = np.empty(resamples)
    for b in range(resamples):
        draws[b] = statistic(rng.integers(0, n, n))
    alpha = (1 - confidence) / 2
    low, high = np.quantile(draws, [alpha, 1 - alpha])
    return float(draws.std(ddof=1)), float(low), float(high)


def binomial_two_sided_p(b: int, c: int) -> float:
    """The exact two-sided p-value of McNemar's test for discordant counts ``b`` and ``c``.

    Under the null hypothesis each discordant pair goes either way with
    probability one half: ``p = min(1, 2 · P(X ≤ min(b, c)))`` with
    ``X ~ Binomial(b + c, 1/2)``; ``p = 1`` without discordant pairs.

    >>> round(binomial_two_sided_p(1, 9), 6)
    0.021484
    >>> binomial_two_sided_p(0, 0)
    1.0
    """
    if b < 0 or c < 0:
        raise ValueError("discordant counts cannot be negative")
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    # sum the terms i = k, k-1, ..., 0 relative to the largest one (term k), in log space
    log_top = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    total = 0.0
    ratio = 1.0
    for i in range(k, -1, -1):
        total += ratio
        if i == 0:
            break
        ratio *= i / (n - i + 1)  # C(n, i-1) / C(n, i)
        if ratio < 1e-300:
            break
    return min(1.0, 2.0 * math.exp(log_top + math.log(total)))


def holm_adjust(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of p-values (family-wise error control), in input order.

    >>> holm_adjust([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return [round(p, 15) for p in adjusted]
