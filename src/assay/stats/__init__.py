"""Uncertainty of leaderboard cells and paired comparisons of models.

Each cell gets the interval of *the estimator that computed it*:

* a dataset metric backed by per-sample correctness (the details carry the
  verdict field the evaluator declares in its ``sample_outcome``, else
  ``correct``/``is_correct``/``cascade_correct``, and the metric equals
  ``100 × mean(correct)``): the Wilson interval for one run of 0/1 outcomes;
  with ``n`` runs per sample the per-sample mean over runs is the unit (the
  runs of one sample are not independent) and the t interval is used;
* a metric that is the mean of a declared per-sample score (a details field
  with the metric's own name, e.g. ``rouge1`` or ``G-Pass@4_0.5``, or a field
  an evaluator declares in its ``sample_outcome``): the t interval over samples;
* corpus BLEU: a seeded bootstrap over samples, recomputing the corpus
  statistic from the details;
* a summary group: its own aggregate propagated from its inputs —
  ``√(Σ seᵢ²)/m`` (naive average), ``√(Σ wᵢ² seᵢ²)/Σ wᵢ`` (weighted),
  ``√(Σ wᵢ² seᵢ²)`` (sum), nested groups through the dataset cells'
  coefficients, standard deviations and harmonic means by a seeded
  parametric bootstrap;
* anything else — no details, a metric its details do not reproduce
  (``matthews_correlation``, ``auc_score``, ``perf_circular``) — gets *no*
  interval, with the reason.

Rank intervals (:class:`RankBootstrap`, :mod:`assay.stats._ranks`): which
ranks each model could hold on a dataset or a summary group, from a seeded
bootstrap resampling every dataset's samples jointly across models and
recomputing each group as it is defined; with the top models' paired wins,
ties and losses, Holm-corrected across the pairs.

Every rule checks itself: the per-sample values must reproduce the reported
value, or no interval is given.  Unscorable predictions (not extracted, not
judged, not executed) are counted beside each cell from the field the
evaluator declares as marking them (see :func:`unscorable_of`).

The package is mathematics: its functions take parsed results, per-sample
values, counts and mappings, and return plain values; they read no file,
index or config.  Reading a run directory's results, ``.stats`` files and
index for these statistics is :mod:`assay.rundir.statistics` (and, for comparing
two models, :mod:`assay.rundir.compare`).

Example:
    >>> from assay.stats import cell_stat, sample_values
    >>> result = {'accuracy': 75.0, 'details': [{'correct': [True]}] * 3 + [{'correct': [False]}]}
    >>> s = cell_stat(sample_values(result, 'accuracy'), 75.0)
    >>> s.method, round(s.low, 1), round(s.high, 1)
    ('wilson', 30.1, 95.4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assay._discover import lazy_names

if TYPE_CHECKING:
    from assay.stats._align import (
        ALIGN_MODES,
        Alignment,
        SampleIdentity,
        align_samples,
        normalize_text,
        references_agree,
    )
    from assay.stats._columns import SAMPLE_TEXT, PredictionColumns, SampleColumns
    from assay.stats._columns import text as browser_text
    from assay.stats._compare import Comparison, DatasetComparison, example_misalignment, sample_misalignment
    from assay.stats._groups import group_plan, group_stats, group_stats_columns, percent_cell
    from assay.stats._intervals import (
        DEFAULT_BOOTSTRAP,
        DEFAULT_SEED,
        CellStat,
        binomial_two_sided_p,
        bootstrap_interval,
        holm_adjust,
        normal_quantile,
        t_interval,
        t_quantile,
        wilson_interval,
    )
    from assay.stats._paired import PairedResult, paired_compare
    from assay.stats._ranks import (
        DEFAULT_ROUNDS,
        ModelRank,
        PairMatrix,
        RankBootstrap,
        Ranking,
        rank_tiers,
        round_indices,
    )
    from assay.stats._result import ResultStats, StatsOptions, result_stats
    from assay.stats._samples import (
        SampleBlock,
        SampleStore,
        SampleValues,
        base_metric,
        cell_stat,
        correctness_matrix,
        correctness_of,
        field_means,
        outcome_of,
        sample_correctness,
        sample_values,
        values_match,
    )
    from assay.stats._unscorable import NOT_EXECUTED, Unscorable, unscorable_of

#: Each submodule and the names it exports (``exported=defined`` where they differ), imported the first
#: time one of them is asked for.
_WHERE = {
    "_align": ("ALIGN_MODES", "Alignment", "SampleIdentity", "align_samples", "normalize_text", "references_agree"),
    "_columns": ("SAMPLE_TEXT", "PredictionColumns", "SampleColumns", "browser_text=text"),
    "_compare": ("Comparison", "DatasetComparison", "example_misalignment", "sample_misalignment"),
    "_groups": ("group_plan", "group_stats", "group_stats_columns", "percent_cell"),
    "_intervals": (
        "DEFAULT_BOOTSTRAP",
        "DEFAULT_SEED",
        "CellStat",
        "binomial_two_sided_p",
        "bootstrap_interval",
        "holm_adjust",
        "normal_quantile",
        "t_interval",
        "t_quantile",
        "wilson_interval",
    ),
    "_paired": ("PairedResult", "paired_compare"),
    "_ranks": ("DEFAULT_ROUNDS", "ModelRank", "PairMatrix", "RankBootstrap", "Ranking", "rank_tiers", "round_indices"),
    "_result": ("ResultStats", "StatsOptions", "result_stats"),
    "_samples": (
        "SampleBlock",
        "SampleStore",
        "SampleValues",
        "base_metric",
        "cell_stat",
        "correctness_matrix",
        "correctness_of",
        "field_means",
        "outcome_of",
        "sample_correctness",
        "sample_values",
        "values_match",
    ),
    "_unscorable": ("NOT_EXECUTED", "Unscorable", "unscorable_of"),
}

__all__ = [
    "ALIGN_MODES",
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_ROUNDS",
    "DEFAULT_SEED",
    "NOT_EXECUTED",
    "Alignment",
    "CellStat",
    "Comparison",
    "DatasetComparison",
    "ModelRank",
    "PairMatrix",
    "PairedResult",
    "PredictionColumns",
    "RankBootstrap",
    "Ranking",
    "ResultStats",
    "SAMPLE_TEXT",
    "SampleColumns",
    "SampleIdentity",
    "SampleBlock",
    "SampleStore",
    "SampleValues",
    "StatsOptions",
    "Unscorable",
    "align_samples",
    "base_metric",
    "binomial_two_sided_p",
    "bootstrap_interval",
    "browser_text",
    "cell_stat",
    "correctness_matrix",
    "correctness_of",
    "example_misalignment",
    "field_means",
    "format_with_ci",
    "outcome_of",
    "sample_correctness",
    "sample_misalignment",
    "group_plan",
    "group_stats",
    "group_stats_columns",
    "holm_adjust",
    "normal_quantile",
    "normalize_text",
    "paired_compare",
    "percent_cell",
    "rank_tiers",
    "references_agree",
    "result_stats",
    "round_indices",
    "sample_values",
    "t_interval",
    "t_quantile",
    "unscorable_of",
    "values_match",
    "wilson_interval",
]


_getattr = lazy_names(__name__, _WHERE)


def __getattr__(name: str) -> Any:
    return _getattr(name)


def format_with_ci(value: float | None, stat: CellStat | None) -> str:
    """A table cell with its interval, for ``--ci`` text tables: ``'62.00 [52.2, 71.0]'``.

    ``-`` for a missing value; the value alone, followed by `` [n/a]``, when
    there is no interval.

    >>> format_with_ci(62.0, CellStat(62.0, 4.9, 52.21, 70.96, 'wilson'))
    '62.00 [52.21, 70.96]'
    >>> format_with_ci(62.0, CellStat(62.0, reason='no details'))
    '62.00 [n/a]'
    >>> format_with_ci(None, None)
    '-'
    """
    if value is None:
        return "-"
    if stat is None or not stat.has_interval:
        return f"{value:.2f} [n/a]"
    return f"{value:.2f} [{stat.low:.2f}, {stat.high:.2f}]"
