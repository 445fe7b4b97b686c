"""Which per-sample values stand behind a metric, and the interval they give.

The rule (documented in :mod:`assay.stats`):

* **binary-backed** — the details carry a correctness key (``correct``,
  ``is_correct``, ``cascade_correct``; per run the first one that is not
  null) and the metric equals ``100 × mean(correct)`` over every sample and
  run (a run with no verdict, e.g. a failed judge, counts as not correct,
  as the judge metrics count it).  One run per sample and 0/1 outcomes:
  Wilson interval.  Several runs (or several candidates per run): the
  per-sample mean over runs is the unit, and the t interval of the units'
  mean is used (clustered by sample).
* **score-backed** — a details field *declares* a per-sample score: the
  field has the metric's own name (``rouge1``, ``G-Pass@4_0.5``; the
  ``" (n runs average)"`` suffix is dropped), or the evaluator class lists
  it in its :class:`~assay.evaluate.SampleOutcome` (``sample_outcome``, recorded
  in the result's ``_meta.outcome`` when it was scored).  The metric must equal the mean of that
  field (× 1 or × 100).  Interval: t over the per-sample means.
* **corpus** — BLEU (``BleuEvaluator``'s ``score``): the corpus statistic is
  recomputed from the details' ``pred``/``answer``; when it reproduces the
  reported value (trying the usual tokenizer settings), a seeded bootstrap
  over samples gives the interval.
* anything else: no interval, with the reason.

Every rule checks itself against the reported value, so a metric that is
not the mean its details suggest (``acc_circular`` counts only some rows,
``matthews_correlation`` is no mean) never gets a made-up interval.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from assay._dataclass import DataclassMethods
from assay.evaluate.base import CORPUS_BLEU, CORRECTNESS_KEYS, SampleOutcome
from assay.stats._details import Details
from assay.stats._intervals import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    CellStat,
    bootstrap_interval,
    t_interval,
    wilson_interval,
)

__all__ = [
    "CORRECTNESS_KEYS",
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
]

logger = logging.getLogger(__name__)


_RUNS_SUFFIX = re.compile(r" \((\d+) runs average\)$")
_BLEU_SETTINGS: tuple[tuple[str, bool], ...] = (
    ("13a", False),
    ("13a", True),
    ("zh", False),
    ("intl", False),
    ("char", False),
    ("none", False),
)


def base_metric(metric: str) -> str:
    """The metric name without its ``" (<n> runs average)"`` suffix.

    >>> base_metric('accuracy (4 runs average)')
    'accuracy'
    """
    return _RUNS_SUFFIX.sub("", metric)


def values_match(reported: float, recomputed: float, decimals: int | None = None) -> bool:
    """True when two values of a metric agree up to float rounding, or, for a metric
    reported rounded to ``decimals`` decimals, up to half a unit of its last decimal.

    >>> values_match(33.33333333333333, 100 / 3), values_match(50.0, 50.01), values_match(33.33, 100 / 3, decimals=2)
    (True, False, True)
    """
    slack = 0.5 * 10.0**-decimals if decimals is not None else 0.0
    return abs(reported - recomputed) <= slack + 1e-6 + 1e-9 * abs(reported)


@dataclass(init=False, repr=False, eq=False)
class SampleValues(DataclassMethods):
    """The per-sample values behind one metric.

    ``kind`` is ``binary`` (0/1 per sample, one run), ``mean`` (per-sample
    means over runs) or ``corpus`` (per-sample sufficient statistics).
    ``units`` holds per-sample values on the field's own scale; the metric is
    ``scale × mean(units)`` (``mean``/``binary``) or ``statistic(stats[idx])``
    (``corpus``).
    """

    kind: Literal["binary", "mean", "corpus"]
    units: Any  # numpy array (n,) or (n, k) for corpus statistics
    scale: float
    runs: int
    basis: str
    corpus: Callable[[Any], float] | None = None

    def __init__(
        self,
        kind: Literal['binary', 'mean', 'corpus'],
        units: Any,
        scale: float,
        runs: int,
        basis: str,
        corpus: Callable[[Any], float] | None = None,
    ) -> None:
        self.kind = kind
        self.units = units
        self.scale = scale
        self.runs = runs
        self.basis = basis
        self.corpus = corpus

    @property
    def n(self) -> int:
        return len(self.units)

    def to_json(self) -> dict[str, Any] | None:
        """The values as JSON, for the statistics file; ``None`` for a corpus statistic (its function does not travel).

        >>> import numpy as np
        >>> sv = SampleValues('binary', np.array([1.0, 0.0]), 100.0, 1, 'correct')
        >>> SampleValues.from_json(sv.to_json()).estimate()
        50.0
        """
        if self.kind == "corpus":
            return None
        return {"kind": self.kind, "units": self.units.tolist(), "scale": self.scale, "runs": self.runs, "basis": self.basis}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SampleValues:
        """The inverse of :meth:`to_json`."""
        import numpy as np

        return cls(data["kind"], np.asarray(data["units"], dtype=float), float(data["scale"]), int(data["runs"]), str(data["basis"]))

    def estimate(self, idx: Any = None) -> float:
        """The metric over the samples ``idx`` (all samples when ``None``)."""
        units = self.units if idx is None else self.units[idx]
        if self.kind == "corpus":
            assert self.corpus is not None
            return self.corpus(units.sum(axis=0))
        return float(self.scale * units.mean())


@dataclass(init=False, repr=False, eq=False)
class SampleBlock(DataclassMethods):
    """The per-sample values of one (dataset, metric) of many models at once, alike but for their units: model
    ``models[i]`` has ``SampleValues(kind, units[i], scale, runs, basis)``; ``units`` is ``(models, samples)``,
    read-only."""

    models: list[str]
    units: Any
    kind: Literal["binary", "mean"]
    scale: float
    runs: int
    basis: str

    def __init__(self, models: list[str], units: Any, kind: Literal["binary", "mean"], scale: float, runs: int,
                 basis: str) -> None:
        self.models = models
        self.units = units
        self.kind = kind
        self.scale = scale
        self.runs = runs
        self.basis = basis


class SampleStore(Mapping[tuple[str, str, str], SampleValues]):
    """Per-sample values by (model, dataset, metric): some one by one, some in :class:`SampleBlock` of a
    (dataset, metric) — a leaderboard's fifty thousand results held as a few hundred arrays; a value of a
    block is made when it is asked for (its units a row of the block's).  :meth:`block` gives a block and its
    units for a list of models at once.

    >>> import numpy as np
    >>> units = np.array([[1.0, 0.0], [1.0, 1.0]])
    >>> store = SampleStore({}, {('d', 'acc'): SampleBlock(['a', 'b'], units, 'binary', 100.0, 1, 'correct')})
    >>> store[('b', 'd', 'acc')].estimate(), len(store), store.get(('c', 'd', 'acc'))
    (100.0, 2, None)
    >>> store.block('d', 'acc', ['b', 'a'])[1].tolist()
    [[1.0, 1.0], [1.0, 0.0]]
    """

    def __init__(self, loose: Mapping[tuple[str, str, str], SampleValues],
                 blocks: Mapping[tuple[str, str], SampleBlock]) -> None:
        self._loose = loose
        self._blocks = blocks
        self._rows = {key: {model: i for i, model in enumerate(block.models)} for key, block in blocks.items()}

    def get(self, key: tuple[str, str, str], default: Any = None) -> Any:
        found = self._loose.get(key)
        if found is not None:
            return found
        rows = self._rows.get((key[1], key[2]))
        i = rows.get(key[0]) if rows is not None else None
        if i is None:
            return default
        block = self._blocks[(key[1], key[2])]
        return SampleValues(block.kind, block.units[i], block.scale, block.runs, block.basis)

    def __getitem__(self, key: tuple[str, str, str]) -> SampleValues:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and len(key) == 3 and self.get(key) is not None

    def __iter__(self) -> Iterator[tuple[str, str, str]]:
        yield from self._loose
        for (abbr, metric), block in self._blocks.items():
            for model in block.models:
                yield model, abbr, metric

    def __len__(self) -> int:
        return len(self._loose) + sum(len(block.models) for block in self._blocks.values())

    def block_of(self, abbr: str, metric: str) -> SampleBlock | None:
        """The block holding (``abbr``, ``metric``), if any."""
        return self._blocks.get((abbr, metric))

    def block(self, abbr: str, metric: str, models: Sequence[str]) -> tuple[SampleBlock, Any] | None:
        """The block of (``abbr``, ``metric``) and the units of ``models`` (each once) in it, one row a model in
        their order, when one block holds all of them; ``None`` otherwise."""
        rows = self._rows.get((abbr, metric))
        if rows is None:
            return None
        at = [rows.get(model) for model in models]
        if None in at or len(set(at)) != len(at):
            return None
        block = self._blocks[(abbr, metric)]
        return block, block.units if at == list(range(len(block.units))) else block.units[at]


def _as_runs(value: Any) -> list[Any]:
    """A details field's per-run values (a scalar is one run)."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _number(value: Any) -> float | None:
    """A per-run value as a number: bools 0/1, a list of candidates their mean; ``None`` when not numeric."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, (list, tuple)):
        nums = [_number(v) for v in value]
        if not nums or any(v is None for v in nums):
            return None
        return math.fsum(v for v in nums if v is not None) / len(nums)
    return None


_BOOL = {bool}


def sample_correctness(detail: Any, keys: tuple[str, ...] = CORRECTNESS_KEYS) -> list[float | None] | None:
    """The verdict rule: one sample's correctness per run, ``None`` when ``detail`` is not a dict.

    Each of ``keys`` holds the sample's per-run values (a scalar is one run);
    per run the first non-null one counts: ``True``/``False`` as 1.0/0.0, a
    number as itself, a list of candidates as the share of them that is
    correct (an empty list as 0.0); a run none of them speaks for is
    ``None``.  The statistics, the extraction audit's verdicts and ``verify``
    all read verdicts through this one rule.

    >>> sample_correctness({'correct': [True, False]}), sample_correctness({'correct': [[True, False]]})
    ([1.0, 0.0], [0.5])
    >>> sample_correctness({'correct': [None], 'is_correct': [True]}), sample_correctness({'pred': 'A'})
    ([1.0], [])
    """
    if not isinstance(detail, dict):
        return None
    if keys is CORRECTNESS_KEYS:  # the usual detail: one verdict field, a list of bools
        given = [k for k in keys if k in detail]
        if len(given) == 1:
            value = detail[given[0]]
            if type(value) is list and set(map(type, value)) == _BOOL:
                return [1.0 if v else 0.0 for v in value]
    columns = [_as_runs(detail[k]) if k in detail else None for k in keys]
    runs = max((len(c) for c in columns if c is not None), default=0)
    row: list[float | None] = []
    for r in range(runs):
        flag: float | None = None
        for c in columns:
            if c is not None and r < len(c) and c[r] is not None:
                flag = _number(c[r])
                if flag is None and isinstance(c[r], (list, tuple)) and not c[r]:
                    flag = 0.0
                break
        row.append(flag)
    return row


def correctness_matrix(details: Sequence[Any], keys: tuple[str, ...] = CORRECTNESS_KEYS) -> list[list[float | None]] | None:
    """Per sample, per run: the correctness by :func:`sample_correctness` (1.0, 0.0, a candidate share, or ``None`` without a verdict).

    ``keys``: the fields holding verdicts, the first non-null one counting.
    ``None`` when no sample carries any of them, or a sample is not a dict.

    >>> correctness_matrix([{'correct': [True, False]}, {'is_correct': [None, True]}])
    [[1.0, 0.0], [None, 1.0]]
    """
    out: list[list[float | None]] = []
    seen = False
    for d in details:
        row = sample_correctness(d, keys)
        if row is None:
            return None
        if row:
            seen = True
        out.append(row)
    return out if seen else None


def correctness_of(details: Any, field: str | None = None) -> Any:
    """The details' correctness, as fast as their layout allows.

    When every entry is a dict carrying one correctness key with the same
    number of runs of ``true``/``false``/``null``: a float array (samples ×
    runs) with no verdict as 0, as every use of the correctness counts it.
    Otherwise the :func:`correctness_matrix` (``None`` when no sample carries
    a correctness key).  ``details`` is a list or a :class:`Details`;
    ``field``: the verdict field the evaluator declares (see
    :func:`outcome_of`), used alone when the details have it.

    >>> correctness_of([{'correct': [True]}, {'correct': [None]}]).tolist()
    [[1.0], [0.0]]
    >>> correctness_of([{'correct': [True]}, {'is_correct': [False, True]}])
    [[1.0], [0.0, 1.0]]
    """
    import numpy as np

    view = details if isinstance(details, Details) else Details(list(details))
    names = (field,) if field is not None and view.present((field,)) else CORRECTNESS_KEYS
    keys = view.present(names)
    if len(keys) == 1 and (flat := view.runs(keys[0])) is not None:
        values, runs = flat
        types = set(map(type, values))
        if types <= {bool}:
            return np.array(values, dtype=float).reshape(view.n, runs)
        if types <= {bool, type(None)}:
            return np.array([v is True for v in values], dtype=float).reshape(view.n, runs)
    return correctness_matrix(view.items, names)


def _field_matrix(details: Sequence[Any], field: str) -> list[list[float | None]] | None:
    out: list[list[float | None]] = []
    for d in details:
        if not isinstance(d, dict) or field not in d:
            return None
        out.append([_number(v) for v in _as_runs(d[field])])
    return out


def _units(matrix: Any, *, none_as_zero: bool) -> tuple[Any, int] | None:
    """Per-sample means over runs and the run count; ``None`` when runs differ or a value is missing.

    ``matrix`` is a list of per-sample rows or an array from :func:`correctness_of`.
    """
    import numpy as np

    if isinstance(matrix, np.ndarray):
        return matrix.mean(axis=1), matrix.shape[1]
    if not matrix:
        return None
    runs = len(matrix[0])
    if runs == 0 or any(len(row) != runs for row in matrix):
        return None
    arr = np.empty((len(matrix), runs))
    for i, row in enumerate(matrix):
        for r, v in enumerate(row):
            if v is None:
                if not none_as_zero:
                    return None
                v = 0.0
            arr[i, r] = v
    return arr.mean(axis=1), runs


def field_means(details: Sequence[Any], field: str) -> Any | None:
    """Per sample, the mean over its runs of the numeric details field ``field`` (a NumPy array).

    ``None`` when a sample lacks the field or a value that is not a number,
    or when the samples' run counts differ.

    >>> field_means([{'f1': [0.5, 1.0]}, {'f1': [0.0, 0.0]}], 'f1').tolist()
    [0.75, 0.0]
    >>> field_means([{'f1': [0.5]}, {'f1': ['n/a']}], 'f1') is None
    True
    """
    matrix = _field_matrix(details, field)
    got = _units(matrix, none_as_zero=False) if matrix is not None else None
    return None if got is None else got[0]


def outcome_of(result: dict[str, Any]) -> SampleOutcome | None:
    """The per-sample fields a result's evaluator declares: ``_meta.outcome`` as recorded when it
    was scored, else what the evaluator class registered under ``_meta.evaluator`` declares now.

    ``None`` when it declares nothing (the usual fields are then looked for).

    >>> outcome_of({'_meta': {'outcome': {'correct': 'is_correct', 'scores': {}}}}).correct
    'is_correct'
    >>> outcome_of({'_meta': {'evaluator': 'BleuEvaluator'}}).scores
    {'score': '<corpus bleu>'}
    """
    meta = result.get("_meta")
    if not isinstance(meta, dict):
        return None
    if "outcome" in meta:
        return SampleOutcome.from_json(meta["outcome"])
    name = meta.get("evaluator")
    if not isinstance(name, str):
        return None
    try:
        from assay.registry import ICL_EVALUATORS

        cls = ICL_EVALUATORS.get(name)
    except Exception:  # an unknown or unregistered evaluator declares nothing
        return None
    return SampleOutcome.of(cls)


def _declared(outcome: SampleOutcome | None, metric: str) -> str | None:
    return None if outcome is None else outcome.scores.get(base_metric(metric))


_UNSET: Any = object()


def sample_values(
    result: dict[str, Any], metric: str, value: float | None = None, *, correct: Any = _UNSET
) -> SampleValues | str:
    """The per-sample values behind ``metric`` of one result, or the reason there are none.

    ``value`` is the reported value (default: ``result[metric]``); ``correct``
    is the details' :func:`correctness_matrix` (or :func:`correctness_of`)
    when the caller already has it.

    >>> r = {'accuracy': 50.0, 'details': [{'correct': [True]}, {'correct': [False]}]}
    >>> sample_values(r, 'accuracy').kind
    'binary'
    >>> sample_values({'accuracy': 75.0, 'details': r['details']}, 'accuracy')
    'accuracy = 75 is not 100 × mean(correct) = 50 of the details'
    """
    import numpy as np

    if value is None:
        raw = result.get(metric)
        if not isinstance(raw, (int, float)) or isinstance(raw, bool):
            return f"{metric} is not a number in the result"
        value = float(raw)
    details = result.get("details")
    if isinstance(details, dict):
        details = list(details.values())
    if not isinstance(details, list) or not details:
        return "the result has no per-sample details"
    reasons: list[str] = []
    base = base_metric(metric)

    outcome = outcome_of(result)
    decimals = outcome.decimals if outcome is not None else None
    declared = _declared(outcome, metric)
    if declared == CORPUS_BLEU:
        return _corpus_bleu(details, value)

    if declared is not None:  # the metric's own per-sample field, not the verdicts
        correct = None
    elif correct is _UNSET:
        correct = correctness_of(details, outcome.correct if outcome is not None else None)
    if correct is not None:
        got = _units(correct, none_as_zero=True)
        if got is None:
            reasons.append("the details' correctness lists differ in length")
        else:
            units, runs = got
            est = 100.0 * float(units.mean())
            if values_match(value, est, decimals):
                binary = runs == 1 and bool(np.all((units == 0) | (units == 1)))
                return SampleValues("binary" if binary else "mean", units, 100.0, runs, "correct")
            reasons.append(f"{metric} = {value:.6g} is not 100 × mean(correct) = {est:.6g} of the details")

    for field in dict.fromkeys(f for f in (declared, metric, base) if f):
        matrix = _field_matrix(details, field)
        if matrix is None:
            continue
        got = _units(matrix, none_as_zero=False)
        if got is None:
            reasons.append(f"details field {field!r} has missing or non-numeric values")
            continue
        units, runs = got
        mean = float(units.mean())
        for scale in (1.0, 100.0):
            if values_match(value, scale * mean, decimals):
                # a percent of 0/1 values is a proportion (a Wilson interval), as a verdict field's is
                binary = scale == 100.0 and runs == 1 and bool(np.all((units == 0) | (units == 1)))
                return SampleValues("binary" if binary else "mean", units, scale, runs, f"details.{field}")
        reasons.append(f"{metric} = {value:.6g} is not the mean of details field {field!r} ({mean:.6g})")
    if not reasons:
        reasons.append(f"no details field backs {metric} (no correctness key, no declared per-sample score)")
    return "; ".join(reasons)


def _reference_list(ref: Any) -> list[str]:
    if isinstance(ref, (list, tuple)):
        refs = [str(r) for r in ref if r is not None]
        return refs or [""]
    return ["" if ref is None else str(ref)]


class _CorpusBleu:
    """Corpus BLEU from summed per-sample statistics (a class, so that it can be pickled)."""

    def __init__(self, bleu: Any) -> None:
        self.bleu = bleu

    def __call__(self, summed: Any) -> float:
        return float(self.bleu._compute_score_from_stats(summed.astype(int).tolist()).score)


def _corpus_bleu(details: list[Any], value: float) -> SampleValues | str:
    """Per-sample BLEU statistics when they reproduce the reported corpus score."""
    import numpy as np

    try:
        from sacrebleu.metrics import BLEU
    except ImportError:
        return "corpus BLEU needs sacrebleu to recompute"
    hyps: list[str] = []
    refs: list[list[str]] = []
    for d in details:
        if not isinstance(d, dict) or "pred" not in d or "answer" not in d:
            return "corpus BLEU: the details lack 'pred' or 'answer'"
        preds, answers = _as_runs(d["pred"]), d["answer"]
        if len(preds) != 1:
            return "corpus BLEU over several runs is not supported"
        if isinstance(answers, list) and len(answers) == 1 and isinstance(answers[0], (list, str)):
            answers = answers[0]
        hyps.append("" if preds[0] is None else str(preds[0]))
        refs.append(_reference_list(answers))
    width = max(len(r) for r in refs)
    streams = [[r[i] if i < len(r) else r[0] for r in refs] for i in range(width)]
    for tokenize, lowercase in _BLEU_SETTINGS:
        try:
            bleu = BLEU(tokenize=tokenize, lowercase=lowercase)
            stats = np.asarray(bleu._extract_corpus_statistics(hyps, streams), dtype=float)
        except Exception as exc:  # a tokenizer missing its optional dependency
            logger.debug("BLEU tokenizer %s unavailable: %s", tokenize, exc)
            continue

        corpus = _CorpusBleu(bleu)
        if values_match(value, corpus(stats.sum(axis=0))):
            basis = f"corpus bleu (tokenize={tokenize}{', lowercase' if lowercase else ''})"
            return SampleValues("corpus", stats, 1.0, 1, basis, corpus=corpus)
    return "corpus BLEU recomputed from the details does not reproduce the reported score"


def cell_stat(
    values: SampleValues | str,
    value: float,
    *,
    confidence: float = 0.95,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> CellStat:
    """The interval of one cell from its per-sample values (see :func:`sample_values`).

    >>> import numpy as np
    >>> sv = SampleValues('binary', np.array([1.0] * 50 + [0.0] * 50), 100.0, 1, 'correct')
    >>> s = cell_stat(sv, 50.0)
    >>> s.method, round(s.low, 2), round(s.high, 2)
    ('wilson', 40.38, 59.62)
    """
    if isinstance(values, str):
        return CellStat(value, reason=values, confidence=confidence)
    n = values.n
    if n < 2:
        return CellStat(value, n=n, runs=values.runs, basis=values.basis, reason="fewer than two samples",
                        confidence=confidence)
    if values.kind == "binary":
        k = round(float(values.units.sum()))
        lo, hi = wilson_interval(k, n, confidence)
        se = values.scale * math.sqrt(k / n * (1 - k / n) / n)
        return CellStat(value, se, values.scale * lo, values.scale * hi, "wilson", n, values.runs, values.basis,
                        confidence=confidence)
    if values.kind == "mean":
        units = [float(u) for u in values.units]
        _, se, half = t_interval(units, confidence)
        s = values.scale
        return CellStat(value, s * se, value - s * half, value + s * half, "t", n, values.runs, values.basis,
                        confidence=confidence)
    se, lo, hi = bootstrap_interval(n, values.estimate, resamples=resamples, seed=seed, confidence=confidence)
    return CellStat(value, se, lo, hi, "bootstrap", n, values.runs, values.basis, confidence=confidence,
                    extra={"resamples": resamples, "seed": seed})
