"""Paired comparison of two models over the datasets of a run: what each dataset gave, and Holm's correction.

The per-sample values come from the caller (:func:`assay.rundir.compare.compare_models`
reads them from a run directory); this module only puts the comparisons together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import DataclassMethods
from assay.stats._align import Alignment
from assay.stats._intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, holm_adjust
from assay.stats._paired import PairedResult

__all__ = ["Comparison", "DatasetComparison", "example_misalignment", "sample_misalignment"]


@dataclass(repr=False, eq=False)
class DatasetComparison(DataclassMethods):
    """One dataset of a comparison: the result, or why it could not be compared; ``alignment`` when the
    samples were paired by id or content (:mod:`assay.stats._align`) rather than by position."""

    dataset: str
    metric: str | None = None
    result: PairedResult | None = None
    reason: str | None = None
    alignment: Alignment | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dataset": self.dataset}
        if self.metric is not None:
            out["metric"] = self.metric
        if self.result is not None:
            out.update(self.result.to_json())
        if self.reason is not None:
            out["reason"] = self.reason
        if self.alignment is not None:
            out["alignment"] = self.alignment.to_json()
        return out


@dataclass(repr=False, eq=False)
class Comparison(DataclassMethods):
    """Model A against model B on every dataset both have (difference = A − B)."""

    model_a: str
    model_b: str
    datasets: list[DatasetComparison] = field(default_factory=list)
    confidence: float = 0.95
    seed: int = DEFAULT_SEED
    resamples: int = DEFAULT_BOOTSTRAP

    def to_json(self) -> dict[str, Any]:
        return {
            "model_a": self.model_a,
            "model_b": self.model_b,
            "difference": "A - B, in the metric's units",
            "confidence": self.confidence,
            "seed": self.seed,
            "resamples": self.resamples,
            "correction": "holm",
            "datasets": [d.to_json() for d in self.datasets],
        }

    def adjust_holm(self) -> None:
        """Set each compared dataset's ``p_holm``: Holm's correction across the datasets that could be compared."""
        compared = [d.result for d in self.datasets if d.result is not None]
        for result, p in zip(compared, holm_adjust([r.p for r in compared])):
            result.p_holm = p


def sample_misalignment(details_a: Any, details_b: Any) -> str | None:
    """Why two results' details are not the same samples in the same order; ``None`` when they may be.

    The counts must agree, and so must the ``example_abbr`` of every sample
    where both have one.  Details that are not lists are not checked.

    >>> sample_misalignment([{'example_abbr': 'q1'}], [{'example_abbr': 'q2'}])
    "sample 0 is 'q1' for one model and 'q2' for the other"
    >>> sample_misalignment([{}, {}], [{}]), sample_misalignment([{}], [{}])
    ('the models have 2 and 1 samples', None)
    """
    if not isinstance(details_a, list) or not isinstance(details_b, list):
        return None
    if len(details_a) != len(details_b):
        return f"the models have {len(details_a)} and {len(details_b)} samples"
    return example_misalignment(
        [x.get("example_abbr") if isinstance(x, dict) else None for x in details_a],
        [y.get("example_abbr") if isinstance(y, dict) else None for y in details_b],
    )


def example_misalignment(examples_a: Sequence[Any], examples_b: Sequence[Any]) -> str | None:
    """The first sample whose ``example_abbr`` differs between two models (``None`` counts as unknown).

    >>> example_misalignment(['q1', None], ['q1', 'q3']) is None
    True
    """
    for i, (ea, eb) in enumerate(zip(examples_a, examples_b)):
        if ea is not None and eb is not None and ea != eb:
            return f"sample {i} is {ea!r} for one model and {eb!r} for the other"
    return None
