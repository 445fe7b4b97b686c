"""``BaseEvaluator``: repeated runs, evaluator-level postprocessing, details and G-Pass@k.

Subclasses implement :meth:`BaseEvaluator.score`; the eval task calls
:meth:`BaseEvaluator.evaluate`, which must not be overridden.

Example:
    >>> class Exact(BaseEvaluator):
    ...     def score(self, predictions, references):
    ...         ok = [p == r for p, r in zip(predictions, references)]
    ...         return {'accuracy': 100 * sum(ok) / len(ok),
    ...                 'details': [{'correct': c} for c in ok]}
    >>> res = Exact().evaluate(k=1, n=2, original_dataset=None,
    ...                        predictions=['A', 'B', 'A', 'C'], references=['A', 'B'] * 2)
    >>> res['accuracy (2 runs average)']
    75.0
"""

from __future__ import annotations

import logging
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar

from assay._dataclass import FACTORY, FrozenMethods
from assay.errors import EvaluationError
from assay.evaluate.gpass import THRESHOLDS, g_pass_at_k, mg_pass_at_k
from assay.postprocess.chain import apply_postprocessor, build_postprocessor

logger = logging.getLogger(__name__)

__all__ = [
    "CORPUS_BLEU",
    "CORRECTNESS_KEYS",
    "INCOMPLETE_KEY",
    "JUDGE_KEY",
    "SANDBOX_UNSCORABLE",
    "UNSCORABLE_KINDS",
    "BaseEvaluator",
    "SampleOutcome",
    "correctness",
    "count_unextracted",
    "g_pass_metrics",
    "incomplete_entry",
    "is_unextracted",
    "judge_requests",
    "merge_incomplete",
    "merge_judge_usage",
]

#: Per-sample detail keys that mark correctness, in the order they are consulted, for an
#: evaluator that does not declare its :class:`SampleOutcome`.
CORRECTNESS_KEYS: tuple[str, ...] = ("correct", "is_correct", "cascade_correct")

#: A :attr:`SampleOutcome.scores` value: the metric is corpus BLEU, recomputed from the details' ``pred``/``answer``.
CORPUS_BLEU = "<corpus bleu>"


#: What an unscorable sample is counted as (see :attr:`SampleOutcome.unscorable_values`):
#: its answer could not be extracted, no verdict could be reached on it (a judge or a
#: verifier failed), or its program could not be run to a verdict.
UNSCORABLE_KINDS: tuple[str, ...] = ("unextracted", "judge_failed", "not_executed")

#: The key of a :meth:`BaseEvaluator.score` result that lists what could not be scored (R-12.2):
#: ``[{"kind": ..., "count": ..., "detail": ...}]`` (see :func:`incomplete_entry`).  The task
#: moves it into the result's ``_meta.incomplete``.
INCOMPLETE_KEY = "_incomplete"

#: The key under which ``score()`` returns what its judge calls cost (``assay.judge.usage_summary``);
#: :meth:`BaseEvaluator.evaluate` merges it over runs and the task records it as ``_meta.judge``.
JUDGE_KEY = "_judge"


def incomplete_entry(kind: str, count: int | None, detail: str) -> dict[str, Any]:
    """One entry of a result's ``_meta.incomplete``: ``count`` samples (``None``: unknown) of ``kind``.

    >>> incomplete_entry('unjudged', 3, '3 of 9 judge requests failed')
    {'kind': 'unjudged', 'count': 3, 'detail': '3 of 9 judge requests failed'}
    """
    return {"kind": kind, "count": count, "detail": detail}


def merge_incomplete(lists: Sequence[Sequence[Mapping[str, Any]] | None]) -> list[dict[str, Any]]:
    """The entries of several runs' :data:`INCOMPLETE_KEY` lists, one per kind: counts summed
    (unknown if any is), distinct details joined.

    >>> merge_incomplete([[incomplete_entry('unjudged', 1, 'a')], None, [incomplete_entry('unjudged', 2, 'b')]])
    [{'kind': 'unjudged', 'count': 3, 'detail': 'a; b'}]
    """
    merged: dict[str, dict[str, Any]] = {}
    for entries in lists:
        for entry in entries or ():
            kind = str(entry.get("kind"))
            count = entry.get("count")
            detail = str(entry.get("detail", ""))
            seen = merged.get(kind)
            if seen is None:
                merged[kind] = incomplete_entry(kind, count if isinstance(count, int) else None, detail)
                continue
            seen["count"] = seen["count"] + count if isinstance(seen["count"], int) and isinstance(count, int) else None
            if detail and detail not in seen["detail"].split("; "):
                seen["detail"] = f"{seen['detail']}; {detail}" if seen["detail"] else detail
    return list(merged.values())


