"""Intervals of summary-group cells: each group's *own* estimator, propagated from its inputs.

A cell of a linear group (naive or weighted average, sum) is a linear
combination of dataset cells; its standard error follows exactly from the
dataset cells' standard errors (independent datasets):

* naive average of m inputs: ``√(Σ seᵢ²) / m``;
* weighted average: ``√(Σ wᵢ² seᵢ²) / Σ wᵢ``;
* sum: ``√(Σ wᵢ² seᵢ²)`` (``wᵢ = 1`` without weights).

Nested groups keep the coefficients of every dataset cell, so a dataset used
twice (directly and through an inner group) is counted with its combined
weight, not as two independent inputs.  A ``transforms`` expression is
linearised at the observed value (delta method).  The interval is
``value ± z·se``.

Groups using a standard deviation or a harmonic mean (themselves or below
them) are not linear: their cells are simulated by a seeded parametric
bootstrap — every dataset cell is drawn from ``Normal(value, se²)`` (the
same draws for every group of a model), the group is recomputed on each draw,
and the percentile interval and the draws' standard deviation are reported
(``method='simulated'``).

:func:`group_stats_columns` gives the same cells for every model of a
leaderboard at once: where every group is a linear combination without
transforms and a model's every input has a value and an interval, the
standard errors of all such models are computed together as arrays, with
the same arithmetic in the same order (the same numbers to the last bit).
"""

from __future__ import annotations

import logging
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assay._dataclass import DataclassMethods
from assay.stats._intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, CellStat, normal_quantile

__all__ = ["group_plan", "group_stats", "group_stats_columns"]

logger = logging.getLogger(__name__)

Cell = tuple[str, str]  # (abbr, metric)


@dataclass(repr=False, eq=False)
class _Linear(DataclassMethods):
    coefs: dict[Cell, float]
    #: No transform was applied on the way: the combination has no offset, so the
    #: domains of its dataset cells bound it.
    plain: bool = True


def _percent(stat: CellStat | None) -> bool:
    """Whether a dataset cell is a percentage of correct answers (a Wilson interval within [0, 100])."""
    return stat is not None and percent_cell(stat.method, stat.high)


def percent_cell(method: str | None, high: float | None) -> bool:
    """Whether a cell of this method and upper bound is a percentage of correct answers (see :func:`_percent`).

    >>> percent_cell('wilson', 88.0), percent_cell('wilson', 130.0), percent_cell('t', 88.0)
    (True, False, False)
    """
    return method == "wilson" and high is not None and not high > 100.0 + 1e-9


def _domain(
    lin: _Linear, base: Mapping[Cell, CellStat], percent: Callable[[Cell], bool] | None = None
) -> tuple[float, float] | None:
    """The range a linear group can take when every input is a percentage of correct answers.

    A Wilson cell lies in [0, 100]; a combination without transforms lies in the
    weighted range of its inputs, and its interval is clipped to it.
    ``percent``: whether a cell is such a percentage (default: :func:`_percent` of ``base``'s cell).
    """
    if not lin.plain:
        return None
    if percent is None:
        percent = lambda cell: _percent(base.get(cell))  # noqa: E731
    low = high = 0.0
    for cell, c in lin.coefs.items():
        if not percent(cell):
            return None
        low += min(0.0, 100.0 * c)
        high += max(0.0, 100.0 * c)
    return low, high


def _clip(low: float, high: float, domain: tuple[float, float] | None) -> tuple[float, float]:
    if domain is None:
        return low, high
    return max(low, domain[0]), min(high, domain[1])


@dataclass(repr=False, eq=False)
class _Draws(DataclassMethods):
    draws: Any  # numpy array of shape (resamples,)


