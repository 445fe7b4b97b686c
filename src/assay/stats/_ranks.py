"""Rank intervals: which ranks each model could hold on a dataset or a summary group, and paired wins.

The rounds
    One seeded bootstrap over samples, *joint across models*: round ``r`` of
    dataset ``d`` resamples the sample indices :func:`round_indices` gives for
    ``d`` (seeded by the seed, the dataset's abbr and its sample count), and
    every model with that many samples of ``d`` is resampled at the same
    indices — the samples are paired, so a question that is hard for one model
    is drawn as often for all of them.  Datasets are resampled independently
    of each other; a dataset's metrics share its rounds.  Per round each model's
    dataset value is recomputed (``scale × mean`` of the resampled per-sample
    values: for ``R`` rounds of ``n`` samples the resampling counts ``R × n``
    times the values ``n × models``, one matrix product per dataset — the usual
    datasets of a group, every model's values counts of right answers of the
    same samples, are counted and multiplied a block of datasets at a time, each
    still drawn by its own generator, to the same numbers; with few models
    (their counts of right answers packed into up to four 64-bit words per
    sample) each round's drawn words are summed instead of counting the draws,
    to the same whole numbers; a corpus
    statistic from its summed per-sample statistics), and each summary group
    as the group defines it (:mod:`assay.groups`: naive or weighted average
    — divided by the sum of all the group's weights, as the summary does —,
    sum, population standard deviation, harmonic mean with its clamp, the
    ``transforms`` applied first, nested groups through their own rounds).

Without per-sample values
    A dataset cell whose per-sample values are unknown (no details, a metric
    its details do not reproduce, a corpus statistic whose values were not
    kept) is drawn in each round from ``Normal(value, se²)`` of its cell's
    interval (independently per model, seeded by model and cell); a cell
    without an interval either is held at its value in every round.  The
    model's entry says which (its ``note``), and so does the ranking's.  A
    model with a different number of samples of a dataset than the others is
    resampled at its own indices (not paired), said so too.  A model without
    a value for the ranked cell is left out of the ranking, with the reason.

Ranks
    In each round a model's rank is one plus the number of models with a
    strictly higher value (ties share the better rank, as on a leaderboard;
    higher is better).  ``rank`` is that of the observed values; the rank
    interval ``[rank_low, rank_high]`` holds the central ``confidence`` share
    of the rounds' ranks, widened to whole ranks: ``rank_low`` is the lower
    and ``rank_high`` the higher order statistic at the ``(1 − confidence)/2``
    and ``(1 + confidence)/2`` quantiles of the ranks (NumPy's ``lower`` and
    ``higher`` quantile methods).  The value's interval ``[low, high]`` is
    the percentile interval of the same rounds (linear interpolation).

Ties
    Walking the ranking best first, the best model not yet placed opens a
    *tier* holding every model after it, not yet placed, whose rank interval
    overlaps its own (``rank_low`` ≤ the opener's ``rank_high``).  The first
    tier is thus the leader and every model that could hold a rank the leader
    could hold; each model's ``tier`` is its tier's number, and ``ties`` lists
    the tiers of two models or more.

Paired comparisons
    :meth:`RankBootstrap.pairs` compares the top models of a ranking two by
    two: on a dataset whose two models have per-sample values of the same
    samples, :func:`assay.stats.paired_compare` (McNemar's exact test for
    0/1 outcomes, else a paired bootstrap, whose p-value is at least
    ``1/(rounds + 1)``); otherwise — a summary group, or a cell without
    per-sample values — the joint rounds above give the difference's standard
    error, and the two-sided p-value is that of the difference over it on the
    normal distribution (not bounded below by the number of rounds, so that
    Holm's correction over 45 pairs can still find a clear difference).
    Holm's correction runs across every pair; a pair whose corrected p is
    below ``1 − confidence`` is a win or a loss by the sign of the
    difference, else a tie.

Everything here is a pure function of values, per-sample values and cells;
:func:`assay.rundir.ranking.run_ranking` reads them from a run directory.

Example:
    >>> import numpy as np
    >>> from assay.stats import SampleValues
    >>> sv = lambda flags: SampleValues('binary', np.array(flags, dtype=float), 100.0, 1, 'correct')
    >>> values = {'a': {'d': {'acc': 80.0}}, 'b': {'d': {'acc': 20.0}}, 'c': {'d': {'acc': 20.0}}}
    >>> samples = {('a', 'd', 'acc'): sv([1, 1, 1, 1, 0] * 4), ('b', 'd', 'acc'): sv([0, 0, 0, 0, 1] * 4),
    ...            ('c', 'd', 'acc'): sv([1, 0, 0, 0, 0] * 4)}
    >>> r = RankBootstrap(['a', 'b', 'c'], values, samples, rounds=200).rank('d', 'acc')
    >>> [(m.model, m.rank, m.rank_low, m.rank_high, m.tier) for m in r.models]
    [('a', 1, 1, 1, 1), ('b', 2, 2, 3, 2), ('c', 2, 2, 3, 2)]
    >>> r.ties
    [['b', 'c']]
"""

from __future__ import annotations

import bisect
import math
import warnings
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import DataclassMethods, FrozenMethods
from assay.stats._groups import group_plan
from assay.stats._intervals import DEFAULT_SEED, CellStat, holm_adjust
from assay.stats._paired import paired_compare
from assay.stats._samples import SampleStore, SampleValues, values_match

__all__ = [
    "DEFAULT_ROUNDS",
    "ModelRank",
    "PairMatrix",
    "RankBootstrap",
    "Ranking",
    "rank_tiers",
    "round_indices",
]

#: Rounds of the rank bootstrap unless asked otherwise.
DEFAULT_ROUNDS = 1000

Key = tuple[str, str, str]  # (model, abbr, metric)


def round_indices(abbr: str, n: int, rounds: int, seed: int = DEFAULT_SEED) -> Any:
    """The sample indices each round draws of a dataset of ``n`` samples: an integer array ``(rounds, n)``.

    Seeded by ``seed``, the dataset's abbr and ``n`` only, so that a dataset is
    resampled alike whatever else is ranked.

    >>> round_indices('d', 5, 3).shape, (round_indices('d', 5, 3) == round_indices('d', 5, 3)).all()
    ((3, 5), np.True_)
    """
    import numpy as np

    rng = np.random.default_rng([seed, zlib.crc32(abbr.encode()), n])
    return rng.integers(0, n, (rounds, n), dtype=np.int32 if n < 1 << 31 else np.int64)


def _counts(abbr: str, n: int, rounds: int, seed: int) -> Any:
    """How often each round draws each sample: ``(rounds, n)`` integer counts of :func:`round_indices`."""
    import numpy as np

    idx = round_indices(abbr, n, rounds, seed).astype(np.int64)
    idx += (np.arange(rounds) * n)[:, None]
    return np.bincount(idx.ravel(), minlength=rounds * n).reshape(rounds, n)