#: The sandbox outcomes that give no verdict on a program, for a code evaluator's
#: ``outcome`` detail: ``SampleOutcome(unscorable='outcome', unscorable_values=SANDBOX_UNSCORABLE)``.
#: A program that ran and failed its tests (``failed``) is wrong, not unscorable.
SANDBOX_UNSCORABLE: Mapping[str, str] = MappingProxyType(
    {"timeout": "not_executed", "memory": "not_executed", "killed": "not_executed", "sandbox-error": "not_executed"}
)


@dataclass(init=False, repr=False, eq=False)
class SampleOutcome(FrozenMethods):
    """Which per-sample ``details`` field backs each metric of an evaluator, and which marks a sample unscorable.

    Attributes:
        correct: the field holding each sample's verdict (``True``/``False``,
            or a list of them, one per run); accuracy-like metrics are
            ``100 × mean`` of it.  ``None``: no verdict per sample.
        scores: metric → the field holding each sample's score (the metric
            is its mean, × 1 or × 100), or :data:`CORPUS_BLEU`.
        unscorable: the field that says a sample could not be scored (its
            answer not extracted, not judged, its program not run) rather
            than that it is wrong.  ``None``: not declared.
        unscorable_values: how :attr:`unscorable` is read.  Empty: the field
            is a flag — a true value (or a non-empty reason) means that no
            verdict was reached, counted as ``judge_failed``.  Otherwise the
            field holds a status (a string, or a list of them, one per
            candidate), and this maps each status that gives no verdict to
            what it is counted as, one of :data:`UNSCORABLE_KINDS`; other
            statuses are scorable.  A code evaluator's sandbox outcome is read
            with :data:`SANDBOX_UNSCORABLE`.
        decimals: the metrics are reported rounded to this many decimals (as
            OpenCompass's RULER and BABILong evaluators round theirs), so the
            per-sample fields back a metric within half a unit of its last
            decimal.  ``None``: not rounded.

    The statistics use the declared fields only; an evaluator that declares
    nothing is read as before: the first of :data:`CORRECTNESS_KEYS` present,
    a field named like the metric, and, for unscorable samples, a true
    ``judge_failed`` or an ``outcome`` of ``timeout``, ``memory``, ``killed``
    or ``sandbox-error``.  Predictions left empty (``pred``, ``prediction``,
    ``completion``) count as not extracted unless the declared field maps a
    status to ``unextracted``; then that field alone says which were.

    >>> SampleOutcome.from_json(SampleOutcome(correct='is_correct').to_json())
    SampleOutcome(correct='is_correct', scores={}, unscorable=None, unscorable_values={}, decimals=None)
    >>> judged = SampleOutcome(correct='correct', unscorable='judge_failed')
    >>> SampleOutcome.from_json(judged.to_json()) == judged
    True
    """

    correct: str | None = None
    scores: Mapping[str, str] = field(default_factory=dict)
    unscorable: str | None = None
    unscorable_values: Mapping[str, str] = field(default_factory=dict)
    decimals: int | None = None

    def __init__(
        self,
        correct: str | None = None,
        scores: Mapping[str, str] = FACTORY,
        unscorable: str | None = None,
        unscorable_values: Mapping[str, str] = FACTORY,
        decimals: int | None = None,
    ) -> None:
        self.correct = correct
        self.scores = {} if scores is FACTORY else scores
        self.unscorable = unscorable
        self.unscorable_values = {} if unscorable_values is FACTORY else unscorable_values
        self.decimals = decimals
        self.__post_init__()

    def __post_init__(self) -> None:
        bad = {v: k for v, k in self.unscorable_values.items() if k not in UNSCORABLE_KINDS}
        if bad:
            raise ValueError(f"SampleOutcome.unscorable_values: {bad!r} is not one of {UNSCORABLE_KINDS}")
        if self.unscorable_values and self.unscorable is None:
            raise ValueError("SampleOutcome.unscorable_values needs the field they are read from (unscorable)")

    def to_json(self) -> dict[str, Any]:
        """The outcome as recorded in a result's ``_meta.outcome`` (the unscorable keys only when declared)."""
        out: dict[str, Any] = {"correct": self.correct, "scores": dict(self.scores)}
        if self.unscorable is not None:
            out["unscorable"] = self.unscorable
            out["unscorable_values"] = dict(self.unscorable_values)
        if self.decimals is not None:
            out["decimals"] = self.decimals
        return out

    @classmethod
    def from_json(cls, data: Any) -> SampleOutcome | None:
        """The inverse of :meth:`to_json`; ``None`` for anything else.

        A record without the unscorable keys (as written before they existed)
        declares no unscorable field.

        >>> SampleOutcome.from_json({'correct': 'correct', 'scores': {}}).unscorable is None
        True
        """
        if not isinstance(data, dict):
            return None
        correct, scores = data.get("correct"), data.get("scores") or {}
        if (correct is not None and not isinstance(correct, str)) or not isinstance(scores, dict):
            return None
        unscorable, values = data.get("unscorable"), data.get("unscorable_values") or {}
        if (unscorable is not None and not isinstance(unscorable, str)) or not isinstance(values, dict):
            return None
        if unscorable is None:
            values = {}
        kinds = {str(k): v for k, v in values.items() if v in UNSCORABLE_KINDS}
        decimals = data.get("decimals")
        decimals = decimals if type(decimals) is int and decimals >= 0 else None
        return cls(correct, {str(k): str(v) for k, v in scores.items() if isinstance(v, str)}, unscorable, kinds, decimals)

    @classmethod
    def of(cls, evaluator_type: Any) -> SampleOutcome | None:
        """What an evaluator class declares: its ``sample_outcome``, or its older
        ``sample_score_fields = {metric: field}``; ``None`` when it declares nothing.

        >>> class Scored(BaseEvaluator):
        ...     sample_score_fields = {'f1': 'f1'}
        >>> SampleOutcome.of(Scored).scores
        {'f1': 'f1'}
        >>> SampleOutcome.of(BaseEvaluator) is None
        True
        """
        declared = getattr(evaluator_type, "sample_outcome", None)
        if isinstance(declared, SampleOutcome):
            return declared
        fields = getattr(evaluator_type, "sample_score_fields", None)
        if isinstance(fields, Mapping) and fields:
            return cls(None, {str(k): str(v) for k, v in fields.items() if isinstance(v, str)})
        return None