def group_plan(group: Any, metrics: Mapping[str, Sequence[str]]) -> dict[str, list[tuple[str, str | None]]]:
    """Output metric → its inputs ``(abbr, metric)``, as the summarizer computes a group.

    Pairs: the group's metric over the listed pairs.  Bare abbrs: every metric
    shared by all subsets (in the first subset's order), then the group's
    metric over each subset's primary (first) metric.

    >>> from assay.groups import SummaryGroup
    >>> g = SummaryGroup.from_config({'name': 'g', 'subsets': ['a', 'b']})
    >>> group_plan(g, {'a': ['accuracy', 'f1'], 'b': ['accuracy']})
    {'accuracy': [('a', 'accuracy'), ('b', 'accuracy')], 'naive_average': [('a', 'accuracy'), ('b', 'accuracy')]}
    """
    if not group.bare:
        return {group.metric: [(s.abbr, s.metric) for s in group.subsets]}
    abbrs = [s.abbr for s in group.subsets]
    first = list(metrics.get(abbrs[0], []))
    others = [set(metrics.get(a, [])) for a in abbrs[1:]]
    shared = [m for m in first if all(m in o for o in others) and m != group.metric]
    plan: dict[str, list[tuple[str, str | None]]] = {m: [(a, m) for a in abbrs] for m in shared}
    plan[group.metric] = [(a, next(iter(metrics.get(a, [])), None)) for a in abbrs]
    return plan


def _derivative(fn: Callable[[float], float], x: float) -> float:
    h = 1e-4 * max(1.0, abs(x))
    return (fn(x + h) - fn(x - h)) / (2 * h)


