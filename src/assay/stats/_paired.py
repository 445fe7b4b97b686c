"""Paired comparison of two models on the same samples.

Samples are aligned by index (and, when both details carry it, checked by
``example_abbr``).  For binary outcomes (one run, 0/1 per sample):
McNemar's exact test on the discordant pairs, and the t interval of the
per-sample differences (the paired difference of proportions).  Otherwise
(several runs, per-sample scores, corpus metrics): a seeded paired
bootstrap — the same resampled samples for both models — gives the interval
and a two-sided p-value.  :func:`holm_adjust` corrects across datasets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assay._dataclass import DataclassMethods
from assay.stats._intervals import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    binomial_two_sided_p,
    t_interval,
)
from assay.stats._samples import SampleValues

__all__ = ["PairedResult", "paired_compare"]


@dataclass(repr=False, eq=False)
class PairedResult(DataclassMethods):
    """One dataset's comparison of model A with model B (difference = A − B, in metric units).

    Attributes:
        a_only: samples A got right and B wrong (binary), or where A's per-sample
            value is higher (otherwise).
        b_only: the reverse.
        test: ``mcnemar-exact`` or ``paired-bootstrap``.
        p_holm: ``p`` after Holm's correction across the compared datasets (set by the caller).
    """

    n: int
    value_a: float
    value_b: float
    diff: float
    low: float
    high: float
    se: float
    p: float
    test: str
    a_only: int
    b_only: int
    p_holm: float | None = None
    resamples: int | None = None
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = {k: v for k, v in self.__dict__.items() if v is not None}
        return out


def paired_compare(
    a: SampleValues,
    b: SampleValues,
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    interval: bool = True,
) -> PairedResult:
    """Compare two models' per-sample values of one dataset.

    ``interval``: compute the t interval of binary outcomes' differences; without it their
    ``low``, ``high`` and ``se`` are NaN (the test and its ``p`` are the same), for a caller that
    reads only the test (the t quantile costs the import of scipy's special functions).

    Raises:
        ValueError: the two have different sample counts or kinds.

    >>> import numpy as np
    >>> a = SampleValues('binary', np.array([1.0] * 9 + [0.0] * 11), 100.0, 1, 'correct')
    >>> b = SampleValues('binary', np.array([0.0] * 9 + [1.0] + [0.0] * 10), 100.0, 1, 'correct')
    >>> r = paired_compare(a, b)
    >>> r.a_only, r.b_only, round(r.p, 6), r.test
    (9, 1, 0.021484, 'mcnemar-exact')
    """
    import numpy as np

    if a.n != b.n:
        raise ValueError(f"the models have {a.n} and {b.n} samples; a paired comparison needs the same samples")
    if (a.kind == "corpus") != (b.kind == "corpus"):
        raise ValueError("one model's metric is a corpus statistic and the other's a per-sample mean")
    n = a.n
    va, vb = a.estimate(), b.estimate()
    if a.kind == "binary" and b.kind == "binary":
        ua, ub = a.units, b.units
        a_only = int(np.sum((ua == 1) & (ub == 0)))
        b_only = int(np.sum((ua == 0) & (ub == 1)))
        p = binomial_two_sided_p(a_only, b_only)
        if not interval:
            nan = float("nan")
            return PairedResult(n, va, vb, va - vb, nan, nan, nan, p, "mcnemar-exact", a_only, b_only)
        diffs = [float(x) for x in (ua - ub) * a.scale]
        if n >= 2 and any(d != diffs[0] for d in diffs):
            _, se, half = t_interval(diffs, confidence)
        else:
            se, half = 0.0, 0.0
        return PairedResult(n, va, vb, va - vb, va - vb - half, va - vb + half, se, p, "mcnemar-exact",
                            a_only, b_only)
    if a.kind == "corpus":
        a_only = b_only = 0
    else:
        a_only = int(np.sum(a.units * a.scale > b.units * b.scale))
        b_only = int(np.sum(a.units * a.scale < b.units * b.scale))
    diff = va - vb
    rng = np.random.default_rng(seed)
    draws = np.empty(resamples)
    for i in range(resamples):
        idx = rng.integers(0, n, n)
        draws[i] = a.estimate(idx) - b.estimate(idx)
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(draws, [alpha, 1 - alpha])
    # two-sided p: how often the resampled difference, shifted to the null, is as extreme as the observed one
    centred = draws - draws.mean()
    p = float((np.sum(np.abs(centred) >= abs(diff)) + 1) / (resamples + 1))
    return PairedResult(n, va, vb, diff, float(lo), float(hi), float(draws.std(ddof=1)), min(1.0, p),
                        "paired-bootstrap", a_only, b_only, resamples=resamples, seed=seed)