def is_unextracted(prediction: Any) -> bool:
    """True for a prediction that postprocessing left empty (no answer found)."""
    if isinstance(prediction, str):
        return not prediction or prediction.isspace()  # the same as prediction.strip() == ""
    if prediction is None:
        return True
    if isinstance(prediction, (list, tuple)):
        return len(prediction) == 0 or all(is_unextracted(p) for p in prediction)
    return False


def count_unextracted(predictions: Sequence[Any]) -> int:
    """How many of ``predictions`` :func:`is_unextracted` holds for.

    >>> count_unextracted(['A', '', ' ', None, ['', 'B']])
    3
    """
    if set(map(type, predictions)) <= {str}:  # the usual case, counted in C
        return predictions.count("") + sum(map(str.isspace, predictions))
    return sum(map(is_unextracted, predictions))


class BaseEvaluator:
    """Base class of all evaluators.

    Args:
        pred_postprocessor: optional postprocessor config (``dict(type=...)``,
            the type a function, a registered name or a dotted path), applied to
            each run's predictions just before :meth:`score`.
    """

    #: True when scoring a subset of samples and merging gives the same result
    #: as scoring all of them at once (per-sample metrics averaged by count).
    sample_decomposable: ClassVar[bool] = False
    #: Which per-sample details field backs each metric (see :class:`SampleOutcome`);
    #: ``None`` declares nothing, and the statistics look for the usual fields.
    sample_outcome: ClassVar[SampleOutcome | None] = None
    #: How each metric of one run comes from its samples, for a sample-decomposable evaluator:
    #: ``{metric: (details field, scale)}``, the metric being ``scale(sum of the field over the
    #: run's samples, number of samples)`` exactly as ``score()`` computes it.  Shards then merge
    #: to the bits of one whole evaluation (the sums of the shards are added: integer sums
    #: exactly, float values one by one in sample order).  Only tasks whose evaluator declares
    #: its metrics here are split into shards.
    sample_sums: ClassVar[Mapping[str, tuple[str, Callable[[Any, int], float]]]] = MappingProxyType({})

    def __init__(self, pred_postprocessor: Any = None) -> None:
        self.pred_postprocessor = pred_postprocessor
        self._postprocess_fn = build_postprocessor(
            pred_postprocessor, where=f"{type(self).__name__}.pred_postprocessor"
        )
        self._dataset_replica_idx = 0
        self.dataset_abbr: str | None = None

    # -- properties used by evaluators that write side files ---------------
    @property
    def output_dir(self) -> str:
        """The result path without its extension (``results/<model>/<dataset>``), set by the task."""
        out = getattr(self, "_out_dir", None)
        if out is None:
            raise AttributeError(f"{type(self).__name__}.output_dir is only known while the eval task runs it")
        return str(out)

    @property
    def dataset_replica_idx(self) -> int:
        """Index of the run currently being scored."""
        return self._dataset_replica_idx

    @staticmethod
    def is_num_equal(predictions: Sequence[Any], references: Sequence[Any]) -> dict[str, str] | None:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        return None

    def pred_postprocess(self, predictions: Sequence[Any]) -> list[Any]:
        """Apply the evaluator-level postprocessor (if any) to one run's predictions."""
        return apply_postprocessor(self._postprocess_fn, predictions)

    def score(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Compute metrics for one run. Subclasses must implement this."""
        raise NotImplementedError(f"{type(self).__name__} must implement score()")

    # -- the fixed algorithm -------------------------------------------------
    def evaluate(self, k: int | Sequence[int], n: int, original_dataset: Any, **score_kwargs: Any) -> dict[str, Any]:
        """Score ``n`` runs laid out run-major and aggregate them (R-5.3 – R-5.5).

        Returns numeric metrics (averaged over runs and suffixed
        ``' (<n> runs average)'`` when ``n > 1``), G-Pass@k metrics when they
        apply, an ``extraction`` record (predictions left empty by
        postprocessing), and ``details`` grouped per sample when ``score()``
        returned them; what ``score()`` could not score (:data:`INCOMPLETE_KEY`)
        is merged over the runs.  A ``score()`` returning ``{'error': ...}``
        is returned as is.
        """
        name = type(self).__name__
        k_list = [k] if isinstance(k, int) else list(k)
        if not k_list or any(not isinstance(x, int) or x < 1 for x in k_list):
            raise EvaluationError(f"{name}: k must be a positive int or a list of them, got {k!r}")
        if not isinstance(n, int) or n < 1:
            raise EvaluationError(f"{name}: n must be a positive int, got {n!r}")
        if max(k_list) > n and n > 1:
            raise EvaluationError(f"{name}: k={k!r} asks for more runs than n={n}")

        preds = score_kwargs.get("predictions")
        refs = score_kwargs.get("references")
        if preds is not None and refs is not None and len(preds) != len(refs):
            raise EvaluationError(
                f"{name}: {len(preds)} predictions but {len(refs)} references; they must have the same length"
            )
        total = _total_length(original_dataset, score_kwargs)
        if total % n:
            raise EvaluationError(f"{name}: {total} rows cannot be split into n={n} runs of equal size")
        size = total // n
        for key, value in score_kwargs.items():
            if _is_sliceable(value) and len(value) != total:
                raise EvaluationError(f"{name}: argument {key!r} has {len(value)} entries, expected {total} ({n} runs × {size})")

        per_run: list[dict[str, Any]] = []
        incomplete: list[Any] = []
        judged: list[Any] = []
        all_details: list[list[dict[str, Any]] | None] = []
        unextracted = 0
        for i in range(n):
            self._dataset_replica_idx = i
            lo, hi = i * size, (i + 1) * size
            if n > 1:
                logger.debug("%s: scoring run %d of %d", name, i + 1, n)
            sliced = {key: _slice(value, lo, hi) for key, value in score_kwargs.items()}
            if sliced.get("predictions") is not None:
                sliced["predictions"] = self.pred_postprocess(sliced["predictions"])
                unextracted += count_unextracted(sliced["predictions"])
            result = self.score(**sliced)
            if not isinstance(result, dict):
                raise EvaluationError(f"{name}.score() returned {type(result).__name__} ({result!r:.80}); it must return a dict of metric name to number")
            if "error" in result:
                return dict(result)
            result = dict(result)
            incomplete.append(result.pop(INCOMPLETE_KEY, None))
            judged.append(result.pop(JUDGE_KEY, None))
            details = result.pop("details", None)
            if isinstance(details, dict):
                details = list(details.values())
            if details is not None:
                if not isinstance(details, list):
                    raise EvaluationError(f"{name}.score() returned details of type {type(details).__name__}; expected a list of dicts, one per sample")
                if len(details) != size:
                    raise EvaluationError(
                        f"{name}.score() returned {len(details)} details for a batch of {size} samples"
                        + (f" (run {i})" if n > 1 else "")
                        + "; details must list one entry per sample, in sample order"
                    )
            all_details.append(details)
            per_run.append(result)

        out = _aggregate(per_run, n)
        if any(incomplete):
            out[INCOMPLETE_KEY] = merge_incomplete(incomplete)
        usage = merge_judge_usage(judged)
        if usage is not None:
            out[JUDGE_KEY] = usage
        if preds is not None:
            out["extraction"] = {"unextracted": unextracted, "total": total}

        have = [d is not None for d in all_details]
        if any(have) and not all(have):
            missing = [i for i, h in enumerate(have) if not h]
            raise EvaluationError(f"{name}.score() returned details for some runs but not for runs {missing}")
        if all(have) and size > 0:
            grouped = _group_details(all_details)  # type: ignore[arg-type]
            for d, name in zip(grouped, _example_names(original_dataset, size, self.dataset_abbr)):
                d["example_abbr"] = name
            if n > 1 and max(k_list) > 1:
                counts = _correct_counts(all_details)  # type: ignore[arg-type]
                if counts is not None:
                    _add_g_pass(out, grouped, counts, _sample_abbrs(original_dataset, size, self.dataset_abbr), n, k_list)
            out["details"] = grouped
        return out


def judge_requests(evaluator: Any, n: int, original_dataset: Any, **score_kwargs: Any) -> list[Any]:
    """The conversations a judged evaluator would send over ``n`` runs, nothing sent.

    The runs are cut and given to ``evaluator.judge_conversations`` (the
    judged evaluators' counterpart of ``score()``, taking the same arguments)
    as :meth:`BaseEvaluator.evaluate` gives them to ``score()``: run-major,
    predictions through the evaluator's ``pred_postprocessor``.
    """
    total = _total_length(original_dataset, score_kwargs)
    if n < 1 or total % n:
        raise EvaluationError(f"{type(evaluator).__name__}: {total} rows cannot be split into n={n} runs of equal size")
    size = total // n
    conversations: list[Any] = []
    for i in range(n):
        evaluator._dataset_replica_idx = i
        sliced = {key: _slice(value, i * size, (i + 1) * size) for key, value in score_kwargs.items()}
        if sliced.get("predictions") is not None:
            sliced["predictions"] = evaluator.pred_postprocess(sliced["predictions"])
        conversations.extend(evaluator.judge_conversations(**sliced))
    return conversations


def _is_sliceable(value: Any) -> bool:
    if isinstance(value, (str, bytes, dict)) or value is None:
        return False
    return hasattr(value, "__len__") and hasattr(value, "__getitem__")


def _total_length(dataset: Any, kwargs: dict[str, Any]) -> int:
    if dataset is not None:
        return len(dataset)
    for value in kwargs.values():
        if _is_sliceable(value) and not _is_dataset(value):
            return len(value)
    for value in kwargs.values():
        if _is_dataset(value):
            return len(value)
    raise EvaluationError("evaluate() needs original_dataset or at least one list argument to know the number of samples")


def _is_dataset(value: Any) -> bool:
    return hasattr(value, "select") and hasattr(value, "column_names")


def _slice(value: Any, lo: int, hi: int) -> Any:
    if _is_dataset(value):
        return value.select(range(lo, hi))
    if _is_sliceable(value):
        return value[lo:hi]
    return value


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real)


def _aggregate(per_run: list[dict[str, Any]], n: int) -> dict[str, Any]:
    keys: list[str] = []
    for result in per_run:
        for key in result:
            if key not in keys:
                keys.append(key)
    out: dict[str, Any] = {}
    for key in keys:
        values: list[Any] = [r.get(key) for r in per_run]
        if all(_is_number(v) for v in values):
            if n == 1:
                v = values[0]
                out[key] = int(v) if isinstance(v, (bool, numbers.Integral)) else float(v)
            else:
                out[f"{key} ({n} runs average)"] = sum(float(v) for v in values) / n
        elif n == 1:
            out[key] = values[0]
        else:
            out[key] = values
    return out


_DICT = {dict}


def _group_details(all_details: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One dict per sample whose fields are lists of the per-run values (``None`` where a run lacks one).

    With a single run the detail dicts returned by ``score()`` are reused (their
    values wrapped in place), which halves the memory that large datasets need.
    """
    if len(all_details) == 1:
        details = all_details[0]
        if set(map(type, details)) == _DICT and len(set(map(id, details))) == len(details):  # the usual: distinct dicts
            for d in details:
                for key, value in d.items():  # each value replaced (the keys stay): no lookup of it
                    d[key] = [value]
            return list(details)
        out: list[dict[str, Any]] = []
        wrapped: set[int] = set()
        for d in all_details[0]:
            if not isinstance(d, dict):
                out.append({})
            elif id(d) in wrapped:  # the same dict listed for several samples
                out.append({key: list(value) for key, value in d.items()})
            else:
                wrapped.add(id(d))
                for key in d:
                    d[key] = [d[key]]
                out.append(d)
        return out
    grouped: list[dict[str, Any]] = []
    for runs in zip(*all_details):
        dicts = [d if isinstance(d, dict) else {} for d in runs]
        keys = dict.fromkeys(key for d in dicts for key in d)
        grouped.append({key: [d.get(key) for d in dicts] for key in keys})
    return grouped


def correctness(detail: Any) -> bool | None:
    """A per-sample detail's verdict: the first non-null of ``correct``, ``is_correct``,
    ``cascade_correct`` (a list of candidates is correct when all are); ``None`` without one.

    >>> correctness({'is_correct': True}), correctness({'pred': 'A'})
    (True, None)
    """
    if not isinstance(detail, dict):
        return None
    for key in CORRECTNESS_KEYS:
        value = detail.get(key)
        if value is not None:
            if isinstance(value, list):  # per-sample list of candidates
                return bool(value) and all(bool(v) for v in value)
            return bool(value)
    return None


def _correct_counts(all_details: list[list[dict[str, Any]]]) -> list[int] | None:
    size = len(all_details[0])
    counts = [0] * size
    seen = False
    for run in all_details:
        for j, d in enumerate(run):
            flag = correctness(d)
            if flag is not None:
                seen = True
                counts[j] += int(flag)
    return counts if seen else None


def _sample_abbrs(dataset: Any, size: int, dataset_abbr: str | None) -> list[tuple[str, Any]]:
    """(subdivision, index) of each sample of the first run."""
    cols = getattr(dataset, "column_names", None) or []
    default = dataset_abbr or "dataset"
    if "subdivision" in cols and "idx" in cols:
        head = dataset.select_columns(["subdivision", "idx"])[:size]
        return list(zip(head["subdivision"], head["idx"]))
    return [(default, j) for j in range(size)]


def _example_names(dataset: Any, size: int, dataset_abbr: str | None) -> Sequence[str]:
    """``<subdivision>_<index>`` of each sample of the first run (the details' ``example_abbr``)."""
    cols = getattr(dataset, "column_names", None) or []
    if "subdivision" in cols and "idx" in cols:
        head = dataset.select_columns(["subdivision", "idx"])[:size]
        subs, idxs = head["subdivision"], head["idx"]
        if (type(subs) is list and type(idxs) is list and len(subs) == size and subs and type(subs[0]) is str
                and subs.count(subs[0]) == size and set(map(type, idxs)) == _INT and idxs == _indices(size)):
            return _numbered_names(subs[0], size)  # the usual test set: one subdivision, its rows numbered in order
        return [f"{sub}_{idx}" for sub, idx in zip(subs, idxs)]
    return _numbered_names(f"{dataset_abbr or 'dataset'}", size)  # the text: 1, True and 1.0 are one key to the cache


_INT = {int}


@lru_cache(maxsize=8)
def _indices(size: int) -> list[int]:
    """``[0, …, size - 1]``, built once per size; read-only."""
    return list(range(size))


@lru_cache(maxsize=32)
def _numbered_names(abbr: str, size: int) -> tuple[str, ...]:
    """``abbr_0`` … ``abbr_<size - 1>``, built once for the tasks of a dataset (texts, shared as they are)."""
    return tuple(f"{abbr}_{j}" for j in range(size))


def g_pass_metrics(counts: list[int], subdivisions: list[str], n: int, k: int | Sequence[int]) -> dict[str, float]:
    """The G-Pass@k metrics :meth:`BaseEvaluator.evaluate` adds, from each sample's number of correct runs
    and its subdivision, in sample order (how the merge of shards computes them, to the same bits)."""
    out: dict[str, Any] = {}
    k_list = [k] if isinstance(k, int) else list(k)
    _add_g_pass(out, [{} for _ in counts], counts, [(sub, j) for j, sub in enumerate(subdivisions)], n, k_list)
    return out


def _add_g_pass(
    out: dict[str, Any],
    grouped: list[dict[str, Any]],
    counts: list[int],
    abbrs: list[tuple[str, Any]],
    n: int,
    k_list: list[int],
) -> None:
    names: list[str] = []
    for j, c in enumerate(counts):
        for k in k_list:
            for t in THRESHOLDS:
                grouped[j][f"G-Pass@{k}_{t}"] = g_pass_at_k(n, c, k, t)
            grouped[j][f"mG-Pass@{k}"] = mg_pass_at_k(n, c, k)
    for k in k_list:
        names.extend(f"G-Pass@{k}_{t}" for t in THRESHOLDS)
        names.append(f"mG-Pass@{k}")
    subdivisions: dict[str, list[int]] = {}
    for j, (sub, _) in enumerate(abbrs):
        subdivisions.setdefault(str(sub), []).append(j)
    for sub, members in subdivisions.items():
        for metric in names:
            out[f"{sub}/{metric}"] = 100 * sum(grouped[j][metric] for j in members) / len(members)
    for metric in names:
        out[metric] = 100 * sum(d[metric] for d in grouped) / len(grouped)


def merge_judge_usage(entries: Sequence[Mapping[str, Any] | None]) -> dict[str, Any] | None:
    """Several batches' judge usage (:data:`JUDGE_KEY`, ``_meta.judge``) as one: counts, tokens, time and cost summed (unknown when
    one is unknown), the judge models listed when they differ.

    Example:
        >>> a = dict(model='j', calls=2, cached=0, failed=0, requests=2, prompt_tokens=10, completion_tokens=2,
        ...          usage_unknown=0, seconds=1.0, mean_latency=0.5, price=None, cost=None)
        >>> merged = merge_judge_usage([a, dict(a, prompt_tokens=None, mean_latency=0.25)])
        >>> merged['calls'], merged['prompt_tokens'], merged['completion_tokens'], merged['mean_latency']
        (4, None, 4, 0.375)
    """
    present = [dict(e) for e in entries if e]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    out: dict[str, Any] = {}
    models = list(dict.fromkeys(str(e.get("model")) for e in present))
    out["model"] = models[0] if len(models) == 1 else models
    for key in ("calls", "cached", "failed", "requests", "usage_unknown"):
        out[key] = sum(int(e.get(key) or 0) for e in present)
    for key in ("prompt_tokens", "completion_tokens", "cost"):
        values = [e.get(key) for e in present]
        out[key] = None if any(v is None for v in values) else sum(values)
    out["seconds"] = round(sum(float(e.get("seconds") or 0) for e in present), 3)
    paid = [(e["mean_latency"], int(e.get("calls", 0)) - int(e.get("cached", 0)) - int(e.get("failed", 0)))
            for e in present if e.get("mean_latency") is not None]
    weight = sum(n for _, n in paid)
    out["mean_latency"] = round(sum(m * n for m, n in paid) / weight, 3) if weight else None
    prices = [e.get("price") for e in present]
    out["price"] = prices[0] if all(p == prices[0] for p in prices) else prices
    return out