def group_stats(
    groups: Sequence[Any],
    values: Mapping[str, Mapping[str, float]],
    metrics: Mapping[str, Sequence[str]],
    base: Mapping[Cell, CellStat],
    *,
    column: str = "",
    confidence: float = 0.95,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    plans: Mapping[str, Mapping[str, Sequence[tuple[str, str | None]]]] | None = None,
) -> dict[Cell, CellStat]:
    """Intervals of every group cell of one model.

    Args:
        groups: summary groups (:class:`assay.groups.SummaryGroup`), in order.
        values: abbr → metric → value of this model (datasets and groups), as summarized.
        metrics: abbr → metric names in display order (the first is the primary one).
        base: (dataset abbr, metric) → the dataset cell's :class:`CellStat`.
        column: the model's name (it seeds the simulation, so models do not share draws).
        plans: group name → :func:`group_plan` for these ``metrics`` (they are the same for
            every model of a summary); default: computed here.

    Returns:
        (group name, metric) → :class:`CellStat`, for every group cell that has a value.

    >>> from assay.groups import SummaryGroup
    >>> g = SummaryGroup.from_config({'name': 'g', 'subsets': [['a', 'acc'], ['b', 'acc']]})
    >>> base = {('a', 'acc'): CellStat(60.0, 3.0, 54.0, 66.0, 'wilson'), ('b', 'acc'): CellStat(80.0, 4.0, 72.0, 88.0, 'wilson')}
    >>> s = group_stats([g], {'a': {'acc': 60.0}, 'b': {'acc': 80.0}, 'g': {'naive_average': 70.0}},
    ...                 {'a': ['acc'], 'b': ['acc']}, base)[('g', 'naive_average')]
    >>> s.method, s.se
    ('propagated', 2.5)
    """
    import numpy as np

    z = normal_quantile(0.5 + confidence / 2)
    reps: dict[Cell, _Linear | _Draws | str] = {}
    out: dict[Cell, CellStat] = {}
    normals: dict[Cell, Any] = {}
    # each dataset cell's standard error and whether it is a percentage, looked up in ``base`` once:
    # an outer group of a leaderboard combines hundreds of them, for every model
    ses: dict[Cell, float] = {}
    percents: dict[Cell, bool] = {}

    def percent(cell: Cell) -> bool:
        found = percents.get(cell)
        if found is None:
            found = percents[cell] = _percent(base.get(cell))
        return found

    def normal(cell: Cell) -> Any:
        if cell not in normals:
            key = f"{column}\x00{cell[0]}\x00{cell[1]}".encode()
            rng = np.random.default_rng([seed, zlib.crc32(key)])
            normals[cell] = rng.standard_normal(resamples)
        return normals[cell]

    def rep(cell: Cell) -> _Linear | _Draws | str:
        if cell in reps:
            return reps[cell]
        stat = base.get(cell)
        if stat is None:
            return f"{cell[0]}@{cell[1]} has no statistics"
        if stat.se is None:
            return f"{cell[0]}@{cell[1]} has no interval ({stat.reason or 'unknown'})"
        r = _Linear({cell: 1.0})
        reps[cell] = r
        ses[cell] = stat.se
        percents[cell] = _percent(stat)
        return r

    def se_of(lin: _Linear) -> float:
        total = 0.0
        for cell, c in lin.coefs.items():
            total += (c * ses[cell]) ** 2
        return math.sqrt(total)

    def draws_of(r: _Linear | _Draws, value: float) -> Any:
        if isinstance(r, _Draws):
            return r.draws
        acc = np.full(resamples, value, dtype=float)
        for cell, c in r.coefs.items():
            acc = acc + c * ses[cell] * normal(cell)
        return acc

    for group in groups:
        name = group.name
        have = values.get(name)
        if not have:
            continue
        plan = plans.get(name) if plans is not None else None
        for out_metric, inputs in (plan if plan is not None else group_plan(group, metrics)).items():
            value = have.get(out_metric)
            if value is None:
                continue
            cell = (name, out_metric)
            parts: list[tuple[_Linear | _Draws, float, float]] = []  # (rep, input value, weight)
            problem: str | None = None
            for abbr, metric in inputs:
                if metric is None:
                    problem = f"{abbr} has no metric"
                    break
                x = values.get(abbr, {}).get(metric)
                r = rep((abbr, metric))
                if x is None or isinstance(r, str):
                    problem = r if isinstance(r, str) else f"{abbr}@{metric} has no value"
                    break
                transform = group.transform_for(abbr, metric)
                if transform is not None:
                    if isinstance(r, _Linear):
                        d = _derivative(transform, x)
                        r = _Linear({k: c * d for k, c in r.coefs.items()}, plain=False)
                    else:
                        r = _Draws(np.array([transform(float(v)) for v in r.draws]))
                    x = transform(x)
                w = group.weight_for(abbr, metric) if group.weights else 1.0
                parts.append((r, x, 1.0 if w is None else float(w)))
            if problem is not None:
                reps[cell] = problem
                out[cell] = CellStat(value, method="none", reason=f"an input has no interval: {problem}",
                                     confidence=confidence)
                continue
            how = group.aggregation
            linear = how in ("mean", "sum") and all(isinstance(r, _Linear) for r, _, _ in parts)
            if linear:
                total_w = math.fsum(w for _, _, w in parts)
                norm = total_w if how == "mean" else 1.0
                coefs: dict[Cell, float] = {}
                plain = True
                for r, _, w in parts:
                    assert isinstance(r, _Linear)
                    plain = plain and r.plain
                    for k, c in r.coefs.items():
                        coefs[k] = coefs.get(k, 0.0) + c * w / norm
                lin = _Linear(coefs, plain)
                reps[cell] = lin
                se = se_of(lin)
                basis = f"{len(parts)} inputs, {len(coefs)} dataset cells"
                low, high = _clip(value - z * se, value + z * se, _domain(lin, base, percent))
                out[cell] = CellStat(value, se, low, high, "propagated", basis=basis, confidence=confidence)
                continue
            matrix = np.vstack([draws_of(r, x) for r, x, _ in parts])
            weights = np.array([w for _, _, w in parts])
            with np.errstate(divide="ignore", invalid="ignore"):
                if how == "std":
                    sim = matrix.std(axis=0)
                elif how == "harmonic_mean":
                    # the summary's rule (OpenCompass's): a draw with a value ≤ 0 clamps every value to at least 1
                    inverse = np.where(
                        (matrix > 0).all(axis=0), (1.0 / matrix).sum(axis=0), (1.0 / np.maximum(matrix, 1)).sum(axis=0)
                    )
                    sim = len(parts) / inverse
                elif how == "sum":
                    sim = (matrix * weights[:, None]).sum(axis=0)
                else:
                    sim = (matrix * weights[:, None]).sum(axis=0) / weights.sum()
            finite = sim[np.isfinite(sim)]
            if len(finite) < resamples * 0.9:
                reps[cell] = "the simulation left the aggregate's domain"
                out[cell] = CellStat(value, reason="the simulated inputs leave the aggregate's domain (values ≤ 0)",
                                     confidence=confidence)
                continue
            reps[cell] = _Draws(sim)
            alpha = (1 - confidence) / 2
            lo, hi = np.quantile(finite, [alpha, 1 - alpha])
            out[cell] = CellStat(value, float(finite.std(ddof=1)), float(lo), float(hi), "simulated",
                                 basis=f"{len(parts)} inputs, parametric bootstrap", confidence=confidence,
                                 extra={"resamples": resamples, "seed": seed})
    return out