@dataclass(repr=False, eq=False)
class ModelRank(FrozenMethods):
    """One model's place in a ranking.

    Attributes:
        value: the model's value of the ranked cell, as summarized.
        low, high: the value's percentile interval over the rounds (``None`` without rounds).
        rank: the rank of ``value`` (1 is best; equal values share the better rank).
        rank_low, rank_high: the rank interval (best and worst rank the rounds allow).
        tier: the number of the model's tier (see :func:`rank_tiers`).
        note: what the rounds could not resample for this model, and how they did without.
    """

    model: str
    value: float
    low: float | None
    high: float | None
    rank: int
    rank_low: int
    rank_high: int
    tier: int
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"model", "value", "low", "high", "rank", "rank_low", "rank_high", "tier"[, "note"]}``."""
        out: dict[str, Any] = {
            "model": self.model, "value": self.value, "low": self.low, "high": self.high, "rank": self.rank,
            "rank_low": self.rank_low, "rank_high": self.rank_high, "tier": self.tier,
        }
        if self.note:
            out["note"] = self.note
        return out


@dataclass(repr=False, eq=False)
class Ranking(DataclassMethods):
    """The models ranked by one cell (a dataset's or a group's metric), best first.

    Attributes:
        abbr, metric: the ranked cell; ``kind``: ``group`` or ``dataset``.
        models: the ranked models, best first (by rank, then the order given).
        ties: the tiers of two models or more, by model name, best first.
        left_out: model → why it is not ranked (no value).
        note: what the ranking rests on, and what it could not resample.
        draws: the rounds' values, ``(rounds, len(models))`` in the order of ``models``.
    """

    abbr: str
    metric: str
    rounds: int
    seed: int
    confidence: float
    models: list[ModelRank] = field(default_factory=list)
    ties: list[list[str]] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)
    note: str | None = None
    draws: Any = field(default=None, repr=False)
    kind: str = "dataset"

    def to_json(self) -> dict[str, Any]:
        """``{"metric", "kind", "rounds", "seed", "confidence", "models", "ties", "note"[, "left_out"]}``."""
        out: dict[str, Any] = {
            "metric": self.metric, "kind": self.kind, "rounds": self.rounds, "seed": self.seed, "confidence": self.confidence,
            "models": [m.to_json() for m in self.models], "ties": [list(t) for t in self.ties], "note": self.note,
        }
        if self.left_out:
            out["left_out"] = [{"model": m, "reason": r} for m, r in self.left_out.items()]
        return out


@dataclass(repr=False, eq=False)
class PairMatrix(DataclassMethods):
    """Paired comparisons of the top models of a ranking: row model against column model.

    ``cells[i][j]`` is ``{"result": "win"|"tie"|"loss", "p": Holm-corrected p, "delta": value_i − value_j,
    "test": …}`` from row ``i``'s side, ``None`` on the diagonal and for a pair that cannot be tested
    (``note`` says why).
    """

    by: str
    metric: str
    models: list[str]
    cells: list[list[dict[str, Any] | None]]
    confidence: float
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"by", "metric", "models", "cells", "confidence", "correction", "note"}``."""
        return {"by": self.by, "metric": self.metric, "models": list(self.models),
                "cells": [[None if c is None else dict(c) for c in row] for row in self.cells],
                "confidence": self.confidence, "correction": "holm", "note": self.note}


def rank_tiers(ranked: Sequence[tuple[str, int, int]]) -> list[list[str]]:
    """The tiers of models given best first as ``(model, rank_low, rank_high)`` (see the module's *Ties*).

    >>> rank_tiers([('a', 1, 2), ('b', 1, 3), ('c', 3, 4), ('d', 4, 4)])
    [['a', 'b'], ['c', 'd']]
    """
    # Every model before the opener is placed, so the candidates are the unplaced models whose rank_low is
    # at most the opener's rank_high; the next opener's rank_low (hence rank_high) is higher still, so one
    # pass over the models sorted by rank_low finds every tier.
    by_low = sorted(range(len(ranked)), key=lambda i: (ranked[i][1], i))
    placed = [False] * len(ranked)
    tiers: list[list[str]] = []
    at = 0
    for i, (_, _, high) in enumerate(ranked):
        if placed[i]:
            continue
        placed[i] = True
        members = [i]
        while at < len(by_low) and ranked[by_low[at]][1] <= high:
            j = by_low[at]
            at += 1
            if not placed[j]:
                placed[j] = True
                members.append(j)
        tiers.append([ranked[j][0] for j in sorted(members)])
    return tiers


def _competition_ranks(x: Any) -> Any:
    """Per row of ``x`` (rounds × models), each model's rank: 1 + the number of strictly higher values (NaN last)."""
    import numpy as np

    neg = np.where(np.isnan(x), np.inf, -x)
    order = np.argsort(neg, axis=1)
    ordered = np.take_along_axis(neg, order, axis=1)
    rows, cols = x.shape
    start = np.zeros((rows, cols), dtype=np.int64)
    if cols > 1:
        start[:, 1:] = np.where(ordered[:, 1:] != ordered[:, :-1], np.arange(1, cols), 0)
        np.maximum.accumulate(start, axis=1, out=start)
    ranks = np.empty((rows, cols), dtype=np.int64)
    np.put_along_axis(ranks, order, start + 1, axis=1)
    return ranks


def _rank_bounds(ranks: Any, confidence: float, tmp: Any = None) -> tuple[Any, Any]:
    """Per column, the lower order statistic at (1 − confidence)/2 and the higher one at (1 + confidence)/2.

    ``tmp``: an int64 array of the shape of ``ranks`` to work in (default: a new one).
    """
    import numpy as np

    rounds, cols = ranks.shape
    # each model's histogram of ranks (rank × model), then the first rank whose running count passes each place
    tmp = np.subtract(ranks, 1, out=tmp, dtype=np.int64)
    tmp *= cols
    tmp += np.arange(cols)
    return _bound_places(np.bincount(tmp.ravel(), minlength=cols * cols).reshape(cols, cols), rounds, confidence)


class _Transform:
    """A group's transform on every round's value (a failing value becomes NaN)."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def __call__(self, x: Any) -> Any:
        import numpy as np

        from assay.groups import TransformError

        flat = x.ravel()
        out = np.empty(flat.shape)
        cache: dict[float, float] = {}
        for i, v in enumerate(flat.tolist()):
            got = cache.get(v)
            if got is None:
                try:
                    got = self.fn(v)
                except TransformError:
                    got = math.nan
                cache[v] = got
            out[i] = got
        return out.reshape(x.shape)


@dataclass(repr=False, eq=False)
class _Bucket(DataclassMethods):
    """The models of a dataset with ``n`` samples, drawn together: their per-sample values (``n × models``)."""

    n: int
    cols: list[int]
    units: Any = None  # scaled per-sample values, float64
    levels: Any = None  # per-sample counts of right answers over the runs, float32 (then ``units`` is unset)
    level_scale: float = 1.0  # a round's value = its summed levels × level_scale
    top: int = 0  # the largest summed level a round can reach


@dataclass(repr=False, eq=False)
class _DatasetPlan(DataclassMethods):
    """How each model's values of one dataset cell are drawn."""

    fixed: list[tuple[int, float]] = field(default_factory=list)  # (column, value held)
    normal: list[tuple[int, float, float, int]] = field(default_factory=list)  # (column, value, se, seed key)
    buckets: list[_Bucket] = field(default_factory=list)
    corpus: list[tuple[int, int, SampleValues]] = field(default_factory=list)  # (n, column, values)
    notes: dict[str, list[str]] = field(default_factory=dict)


