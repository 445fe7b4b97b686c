"""What the statistics want of one result, computed from the result as parsed.

:func:`result_stats` takes a result (its metrics, ``_meta`` and details, as
a dict) and the values a summary shows of it, and returns each value's
:class:`CellStat`, the unscorable counts and, for the sample browser, the
:class:`SampleColumns`.  It reads nothing: texts the details lack come from
a callable the caller gives (the prediction file's columns).

Example:
    >>> result = {'accuracy': 75.0, 'details': [{'correct': [True]}] * 3 + [{'correct': [False]}]}
    >>> out = result_stats(result, {'accuracy': 75.0})
    >>> out.cells['accuracy'].method, out.unscorable.total
    ('wilson', 4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import DataclassMethods, FrozenMethods
from assay.stats._columns import PredictionColumns, SampleColumns, sample_columns
from assay.stats._details import Details
from assay.stats._intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, CellStat
from assay.stats._samples import SampleValues, cell_stat, correctness_of, outcome_of, sample_values
from assay.stats._unscorable import Unscorable, unscorable_in, unscorable_of

__all__ = ["ResultStats", "StatsOptions", "result_stats"]


@dataclass(repr=False, eq=False)
class StatsOptions(FrozenMethods):
    """The settings statistics are computed with.

    Attributes:
        confidence: the intervals' confidence level.
        resamples: bootstrap resamples (corpus statistics, groups).
        seed: the bootstrap's seed.
        keep_samples: keep each metric's per-sample values (for paired comparisons).
        text_limit: the longest text the sample browser keeps per sample and field.
    """

    confidence: float = 0.95
    resamples: int = DEFAULT_BOOTSTRAP
    seed: int = DEFAULT_SEED
    keep_samples: bool = False
    text_limit: int = 0


@dataclass(repr=False, eq=False)
class ResultStats(DataclassMethods):
    """The statistics of one result: of each value asked for (in its order), and the browser's columns.

    Attributes:
        cells: metric → its :class:`CellStat`.
        samples: metric → its per-sample values (with ``keep_samples``, where it has them).
        unscorable: the unscorable counts, ``None`` when nothing was asked of the metrics.
        columns: the sample browser's columns, when asked for and the result has details.
    """

    cells: dict[str, CellStat] = field(default_factory=dict)
    samples: dict[str, SampleValues] = field(default_factory=dict)
    unscorable: Unscorable | None = None
    columns: SampleColumns | None = None


def _no_predictions() -> PredictionColumns:
    return PredictionColumns([], [])


def result_stats(
    result: Mapping[str, Any],
    have: Mapping[str, float],
    options: StatsOptions | None = None,
    *,
    columns: bool = False,
    abbr: str = "",
    predictions: Callable[[], PredictionColumns] = _no_predictions,
) -> ResultStats:
    """The statistics of the values ``have`` (metric → value, as the summary shows them) of ``result``.

    Each value gets the interval of the estimator that computed it, or none
    with the reason (see :mod:`assay.stats`); the unscorable counts are
    bounded for the metrics backed by per-sample correctness.  With
    ``columns`` the sample browser's columns are built too (``abbr`` names
    samples without an ``example_abbr``; ``predictions`` gives the texts the
    details lack, and is called at most once).  ``options``: default :class:`StatsOptions`.
    """
    if options is None:
        options = StatsOptions()
    out = ResultStats()
    result = result if isinstance(result, dict) else dict(result)
    details = result.get("details")
    view = Details(details) if isinstance(details, list) and details else None
    outcome = outcome_of(result)
    correct = correctness_of(view, outcome.correct if outcome is not None else None) if view is not None else None
    if have:
        known: dict[str, Any] = {} if view is None else {"correct": correct}
        backed: list[tuple[str, float]] = []
        for metric, value in have.items():
            sv = sample_values(result, metric, value, **known)
            out.cells[metric] = cell_stat(
                sv, value, confidence=options.confidence, resamples=options.resamples, seed=options.seed
            )
            if isinstance(sv, SampleValues):
                if options.keep_samples:
                    out.samples[metric] = sv
                if sv.basis == "correct":
                    backed.append((metric, value))
        if view is not None:
            out.unscorable = unscorable_in(result, view, backed, correct=correct)
        else:
            out.unscorable = unscorable_of(result, backed)
    if columns and view is not None and "error" not in result:
        if correct is None and outcome is not None and outcome.scores:
            # no verdict field but per-sample scores (another tool's samples): the first metric whose values are 0/1
            metrics = list(have) or [m for m, v in result.items()
                                     if isinstance(v, (int, float)) and not isinstance(v, bool)]
            for metric in metrics:
                sv = sample_values(result, metric, have.get(metric))
                if isinstance(sv, SampleValues) and sv.kind == "binary" and sv.n == view.n:
                    correct = sv.units.reshape(-1, 1)
                    break
        out.columns = sample_columns(view, abbr, options.text_limit, predictions, correct)
    return out