@dataclass(repr=False, eq=False)
class _Layout(DataclassMethods):
    """The linear groups of a summary, the same for every model: each group cell's dataset coefficients."""

    #: (group name, output metric, its inputs, coefficients by dataset cell, number of inputs), in order
    cells: list[tuple[str, str, Sequence[tuple[str, str | None]], dict[Cell, float], int]]
    #: every dataset cell some group combines, in the order first met
    datasets: list[Cell]
    #: each output cell's domain when all its dataset cells are percentages
    domains: list[tuple[float, float]]


def _linear_layout(groups: Sequence[Any], metrics: Mapping[str, Sequence[str]],
                   plans: Mapping[str, Mapping[str, Sequence[tuple[str, str | None]]]] | None) -> _Layout | None:
    """The coefficients :func:`group_stats` gives every group cell of a model whose inputs all have values
    and intervals, when they do not depend on the model: ``None`` when a group is not a mean or a sum,
    transforms an input, or names an input without a metric."""
    reps: dict[Cell, dict[Cell, float]] = {}
    cells: list[tuple[str, str, Sequence[tuple[str, str | None]], dict[Cell, float], int]] = []
    datasets: dict[Cell, None] = {}
    for group in groups:
        if group.aggregation not in ("mean", "sum"):
            return None
        plan = plans.get(group.name) if plans is not None else None
        for out_metric, inputs in (plan if plan is not None else group_plan(group, metrics)).items():
            parts: list[tuple[dict[Cell, float], float]] = []
            for abbr, metric in inputs:
                if metric is None or group.transform_for(abbr, metric) is not None:
                    return None
                found = reps.get((abbr, metric))
                if found is None:
                    found = reps[(abbr, metric)] = {(abbr, metric): 1.0}
                    datasets[(abbr, metric)] = None
                w = group.weight_for(abbr, metric) if group.weights else 1.0
                parts.append((found, 1.0 if w is None else float(w)))
            total_w = math.fsum(w for _, w in parts)
            norm = total_w if group.aggregation == "mean" else 1.0
            if not norm:  # weights summing to zero: each model's own computation says what happens
                return None
            coefs: dict[Cell, float] = {}
            for r, w in parts:
                for k, c in r.items():
                    coefs[k] = coefs.get(k, 0.0) + c * w / norm
            reps[(group.name, out_metric)] = coefs
            cells.append((group.name, out_metric, inputs, coefs, len(parts)))
    domains = []
    for _, _, _, coefs, _ in cells:
        low = high = 0.0
        for c in coefs.values():
            low += min(0.0, 100.0 * c)
            high += max(0.0, 100.0 * c)
        domains.append((low, high))
    return _Layout(cells, list(datasets), domains)