@dataclass(repr=False, eq=False)
class _Usual(DataclassMethods):
    """A usual dataset cell (:meth:`RankBootstrap._usual`): every model's value and per-sample values (``svs``,
    or ``units``: their units at once, one row a model, when a :class:`~assay.stats.SampleStore` block holds them)."""

    abbr: str
    metric: str
    n: int
    runs: int
    scale: float
    values: list[float]
    svs: list[SampleValues] | None
    units: Any = None

    def matrix(self) -> Any:
        """The models' units, ``(models, samples)`` float64."""
        import numpy as np

        return self.units if self.units is not None else np.array([sv.units for sv in self.svs or ()], dtype=float)


@dataclass(repr=False, eq=False)
class _Capture(DataclassMethods):
    """The dataset cells to rank as their rounds are drawn, and the rankings made."""

    wanted: set[tuple[str, str]]
    keep: Any = None  # the cells whose rankings keep their rounds' values (None: all)
    done: dict[tuple[str, str], Ranking] = field(default_factory=dict)


def _level_rank_bounds(levels: Any, top: int, confidence: float, tmp: Any, keys: Any) -> tuple[Any, Any]:
    """:func:`_rank_bounds` of the :func:`_competition_ranks` of whole-number levels in ``[0, top]``, from each
    round's histogram of levels, without the ranks themselves.

    ``tmp`` and ``keys``: int64 arrays of the shape of ``levels`` to work in.
    """
    import numpy as np

    rounds, cols = levels.shape
    # level-major histograms (level × round): the running sums over levels run across all rounds at once
    flat = np.multiply(levels, rounds, out=tmp)
    flat += np.arange(rounds)[:, None]
    hist = np.bincount(flat.ravel(), minlength=(top + 1) * rounds).reshape(top + 1, rounds)
    _running_sum(hist)
    # a level's rank − 1 is the number of models strictly above it: cols − the models at or below it; each
    # (round, model) then looks up its place in the rank × model histogram, (rank − 1) × cols + model
    np.subtract(cols, hist, out=hist)
    hist *= cols
    np.take(hist.ravel(), flat.ravel(), out=keys.reshape(-1), mode="clip")
    keys += np.arange(cols)
    return _bound_places(np.bincount(keys.ravel(), minlength=cols * cols).reshape(cols, cols), rounds, confidence)


def _running_sum(hist: Any) -> None:
    """``hist`` replaced by its running sums down the rows (``np.cumsum(hist, axis=0)``, exact for integers); row
    by row when the rows are long, where it is faster than NumPy's accumulation down a C-ordered array."""
    import numpy as np

    if hist.shape[1] < 64:
        np.cumsum(hist, axis=0, out=hist)
        return
    for i in range(1, len(hist)):
        np.add(hist[i - 1], hist[i], out=hist[i])


def _bound_places(hist: Any, rounds: int, confidence: float) -> tuple[Any, Any]:
    """The lower order statistic at (1 − confidence)/2 and the higher one at (1 + confidence)/2 of each column's
    ranks, from their histogram (rank − 1 × column)."""
    import numpy as np

    alpha = (1 - confidence) / 2
    cum = np.cumsum(hist, axis=0)
    low = np.argmax(cum > math.floor(alpha * (rounds - 1)), axis=0) + 1
    high = np.argmax(cum > math.ceil((1 - alpha) * (rounds - 1)), axis=0) + 1
    return low, high


def _level_percentiles(levels: Any, top: int, scale: float, confidence: float, tmp: Any = None) -> tuple[Any, Any]:
    """:func:`_percentiles` of whole-number levels in ``[0, top]`` (values ``level × scale``), by each column's
    histogram; ``tmp``: an int64 array of the shape of ``levels`` to work in."""
    import numpy as np

    rounds, cols = levels.shape
    flat = np.multiply(levels, cols, out=tmp)
    flat += np.arange(cols)
    hist = np.bincount(flat.ravel(), minlength=(top + 1) * cols).reshape(top + 1, cols)
    cum = np.cumsum(hist, axis=0)
    alpha = (1 - confidence) / 2
    out = []
    for q in (alpha, 1 - alpha):
        pos = q * (rounds - 1)
        below = math.floor(pos)
        above = min(below + 1, rounds - 1)
        at_below = np.argmax(cum > below, axis=0)
        at_above = np.argmax(cum > above, axis=0)
        out.append((at_below + (pos - below) * (at_above - at_below)) * scale)
    return out[0], out[1]


#: Products smaller than this (multiply-adds) are computed in row blocks small enough for the BLAS to
#: keep to the calling thread: threads woken for a product this small cost more than they save, and
#: spin on a busy machine.
_SMALL_PRODUCT = 64_000_000
#: Multiply-adds per block of a small product (under OpenBLAS's threshold for threading).
_BLOCK_WORK = 200_000