def group_stats_columns(
    groups: Sequence[Any],
    columns: Sequence[str],
    values: Mapping[str, Mapping[str, Mapping[str, float]]],
    metrics: Mapping[str, Sequence[str]],
    bases: Mapping[str, Mapping[Cell, CellStat]],
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    plans: Mapping[str, Mapping[str, Sequence[tuple[str, str | None]]]] | None = None,
) -> dict[str, dict[Cell, CellStat]]:
    """:func:`group_stats` of every model: column → (group name, metric) → :class:`CellStat`, the same cells.

    When every group is a mean or a sum without transforms, the models whose
    every group cell and every input has a value, and every dataset input an
    interval, are computed together: each dataset cell's standard errors as
    one array over those models, each group cell's standard error summed
    over its dataset cells in :func:`group_stats`'s order.  Other models
    (and every model of a summary with other groups) go through
    :func:`group_stats` one by one.

    Args:
        columns: the models, in order.
        values: column → abbr → metric → value (datasets and groups), as summarized.
        bases: column → (dataset abbr, metric) → the dataset cell's :class:`CellStat`.
        groups, metrics, confidence, resamples, seed, plans: as for :func:`group_stats`.

    >>> from assay.groups import SummaryGroup
    >>> g = SummaryGroup.from_config({'name': 'g', 'subsets': [['a', 'acc'], ['b', 'acc']]})
    >>> base = {('a', 'acc'): CellStat(60.0, 3.0, 54.0, 66.0, 'wilson'), ('b', 'acc'): CellStat(80.0, 4.0, 72.0, 88.0, 'wilson')}
    >>> values = {'a': {'acc': 60.0}, 'b': {'acc': 80.0}, 'g': {'naive_average': 70.0}}
    >>> out = group_stats_columns([g], ['m1', 'm2'], {'m1': values, 'm2': values}, {'a': ['acc'], 'b': ['acc']},
    ...                           {'m1': base, 'm2': base})
    >>> out['m2'][('g', 'naive_average')].se
    2.5
    """
    import numpy as np

    layout = _linear_layout(groups, metrics, plans) if groups else None
    out: dict[str, dict[Cell, CellStat]] = {}
    together: list[str] = []
    ses: list[list[float]] = []  # per model of ``together``: the standard error of each dataset cell
    percents: list[list[bool]] = []
    for column in columns:
        column_values = values.get(column, {})
        row = _clean_inputs(layout, column_values, bases.get(column, {})) if layout is not None else None
        if row is None:
            out[column] = group_stats(groups, column_values, metrics, bases.get(column, {}), column=column,
                                      confidence=confidence, resamples=resamples, seed=seed, plans=plans)
            continue
        out[column] = {}
        together.append(column)
        ses.append(row[0])
        percents.append(row[1])
    if not together:
        return out
    assert layout is not None
    z = normal_quantile(0.5 + confidence / 2)
    where = {cell: i for i, cell in enumerate(layout.datasets)}
    se_of = np.array(ses, dtype=float).T.copy()  # dataset cell × model
    percent_of = np.array(percents, dtype=bool).T.copy()
    found = [out[c] for c in together]
    for (name, out_metric, _, coefs, n), domain in zip(layout.cells, layout.domains):
        total = np.zeros(len(together))
        rows = []
        for k, c in coefs.items():
            i = where[k]
            rows.append(i)
            total = total + (c * se_of[i]) ** 2
        se = np.sqrt(total)
        value = np.array([values[c][name][out_metric] for c in together], dtype=float)
        low, high = value - z * se, value + z * se
        bounded = percent_of[rows].all(axis=0)
        low = np.where(bounded, np.maximum(low, domain[0]), low)
        high = np.where(bounded, np.minimum(high, domain[1]), high)
        basis = f"{n} inputs, {len(coefs)} dataset cells"
        for j, cells in enumerate(found):
            cells[(name, out_metric)] = CellStat(values[together[j]][name][out_metric], float(se[j]), float(low[j]),
                                                 float(high[j]), "propagated", basis=basis, confidence=confidence)
    return out


def _clean_inputs(layout: _Layout, values: Mapping[str, Mapping[str, float]],
                  base: Mapping[Cell, CellStat]) -> tuple[list[float], list[bool]] | None:
    """The standard error and whether it is a percentage of each of ``layout``'s dataset cells for one model,
    ``None`` when a group cell or an input lacks a value or a dataset cell lacks an interval.  A ``base``
    with ``intervals_of(cells)`` (the run's statistics have one) gives both at once."""
    for name, out_metric, inputs, _, _ in layout.cells:
        if values.get(name, {}).get(out_metric) is None:
            return None
        for abbr, metric in inputs:
            if values.get(abbr, {}).get(metric or "") is None:
                return None
    fields = getattr(base, "intervals_of", None)
    if fields is not None:  # a base that reads them without building each cell
        found: tuple[list[float], list[bool]] | None = fields(layout.datasets)
        return found
    ses: list[float] = []
    percents: list[bool] = []
    for cell in layout.datasets:
        stat = base.get(cell)
        if stat is None or stat.se is None:
            return None
        ses.append(stat.se)
        percents.append(_percent(stat))
    return ses, percents