def _product(a: Any, b: Any, out: Any = None) -> Any:
    """``a @ b``; a small product in row blocks computed in this thread (see :data:`_SMALL_PRODUCT`)."""
    import numpy as np

    rows, inner = a.shape
    cols = b.shape[1]
    work = rows * inner * cols
    if out is None:
        out = np.empty((rows, cols), dtype=np.result_type(a, b))
    if work >= _SMALL_PRODUCT or work <= _BLOCK_WORK:
        return np.matmul(a, b, out=out)
    step = max(1, _BLOCK_WORK // max(1, inner * cols))
    for start in range(0, rows, step):
        np.matmul(a[start:start + step], b, out=out[start:start + step])
    return out


#: Rounds × (models + samples) of the datasets drawn together in one block (see :meth:`RankBootstrap._blocks`;
#: 13 datasets of 100 models × 50 samples at 1,000 rounds): about 40 MB of arrays at most; a block of one
#: dataset is drawn by itself.
_BLOCK_VALUES = 2_000_000


def _stacked_product(a: Any, b: Any, out: Any) -> Any:
    """``a @ b`` of stacked matrices (``(d, rows, inner) @ (d, inner, cols)`` into ``out``), each product as
    :func:`_product` computes it (small ones in row blocks, in this thread)."""
    import numpy as np

    _, rows, inner = a.shape
    cols = b.shape[2]
    work = rows * inner * cols
    if work >= _SMALL_PRODUCT or work <= _BLOCK_WORK:
        return np.matmul(a, b, out=out)
    step = max(1, _BLOCK_WORK // max(1, inner * cols))
    for start in range(0, rows, step):
        np.matmul(a[:, start:start + step], b, out=out[:, start:start + step])
    return out


#: The most 64-bit words a dataset's levels are packed into for :func:`_packed_sums` (more: the counts and a
#: matrix product are cheaper); fewer for few samples (see :func:`_packing`).
_PACKED_WORDS = 4
#: Drawn samples gathered at a time by :func:`_packed_sums` (about 2 MB of int64: kept in the cache).
_GATHER_VALUES = 1 << 18


def _packing(top: int, models: int, n: int) -> int | None:
    """How many models' levels one 64-bit word holds when every round's sum of a model's levels is at most ``top``
    (each model a digit of base ``top + 1``, at least 2: a word's sums over a round's draws carry into no other
    model's digit and stay below 2⁶³), or ``None`` when the models take more words than pay for ``n`` samples:
    :data:`_PACKED_WORDS`, but two under 512 samples and one under 128 (where counting the draws is cheap)."""
    base = max(top, 1) + 1  # (no model right anywhere: every sum 0, any base)
    per = 0
    while base ** (per + 1) <= 1 << 63:
        per += 1
    words = min(_PACKED_WORDS, 1 if n < 128 else 2 if n < 512 else 4)
    if per == 0 or -(-models // per) > words:
        return None
    return per


def _packed_sums(levels: Any, top: int, per: int, drawn: Any, out: Any, space: _Space) -> Any:
    """Each round's sum of each model's levels at the drawn sample indices, into ``out`` (float32, ``rounds ×
    models``): what the rounds' counts of the samples times ``levels`` (``samples × models``, whole numbers; a
    round's sums at most ``top``; ``per`` models a word, :func:`_packing`) give, exactly, without the counts — the
    models' levels packed into a few 64-bit words per sample, each round's drawn words summed, the sums
    unpacked.  ``drawn``: :func:`round_indices` (``rounds × samples``)."""
    import numpy as np

    rounds, n = drawn.shape
    models = levels.shape[1]
    base = max(top, 1) + 1  # as _packing counts
    step = max(1, min(rounds, _GATHER_VALUES // max(1, n)))
    gathered = space.get("gathered", (step, n), np.int64)
    sums = space.get("sums", (rounds,), np.int64)
    rest = space.get("rest", (rounds,), np.int64)
    whole = np.asarray(levels, dtype=np.int64)
    for first in range(0, models, per):
        cols = range(first, min(first + per, models))
        code = whole[:, cols[0]].copy()
        for power, j in enumerate(cols[1:], 1):
            code += whole[:, j] * base ** power
        for at in range(0, rounds, step):
            end = min(at + step, rounds)
            np.take(code, drawn[at:end], out=gathered[:end - at], mode="clip")  # in range: clip is the fast path
            np.sum(gathered[:end - at], axis=1, out=sums[at:end])
        for j in cols:
            np.divmod(sums, base, out=(sums, rest))
            out[:, j] = rest
    return out


class _Space:
    """Arrays reused from one dataset to the next (a fresh large array costs a page fault per 4 KiB)."""

    def __init__(self) -> None:
        self._arrays: dict[str, Any] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: Any) -> Any:
        import numpy as np

        a = self._arrays.get(name)
        if a is None or a.shape != shape or a.dtype != dtype:
            a = self._arrays[name] = np.empty(shape, dtype=dtype)
        return a

    def rows(self, name: str, shape: tuple[int, ...], dtype: Any) -> Any:
        """An array of ``shape`` that is the first rows of one kept as long as the rows' shape is the same."""
        import numpy as np

        a = self._arrays.get(name)
        if a is None or a.shape[1:] != shape[1:] or a.dtype != dtype or len(a) < shape[0]:
            a = self._arrays[name] = np.empty(shape, dtype=dtype)
        return a[:shape[0]]


def _percentiles(x: Any, confidence: float) -> tuple[Any, Any, Any]:
    """Per column of ``x``: the percentile interval (linear interpolation) over its finite values, and
    whether it has any."""
    import numpy as np

    alpha = (1 - confidence) / 2
    finite = np.isfinite(x)
    if finite.all():
        ordered = np.sort(x, axis=0)
        rounds = len(ordered)
        out = []
        for q in (alpha, 1 - alpha):
            pos = q * (rounds - 1)
            below = math.floor(pos)
            above = min(below + 1, rounds - 1)
            out.append(ordered[below] + (pos - below) * (ordered[above] - ordered[below]))
        return out[0], out[1], np.ones(x.shape[1], dtype=bool)
    has = finite.any(axis=0)
    with warnings.catch_warnings():  # a column of NaN alone has no interval
        warnings.simplefilter("ignore", RuntimeWarning)
        qs = np.nanquantile(np.where(finite, x, np.nan), [alpha, 1 - alpha], axis=0)
    return qs[0], qs[1], has


class RankBootstrap:
    """The joint bootstrap of one set of models, ranking any dataset or group cell they have.

    Args:
        models: the model columns, in the order ties keep.
        values: model → abbr (dataset or group) → metric → value, as summarized.
        samples: (model, dataset abbr, metric) → its per-sample values, where known.
        cells: (model, dataset abbr, metric) → the cell's :class:`CellStat` (the fallback's interval).
        groups: the summary groups (:class:`assay.groups.SummaryGroup`), to recompute group cells.
        metrics: abbr → its metrics in display order (bare groups aggregate primary metrics).
        rounds, seed, confidence: the bootstrap's settings.

    Group rounds are kept once computed (per set of models), so that ranking
    nested groups computes each inner group once.
    """

    def __init__(
        self,
        models: Sequence[str],
        values: Mapping[str, Mapping[str, Mapping[str, float]]],
        samples: Mapping[Key, SampleValues],
        cells: Mapping[Key, CellStat] | None = None,
        groups: Sequence[Any] = (),
        metrics: Mapping[str, Sequence[str]] | None = None,
        *,
        rounds: int = DEFAULT_ROUNDS,
        seed: int = DEFAULT_SEED,
        confidence: float = 0.95,
    ) -> None:
        if rounds < 2:
            raise ValueError(f"a rank bootstrap needs at least 2 rounds, got {rounds}")
        if not 0 < confidence < 1:
            raise ValueError(f"the confidence must lie between 0 and 1, got {confidence}")
        self.models = list(models)
        self.values = values
        self.samples = samples
        self.cells = cells if cells is not None else {}
        self.groups = {g.name: g for g in groups}
        self.metrics = metrics if metrics is not None else {}
        self.rounds, self.seed, self.confidence = rounds, seed, confidence
        self._plans: dict[str, dict[str, list[tuple[str, str | None]]]] = {}
        self._group_draws: dict[tuple[str, str, tuple[str, ...]], tuple[Any, dict[str, list[str]]]] = {}
        self._capture: _Capture | None = None
        self._ranked_cells: dict[tuple[str, str], tuple[list[str], list[float], dict[str, str]]] = {}
        self._space = _Space()
        self._block_spaces: list[_Space] = []  # the arrays of the blocks of datasets, one per depth of groups
        self._depth = 0

    # -- values ---------------------------------------------------------------------------------
    def value(self, model: str, abbr: str, metric: str) -> float | None:
        """The summarized value of one cell, or ``None``."""
        v = self.values.get(model, {}).get(abbr, {}).get(metric)
        return None if v is None or not math.isfinite(v) else float(v)

    def _cell_values(self, abbr: str, metric: str, models: Sequence[str]) -> list[float | None]:
        """:meth:`value` of one cell for each of ``models``."""
        out: list[float | None] = []
        empty: Mapping[str, Any] = {}
        values = self.values
        isfinite = math.isfinite
        for model in models:
            v = values.get(model, empty).get(abbr, empty).get(metric)
            out.append(None if v is None or not isfinite(v) else float(v))
        return out

    def _plan(self, group: Any) -> dict[str, list[tuple[str, str | None]]]:
        plan = self._plans.get(group.name)
        if plan is None:
            # an input listed twice counts once, as the summary computes it
            plan = {m: list(dict.fromkeys(inputs)) for m, inputs in group_plan(group, self.metrics).items()}
            self._plans[group.name] = plan
        return plan

    def draws(self, abbr: str, metric: str, models: Sequence[str]) -> tuple[Any, dict[str, list[str]]]:
        """The rounds' values of one cell for ``models``: ``(rounds, len(models))``, and per model its notes.

        A dataset's array may be reused by the next call: copy it to keep it.
        """
        group = self.groups.get(abbr)
        if group is None:
            return self._dataset_cell(abbr, metric, models, self._dataset_draws(abbr, metric, models))
        key = (abbr, metric, tuple(models))
        if key not in self._group_draws:
            self._group_draws[key] = self._aggregate(group, metric, models)
        return self._group_draws[key]

    def _dataset_cell(self, abbr: str, metric: str, models: Sequence[str], drawn: tuple[Any, Any, Any],
                      ) -> tuple[Any, dict[str, list[str]]]:
        """A dataset cell's rounds ``drawn`` (``(x, notes, levels)``: :meth:`_dataset_draws`), ranked here when
        they are its own ranking's; ``(x, notes)``."""
        import numpy as np

        x, notes, levels = drawn
        capture = self._capture
        if capture is not None and (abbr, metric) in capture.wanted and (abbr, metric) not in capture.done:
            ranked, observed, left_out = self._ranked(abbr, metric)
            if list(models) == ranked:  # the dataset's own ranking, from the same rounds
                if levels is not None:  # the rounds' summed levels, as whole numbers
                    whole = self._space.get("levels", levels[0].shape, np.int64)
                    np.copyto(whole, levels[0], casting="unsafe")
                    levels = (whole, *levels[1:])
                capture.done[(abbr, metric)] = self._build(abbr, metric, ranked, observed, left_out, x, notes, levels)
        return x, notes

    def _usual(self, abbr: str, metric: str, models: Sequence[str]) -> _Usual | None:
        """The dataset cell when it is the usual one — every model has a value and non-corpus per-sample values
        of the same ``n`` samples, with the same runs and scale — else ``None``."""
        known = self._ranked_cells.get((abbr, metric))
        capture = self._capture
        if known is None and capture is not None and (abbr, metric) in capture.wanted and (abbr, metric) not in capture.done:
            known = self._ranked(abbr, metric)  # its own ranking's values, read once for both
        if known is not None and known[0] == list(models):
            values: list[float | None] = list(known[1])
        else:
            values = self._cell_values(abbr, metric, models)
        if None in values:
            return None
        store = self.samples
        if isinstance(store, SampleStore):  # every model's values alike, in one block: their units at once
            held = store.block(abbr, metric, models)
            if held is not None and held[0].kind != "corpus" and held[1].ndim == 2 and held[1].shape[1] >= 1:
                block, units = held
                return _Usual(abbr, metric, units.shape[1], block.runs, block.scale, values, None,  # type: ignore[arg-type]
                              units)
        get = self.samples.get
        found = [get((model, abbr, metric)) for model in models]
        first = found[0] if found else None
        if first is None or None in values:
            return None
        n, runs, scale, shape = len(first.units), first.runs, first.scale, getattr(first.units, "shape", None)
        if n < 1 or shape != (n,):
            return None
        for sv in found:
            if (sv is None or sv.kind == "corpus" or sv.runs != runs or sv.scale != scale
                    or getattr(sv.units, "shape", None) != shape):
                return None
        svs: list[SampleValues] = found  # type: ignore[assignment]
        return _Usual(abbr, metric, n, runs, scale, values, svs)  # type: ignore[arg-type]

    def _blocks(self, cells: Sequence[tuple[str, str]], models: Sequence[str], space: _Space,
                ) -> Any:
        """``((abbr, metric), (x, notes, levels))`` of each dataset cell of ``cells`` in order, as
        :meth:`_dataset_draws` gives them (the same numbers).

        The usual datasets (every model's per-sample values counts of right answers of the same samples, that
        give its value) are drawn together, a block of them at a time (:data:`_BLOCK_VALUES`): each dataset's
        rounds drawn by its own generator (:func:`round_indices`), then one count of the draws, one stacked
        matrix product and one scaling per block (with few models, each cell's :func:`_packed_sums` instead of the
        count and the product).  The other cells, and a block of one dataset, are drawn one
        by one.  A block's arrays are reused by the next block: each cell's are to be used before the next is
        taken.
        """
        import numpy as np

        rounds, k = self.rounds, len(models)
        at = 0
        while at < len(cells):
            block: list[tuple[tuple[str, str], _Usual | None]] = []
            budget = 0
            while at < len(cells):
                abbr, metric = cells[at]
                usual = self._usual(abbr, metric, models) if k else None
                cost = rounds * (k + usual.n) if usual is not None else 0
                if block and usual is not None and budget + cost > _BLOCK_VALUES:
                    break
                block.append((cells[at], usual))
                budget += cost
                at += 1
            by_n: dict[int, list[_Usual]] = {}
            for _, usual in block:
                if usual is not None:
                    by_n.setdefault(usual.n, []).append(usual)
            drawn: dict[tuple[str, str], tuple[Any, Any, Any]] = {}
            together = sum(len(same) for same in by_n.values() if len(same) > 1)
            if together:
                # the rounds' sums and values of the whole block, each sample count's cells in their own rows
                summed = space.rows("summed", (together, rounds, k), np.float32)
                x = space.rows("x", (together, rounds, k), np.float64)
                row = 0
                for same in by_n.values():
                    if len(same) > 1:
                        drawn.update(self._draw_block(same, space, summed[row:row + len(same)],
                                                      x[row:row + len(same)]))
                        row += len(same)
            for cell, _ in block:
                got = drawn.get(cell)
                yield cell, got if got is not None else self._dataset_draws(cell[0], cell[1], models)

    def _draw_block(self, cells: Sequence[_Usual], space: _Space, summed_rows: Any, x_rows: Any,
                    ) -> dict[tuple[str, str], tuple[Any, Any, Any]]:
        """The rounds of usual dataset cells of the same sample count drawn together (see :meth:`_blocks`), as
        :meth:`_dataset_draws` gives them: ``(abbr, metric) → (x, notes, levels)``; a cell whose per-sample values
        do not give its value or are not whole counts is left out (drawn by itself).  The rounds' summed levels
        and values are put in the first rows of ``summed_rows`` (float32) and ``x_rows`` (float64), one row
        (``rounds × models``) per cell."""
        import numpy as np

        n, k, rounds = cells[0].n, len(cells[0].values), self.rounds
        units = np.concatenate([c.matrix() for c in cells])  # (cells × models) × samples
        # what _dataset_plan checks, for every cell at once: the per-sample values give the values...
        got = units.mean(axis=1) * np.repeat([float(c.scale) for c in cells], k)
        want = np.array([v for c in cells for v in c.values], dtype=float)
        ok = (np.abs(want - got) <= 1e-6 + 1e-9 * np.abs(want)).reshape(len(cells), k).all(axis=1)
        # ...and are counts of right answers over the runs (exact in float32)
        counted = units * np.repeat([float(c.runs) for c in cells], k)[:, None]
        whole = np.rint(counted)
        ok &= (np.abs(counted - whole).reshape(len(cells), k * n).max(axis=1, initial=0.0) < 1e-9)
        ok &= np.array([c.runs * n < 1 << 24 for c in cells])
        # ...that are never negative, whose rounds' sums stay whole in float32 (a score field's integers may pass
        # the runs: levels up to the largest one, summed over n samples)
        per_cell = whole.reshape(len(cells), k * n)
        ok &= (per_cell.min(axis=1, initial=0.0) >= 0) & (per_cell.max(axis=1, initial=0.0) * n < 1 << 24)
        keep = np.flatnonzero(ok).tolist()
        if len(keep) < 2:
            return {}
        chosen = [cells[i] for i in keep]
        d = len(chosen)
        whole = whole.reshape(len(cells), k, n)[keep]
        levels = np.ascontiguousarray(whole.transpose(0, 2, 1), dtype=np.float32)  # cells × samples × models
        tops = (whole.reshape(d, k * n).max(axis=1, initial=0) * n).tolist()
        scales = [c.scale / (n * c.runs) for c in chosen]
        packing = [per for per in (_packing(int(top), k, n) for top in tops) if per is not None]
        if len(packing) == d:  # few models: each cell's levels summed at its drawn indices, without the counts
            summed = summed_rows[:d]
            for i, c in enumerate(chosen):
                _packed_sums(levels[i], int(tops[i]), packing[i], round_indices(c.abbr, n, rounds, self.seed),
                             summed[i], space)
        else:
            # each cell's rounds from its own generator; the counts of every draw of the block at once
            idx = space.rows("idx", (d, rounds, n), np.int64)
            offsets = (np.arange(d * rounds, dtype=np.int64) * n).reshape(d, rounds, 1)  # each round's place
            for i, c in enumerate(chosen):
                np.add(round_indices(c.abbr, n, rounds, self.seed), offsets[i], out=idx[i])
            counts = space.rows("counts", (d, rounds, n), np.float32)
            counts[...] = np.bincount(idx.ravel(), minlength=d * rounds * n).reshape(d, rounds, n)
            summed = _stacked_product(counts, levels, summed_rows[:d])
        # level × scale in float32, as _dataset_draws multiplies its float32 sums by the Python float scale
        x = np.multiply(summed, np.array(scales, dtype=np.float32)[:, None, None],
                        out=x_rows[:d])
        return {(c.abbr, c.metric): (x[i], {}, (summed[i], int(tops[i]), scales[i])) for i, c in enumerate(chosen)}

    def _dataset_plan(self, abbr: str, metric: str, models: Sequence[str]) -> _DatasetPlan:
        """How each model's values of one dataset cell are drawn."""
        import numpy as np

        plan = _DatasetPlan()
        notes = plan.notes
        fallback: list[tuple[int, str, float, str]] = []  # (column, model, value, why no per-sample values)
        by_n: dict[int, list[tuple[int, float, SampleValues]]] = {}
        known = self._ranked_cells.get((abbr, metric))
        if known is not None and known[0] == list(models):
            cell_values: list[float | None] = list(known[1])
        else:
            cell_values = self._cell_values(abbr, metric, models)
        for j, (model, value) in enumerate(zip(models, cell_values)):
            if value is None:
                plan.fixed.append((j, math.nan))
                notes.setdefault(model, []).append(f"{abbr}@{metric} has no value")
                continue
            sv = self.samples.get((model, abbr, metric))
            if sv is None or (n := len(sv.units)) < 1:
                fallback.append((j, model, value, "no per-sample values" if sv is None else "no samples"))
            elif sv.kind == "corpus" and not values_match(value, estimate := sv.estimate()):
                fallback.append((j, model, value, f"its per-sample values give {estimate:.6g}, not {value:.6g}"))
            else:
                by_n.setdefault(n, []).append((j, value, sv))
        buckets: dict[int, tuple[list[tuple[int, float, SampleValues]], Any]] = {}
        for n, members in by_n.items():
            plain = [(j, v, sv) for j, v, sv in members if sv.kind != "corpus"]
            plan.corpus.extend((n, j, sv) for j, _, sv in members if sv.kind == "corpus")
            if not plain:
                continue
            units = np.array([sv.units for _, _, sv in plain], dtype=float).T  # samples × models
            scales = np.array([sv.scale for _, _, sv in plain])
            got = units.mean(axis=0) * scales
            want = np.array([v for _, v, _ in plain])
            match = np.abs(want - got) <= 1e-6 + 1e-9 * np.abs(want)  # values_match, column by column
            if not match.all():
                for k in np.flatnonzero(~match):
                    j, v, _ = plain[k]
                    fallback.append((j, models[j], v, f"its per-sample values give {got[k]:.6g}, not {v:.6g}"))
                plain = [p for p, ok in zip(plain, match) if ok]
                units, scales = units[:, match], scales[match]
            if plain:
                buckets[n] = (plain, units)
        for j, model, value, problem in fallback:
            stat = self.cells.get((model, abbr, metric))
            reason = (stat.reason if stat is not None and stat.reason else None) or problem
            if stat is not None and stat.se is not None and math.isfinite(stat.se) and stat.se > 0:
                plan.normal.append((j, value, stat.se, zlib.crc32(f"{model}\x00{abbr}\x00{metric}".encode())))
                notes.setdefault(model, []).append(f"{abbr}@{metric} drawn from its interval ({reason})")
            else:
                plan.fixed.append((j, value))
                notes.setdefault(model, []).append(f"{abbr}@{metric} held at its value ({reason})")
        sizes = {n: len(plain) for n, (plain, _) in buckets.items()}
        for n, _, _ in plan.corpus:
            sizes[n] = sizes.get(n, 0) + 1
        if len(sizes) > 1:
            common = max(sizes, key=lambda k: (sizes[k], k))
            apart = [(n, j) for n, (plain, _) in buckets.items() for j, _, _ in plain]
            apart += [(n, j) for n, j, _ in plan.corpus]
            for n, j in sorted(apart, key=lambda t: t[1]):
                if n != common:
                    notes.setdefault(models[j], []).append(
                        f"{abbr} resampled apart: {n} samples where the others have {common}")
        for n, (plain, units) in buckets.items():
            bucket = _Bucket(n, [j for j, _, _ in plain])
            runs = {sv.runs for _, _, sv in plain}
            scale_set = {sv.scale for _, _, sv in plain}
            if len(runs) == 1 and len(scale_set) == 1:
                r = runs.pop()
                counted = units * r
                whole = np.rint(counted)
                if (r * n < 1 << 24 and np.abs(counted - whole).max(initial=0.0) < 1e-9
                        and whole.min(initial=0.0) >= 0 and whole.max(initial=0.0) * n < 1 << 24):
                    # per-sample counts of right answers (or whole scores, never negative): each round's sums are
                    # whole numbers below 2**24, exact in float32
                    bucket.levels = whole.astype(np.float32)
                    bucket.level_scale = scale_set.pop() / (n * r)
                    bucket.top = int(whole.max(initial=0)) * n
            if bucket.levels is None:
                bucket.units = units * np.array([sv.scale for _, _, sv in plain])
            plan.buckets.append(bucket)
        return plan

    def _dataset_draws(self, abbr: str, metric: str, models: Sequence[str]) -> tuple[Any, dict[str, list[str]], Any]:
        """The rounds' values of a dataset cell, the notes, and ``(summed levels, top, level scale)`` when every
        model's values are counts of right answers of the same samples (``None`` otherwise; the summed levels:
        float32 ``(rounds, models)``, whole numbers)."""
        import numpy as np

        plan = self._dataset_plan(abbr, metric, models)
        rounds = self.rounds
        out = np.empty((rounds, len(models)))
        for j, value in plan.fixed:
            out[:, j] = value
        for j, value, se, crc in plan.normal:
            out[:, j] = value + se * np.random.default_rng([self.seed, crc, 1]).standard_normal(rounds)
        levels = None
        counts_of: dict[int, Any] = {}
        space = self._space
        for bucket in plan.buckets:
            whole = len(bucket.cols) == len(models)
            if bucket.levels is not None and whole:
                # the usual dataset, in arrays kept from the last one: the rounds' counts of right answers
                n, k = bucket.n, len(models)
                drawn = round_indices(abbr, n, rounds, self.seed)
                summed = space.get("summed", (rounds, k), np.float32)
                per = _packing(bucket.top, k, n)
                if per is not None:  # few models: their levels summed at the drawn indices, without the counts
                    _packed_sums(bucket.levels, bucket.top, per, drawn, summed, space)
                else:
                    idx = space.get("idx", (rounds, n), np.int64)
                    np.add(drawn, (np.arange(rounds) * n)[:, None], out=idx)
                    c32 = space.get("counts", (rounds, n), np.float32)
                    c32[...] = np.bincount(idx.ravel(), minlength=rounds * n).reshape(rounds, n)
                    _product(c32, bucket.levels, out=summed)
                out = np.multiply(summed, bucket.level_scale, out=space.get("x", (rounds, k), np.float64))
                levels = (summed, bucket.top, bucket.level_scale)
                continue
            counts = counts_of[bucket.n] = _counts(abbr, bucket.n, rounds, self.seed)
            if bucket.levels is not None:
                out[:, bucket.cols] = _product(counts.astype(np.float32), bucket.levels) * bucket.level_scale
            elif whole:
                out = _product(counts.astype(np.float64), bucket.units) / bucket.n
            else:
                out[:, bucket.cols] = _product(counts.astype(np.float64), bucket.units) / bucket.n
        for n, j, sv in plan.corpus:
            counts = counts_of.get(n)
            if counts is None:
                counts = counts_of[n] = _counts(abbr, n, rounds, self.seed)
            assert sv.corpus is not None
            out[:, j] = [sv.corpus(row) for row in counts @ sv.units]
        return out, plan.notes, levels

    def _aggregate(self, group: Any, metric: str, models: Sequence[str]) -> tuple[Any, dict[str, list[str]]]:
        import numpy as np

        from assay.groups import left_sum

        rounds = self.rounds
        plan = self._plan(group)
        inputs = plan.get(metric)
        notes: dict[str, list[str]] = {}
        if not inputs:
            for model in models:
                notes[model] = [f"{group.name} has no metric {metric}"]
            return np.full((rounds, len(models)), np.nan), notes
        how = group.aggregation
        weighted = bool(group.weights) and how in ("mean", "sum")
        acc = np.zeros((rounds, len(models)))
        squares = np.zeros_like(acc) if how == "std" else None
        inverse = np.zeros_like(acc) if how == "harmonic_mean" else None
        clamped = np.zeros_like(acc) if how == "harmonic_mean" else None
        nonpositive = np.zeros(acc.shape, dtype=bool) if how == "harmonic_mean" else None
        datasets = [(abbr, m) for abbr, m in inputs if m is not None and abbr not in self.groups]
        depth = self._depth
        while len(self._block_spaces) <= depth:
            self._block_spaces.append(_Space())
        blocks = self._blocks(datasets, models, self._block_spaces[depth])
        self._depth += 1
        try:
            for abbr, inp_metric in inputs:
                if inp_metric is None:
                    acc[:] = np.nan
                    for model in models:
                        notes.setdefault(model, []).append(f"{abbr} has no metric")
                    continue
                if abbr in self.groups:
                    x, inner = self.draws(abbr, inp_metric, models)
                else:
                    cell, drawn = next(blocks)
                    assert cell == (abbr, inp_metric)
                    x, inner = self._dataset_cell(abbr, inp_metric, models, drawn)
                for model, ns in inner.items():
                    notes.setdefault(model, []).extend(n for n in ns if n not in notes.get(model, []))
                transform = group.transform_for(abbr, inp_metric)
                if transform is not None:
                    x = _Transform(transform)(x)
                if how == "std":
                    assert squares is not None
                    acc += x
                    squares += x * x
                elif how == "harmonic_mean":
                    assert inverse is not None and clamped is not None and nonpositive is not None
                    with np.errstate(divide="ignore", invalid="ignore"):
                        inverse += 1.0 / x
                        clamped += 1.0 / np.maximum(x, 1.0)
                    nonpositive |= x <= 0
                else:
                    w = group.weight_for(abbr, inp_metric) if weighted else 1.0
                    if w == 1:
                        acc += x
                    else:
                        acc += (math.nan if w is None else float(w)) * x
        finally:
            self._depth -= 1
        k = len(inputs)
        if how == "std":
            assert squares is not None
            mean = acc / k
            out = np.sqrt(np.maximum(squares / k - mean * mean, 0.0))
        elif how == "harmonic_mean":
            assert inverse is not None and clamped is not None and nonpositive is not None
            with np.errstate(divide="ignore", invalid="ignore"):
                out = k / np.where(nonpositive, clamped, inverse)
        elif how == "sum":
            out = acc
        else:
            total = float(left_sum(group.weights.values())) if weighted else float(k)
            out = acc / total if total else np.full_like(acc, np.nan)
        return out, notes

    # -- ranking --------------------------------------------------------------------------------
    def _ranked(self, abbr: str, metric: str) -> tuple[list[str], list[float], dict[str, str]]:
        """The models with a value of the cell, their values, and the others with why."""
        key = (abbr, metric)
        if key in self._ranked_cells:
            return self._ranked_cells[key]
        ranked: list[str] = []
        observed: list[float] = []
        left_out: dict[str, str] = {}
        for model, v in zip(self.models, self._cell_values(abbr, metric, self.models)):
            if v is None:
                left_out[model] = f"no value for {abbr}@{metric}"
            else:
                ranked.append(model)
                observed.append(v)
        got = self._ranked_cells[key] = (ranked, observed, left_out)
        return got

    def rank(self, abbr: str, metric: str) -> Ranking:
        """Rank the models by one dataset or group cell (see the module's docstring)."""
        return self.rank_all([(abbr, metric)])[(abbr, metric)]

    def rank_all(self, cells: Sequence[tuple[str, str]], *, keep_draws: Any = None) -> dict[tuple[str, str], Ranking]:
        """Rank the models by each of ``cells`` ((abbr, metric)); the rankings in that order.

        A dataset ranked by itself and as an input of a group ranked here is
        drawn once.  ``keep_draws``: the cells whose rankings keep their rounds'
        values (for :meth:`pairs`; default: all — each is ``rounds × models`` floats).
        """
        import numpy as np

        wanted = list(dict.fromkeys(cells))
        capture = self._capture = _Capture({c for c in wanted if c[0] not in self.groups}, keep_draws)
        try:
            for abbr, metric in sorted(wanted, key=lambda c: c[0] not in self.groups):  # groups first
                if (abbr, metric) in capture.done:
                    continue
                ranked, observed, left_out = self._ranked(abbr, metric)
                if not ranked:
                    empty = Ranking(abbr, metric, self.rounds, self.seed, self.confidence, left_out=dict(left_out),
                                    note=f"no model has a value for {abbr}@{metric}", draws=np.empty((self.rounds, 0)),
                                    kind="group" if abbr in self.groups else "dataset")
                    capture.done[(abbr, metric)] = empty
                    continue
                if abbr in self.groups:
                    x, notes = self.draws(abbr, metric, ranked)
                    capture.done[(abbr, metric)] = self._build(abbr, metric, ranked, observed, left_out, x, notes, None)
                else:
                    self.draws(abbr, metric, ranked)
        finally:
            self._capture = None
            self._group_draws.clear()
            self._ranked_cells.clear()
        return {cell: capture.done[cell] for cell in wanted}

    def _build(self, abbr: str, metric: str, ranked: list[str], observed: list[float], left_out: dict[str, str],
               x: Any, notes: Mapping[str, list[str]], levels: Any) -> Ranking:
        """The ranking of ``ranked`` (values ``observed``) from the rounds' values ``x``."""
        import numpy as np

        ranking = Ranking(abbr, metric, self.rounds, self.seed, self.confidence, left_out=dict(left_out),
                          kind="group" if abbr in self.groups else "dataset")
        ascending = sorted(observed)
        count = len(observed)
        point = [count - bisect.bisect_right(ascending, v) + 1 for v in observed]  # 1 + the values strictly above
        shape = (self.rounds, len(ranked))
        tmp = self._space.get("tmp", shape, np.int64)
        if levels is not None and levels[1] + 1 <= max(1024, 8 * len(ranked)):
            low, high = _level_percentiles(levels[0], levels[1], levels[2], self.confidence, tmp)
            rank_low, rank_high = _level_rank_bounds(levels[0], levels[1], self.confidence, tmp,
                                                     self._space.get("keys", shape, np.int64))
            finite = np.ones(len(ranked), dtype=bool)
        else:
            low, high, finite = _percentiles(x, self.confidence)
            rank_low, rank_high = _rank_bounds(_competition_ranks(x), self.confidence, tmp)
        points, lows, highs = point, rank_low.tolist(), rank_high.tolist()
        low_values, high_values, has = low.tolist(), high.tolist(), finite.tolist()
        order = sorted(range(len(ranked)), key=lambda j: (points[j], j))
        tiers = rank_tiers([(ranked[j], lows[j], highs[j]) for j in order])
        tier_of = {m: t + 1 for t, members in enumerate(tiers) for m in members}
        append = ranking.models.append
        new = object.__new__
        for j in order:
            model = ranked[j]
            note = notes.get(model)
            # ModelRank(...) made without its frozen __setattr__ per field (a ranking of 100 models makes 100)
            entry = new(ModelRank)
            entry.__dict__.update(model=model, value=observed[j], low=low_values[j] if has[j] else None,
                                  high=high_values[j] if has[j] else None, rank=points[j], rank_low=lows[j],
                                  rank_high=highs[j], tier=tier_of[model], note="; ".join(note) if note else None)
            append(entry)
        ranking.ties = [t for t in tiers if len(t) > 1]
        capture = self._capture
        if capture is None or capture.keep is None or (abbr, metric) in capture.keep:
            ranking.draws = x[:, order]  # a copy: x may be an array reused for the next dataset
        ranking.note = self._note(abbr, metric, ranked, notes, left_out)
        return ranking

    def _note(self, abbr: str, metric: str, ranked: Sequence[str], notes: Mapping[str, list[str]],
              left_out: Mapping[str, str]) -> str:
        kind = "group" if abbr in self.groups else "dataset"
        parts = [f"{len(ranked)} models ranked by {abbr}@{metric} ({kind}) over {self.rounds:,} rounds resampling "
                 f"every dataset's samples jointly across models (seed {self.seed})"]
        drawn = sum(1 for ns in notes.values() for n in ns if "drawn from its interval" in n)
        held = sum(1 for ns in notes.values() for n in ns if "held at its value" in n)
        apart = sum(1 for ns in notes.values() for n in ns if "resampled apart" in n)
        if drawn:
            parts.append(f"{drawn} cell{'s' if drawn != 1 else ''} without per-sample values drawn from "
                         "their intervals")
        if held:
            parts.append(f"{held} cell{'s' if held != 1 else ''} without per-sample values or interval "
                         "held at their values")
        if apart:
            parts.append(f"{apart} cell{'s' if apart != 1 else ''} with other sample counts resampled apart")
        if left_out:
            parts.append(f"left out: {', '.join(left_out)} (no value)")
        return "; ".join(parts)

    # -- paired comparisons ---------------------------------------------------------------------
    def pairs(self, ranking: Ranking, top: int = 10) -> PairMatrix:
        """Win / tie / loss of every pair of the ``top`` best models of ``ranking``, Holm-corrected across the pairs."""
        import numpy as np

        chosen = ranking.models[: max(0, top)]
        names = [m.model for m in chosen]
        k = len(names)
        cells: list[list[dict[str, Any] | None]] = [[None] * k for _ in range(k)]
        tested: list[tuple[int, int, float, float, str]] = []  # (i, j, p, delta, test)
        untested: list[str] = []
        is_group = ranking.abbr in self.groups
        for i in range(k):
            for j in range(i + 1, k):
                a, b = chosen[i], chosen[j]
                got = None if is_group else self._paired_test(ranking.abbr, ranking.metric, a.model, b.model)
                if got is None:
                    d = ranking.draws[:, i] - ranking.draws[:, j]
                    d = d[np.isfinite(d)]
                    delta = a.value - b.value
                    if len(d) < 2 or float(d.std()) == 0.0:
                        untested.append(f"{a.model} / {b.model}")
                        continue
                    # the difference over its rounds' standard error, read on the normal distribution
                    z = abs(delta) / float(d.std(ddof=1))
                    got = (min(1.0, math.erfc(z / math.sqrt(2))), delta, "joint-bootstrap")
                tested.append((i, j, *got))
        adjusted = holm_adjust([t[2] for t in tested])
        alpha = 1 - self.confidence
        for (i, j, _, delta, test), p in zip(tested, adjusted):
            significant = p < alpha and delta != 0
            result = ("win" if delta > 0 else "loss") if significant else "tie"
            flipped = {"win": "loss", "loss": "win", "tie": "tie"}[result]
            cells[i][j] = {"result": result, "p": p, "delta": delta, "test": test}
            cells[j][i] = {"result": flipped, "p": p, "delta": -delta, "test": test}
        note = (f"{len(tested)} pairs of the top {k} by {ranking.abbr}@{ranking.metric}; Holm's correction across "
                f"them; significant at {alpha:.2g}")
        if untested:
            note += f"; not testable (no variation in the rounds): {', '.join(untested)}"
        return PairMatrix(ranking.abbr, ranking.metric, names, cells, self.confidence, note)

    def _paired_test(self, abbr: str, metric: str, a: str, b: str) -> tuple[float, float, str] | None:
        """``(p, delta, test)`` of :func:`assay.stats.paired_compare` on a dataset's per-sample values, when both have them."""
        sa, sb = self.samples.get((a, abbr, metric)), self.samples.get((b, abbr, metric))
        va, vb = self.value(a, abbr, metric), self.value(b, abbr, metric)
        if sa is None or sb is None or va is None or vb is None or sa.n != sb.n or sa.n < 2:
            return None
        if not (values_match(va, sa.estimate()) and values_match(vb, sb.estimate())):
            return None
        try:
            r = paired_compare(sa, sb, confidence=self.confidence, resamples=self.rounds, seed=self.seed, interval=False)
        except ValueError:
            return None
        return r.p, va - vb, r.test
