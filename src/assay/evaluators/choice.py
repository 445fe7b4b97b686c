"""Classification and multiple-choice evaluators: MCC, ROC AUC and circular evaluation."""

from __future__ import annotations

import itertools
import logging
import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, no_samples, percent, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["AUCROCEvaluator", "CircularEvaluator", "MccEvaluator", "matthews_corrcoef", "roc_auc"]

logger = logging.getLogger(__name__)


def matthews_corrcoef(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """Matthews correlation coefficient for any number of classes, in [-1, 1].

    Classes are compared by value.  When every prediction, or every true
    label, is one class the coefficient is undefined and 0.0 is returned (the
    usual convention).

    >>> matthews_corrcoef([1, 1, 0, 0], [1, 1, 0, 0])
    1.0
    >>> matthews_corrcoef([1, 0], [0, 1])
    -1.0
    """
    n = len(y_true)
    if n == 0:
        return 0.0
    true_counts: dict[Any, int] = {}
    pred_counts: dict[Any, int] = {}
    agree = 0
    for t, p in zip(y_true, y_pred):
        true_counts[t] = true_counts.get(t, 0) + 1
        pred_counts[p] = pred_counts.get(p, 0) + 1
        agree += t == p
    cross = sum(true_counts.get(c, 0) * pred_counts.get(c, 0) for c in set(true_counts) | set(pred_counts))
    cov = agree * n - cross
    var_pred = n * n - sum(v * v for v in pred_counts.values())
    var_true = n * n - sum(v * v for v in true_counts.values())
    if var_pred == 0 or var_true == 0:
        return 0.0
    return float(cov / math.sqrt(var_pred * var_true))


def roc_auc(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve for binary ``labels`` (1 positive), or ``None`` if one class is absent.

    Computed as the Mann–Whitney statistic with tied scores counted half.

    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc([1, 1], [0.2, 0.3]) is None
    True
    """
    pairs = sorted(zip(scores, labels), key=lambda x: x[0])
    positives = sum(1 for _, y in pairs if y == 1)
    negatives = len(pairs) - positives
    if positives == 0 or negatives == 0:
        return None
    rank_sum = 0.0
    i = 0
    while i < len(pairs):
        j = i
        while j + 1 < len(pairs) and pairs[j + 1][0] == pairs[i][0]:
            j += 1
        mean_rank = (i + j) / 2 + 1
        rank_sum += mean_rank * sum(1 for k in range(i, j + 1) if pairs[k][1] == 1)
        i = j + 1
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def _trapezoid_roc_auc(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """ROC AUC computed as scikit-learn's ``roc_auc_score`` computes it (the value OpenCompass reports), or ``None``.

    The ROC curve's points at the distinct scores (collinear ones dropped),
    then the trapezoid rule with NumPy's summation, so the result agrees with
    OpenCompass to the last bit; :func:`roc_auc` gives the same area by ranks.
    """
    import numpy as np

    y_true = np.asarray(labels) == 1
    if y_true.all() or not y_true.any():
        return None
    y_score = np.asarray(scores, dtype=float)
    order = np.argsort(y_score, kind="mergesort")[::-1]
    y_score, y_true = y_score[order], y_true[order]
    thresholds = np.r_[np.where(np.diff(y_score))[0], y_true.size - 1]
    tps = np.cumsum(y_true * 1.0, dtype=np.float64)[thresholds]
    fps = 1 + thresholds - tps
    if len(fps) > 2:
        keep = np.where(np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True])[0]
        fps, tps = fps[keep], tps[keep]
    tps, fps = np.r_[0, tps], np.r_[0, fps]
    fpr, tpr = fps / fps[-1], tps / tps[-1]
    return float(np.add.reduce(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0))


@ICL_EVALUATORS.register_module()
class MccEvaluator(BaseEvaluator):
    """Matthews correlation coefficient between predicted and reference labels.

    Inputs: ``predictions`` and ``references``, compared as strings (any
    number of classes).  Metric: ``matthews_correlation`` = MCC × 100, in
    [-100, 100]; 0 when either side holds a single class (undefined MCC).
    Details: ``pred``, ``answer``, ``correct``.  Corpus-level: shards do not
    merge exactly.

    >>> MccEvaluator().score(['yes', 'no', 'yes', 'no'], ['yes', 'no', 'no', 'no'])['matthews_correlation']
    57.73502691896258
    """

    # no sample_outcome: the details' ``correct`` does not back the correlation

    sample_decomposable = False

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        preds = [str(p) for p in predictions]
        refs = [str(r) for r in references]
        details = [{"pred": p, "answer": r, "correct": p == r} for p, r in zip(preds, refs)]
        return {"matthews_correlation": 100.0 * matthews_corrcoef(refs, preds), "details": details}


def _as_probabilities(pred: Any) -> list[float] | None:
    if isinstance(pred, str) or not isinstance(pred, Iterable):
        return None
    values = list(pred)
    if len(values) < 2 or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values):
        return None
    return [float(v) for v in values]


@ICL_EVALUATORS.register_module()
class AUCROCEvaluator(BaseEvaluator):
    """ROC AUC and accuracy of a binary classifier's class probabilities.

    Inputs: ``predictions``, one list ``[p(class 0), p(class 1)]`` per sample
    (as written by a conditional-probability inferencer), and
    ``references``, the true class (0 or 1).  Metrics: ``auc_score`` (AUC of
    the class-1 probability × 100, in [0, 100]) and ``accuracy`` (argmax
    equal to the reference, × 100).  Details: ``pred`` (argmax), ``answer``,
    ``correct``.

    Undefined cases are error records, never a silent number: references of
    a single class (AUC undefined), a prediction that is not a list of two or
    more numbers, a reference that is not 0 or 1.  Corpus-level: shards do
    not merge exactly.

    >>> AUCROCEvaluator().score([[0.9, 0.1], [0.2, 0.8]], [0, 1])
    {'auc_score': 100.0, 'accuracy': 100.0, 'details': [{'pred': 0, 'answer': 0, 'correct': True}, {'pred': 1, 'answer': 1, 'correct': True}]}
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = False

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        probs: list[list[float]] = []
        labels: list[int] = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            p = _as_probabilities(pred)
            if p is None:
                return {"error": f"{name}: prediction {i} is {pred!r:.80}, expected a list of class probabilities"}
            label = _binary_label(ref)
            if label is None:
                return {"error": f"{name}: reference {i} is {ref!r:.80}; binary ROC AUC needs references 0 or 1"}
            probs.append(p)
            labels.append(label)
        auc = _trapezoid_roc_auc(labels, [p[1] for p in probs])
        if auc is None:
            return {"error": f"{name}: ROC AUC is undefined when all {len(labels)} references are one class"}
        details = []
        correct = 0
        for p, label in zip(probs, labels):
            guess = max(range(len(p)), key=lambda k: (p[k], -k))
            correct += guess == label
            details.append({"pred": guess, "answer": label, "correct": guess == label})
        return {"auc_score": auc * 100, "accuracy": share_percent(correct, len(labels)), "details": details}


def _binary_label(ref: Any) -> int | None:
    if isinstance(ref, numbers.Real) and float(ref) in (0.0, 1.0):
        return int(float(ref))
    if isinstance(ref, str) and ref.strip() in ("0", "1"):
        return int(ref.strip())
    return None


def _pattern(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value)
    return tuple(str(v) for v in value)


@ICL_EVALUATORS.register_module()
class CircularEvaluator(BaseEvaluator):
    """Circular evaluation of multiple-choice questions (each asked with its options permuted).

    Inputs: ``predictions`` and ``references`` (option letters, compared
    exactly) and ``test_set`` with the columns ``circular_pattern`` (the
    option order of the row, e.g. ``['B', 'C', 'D', 'A']`` or ``'BCDA'``) and
    ``qid`` (the original question).  Pattern families: ``origin`` (the
    sorted option order), ``circular`` (its rotations) and, with
    ``circular_pattern='all_possible'``, every permutation.

    Metrics per family ``f`` with ``m`` patterns, all in [0, 100]:
    ``acc_f`` (per-row accuracy over the rows of that family),
    ``more_{j}_f`` for ``j`` in 1..m-1 (share of questions answered correctly
    in at least ``j`` of their rows), ``perf_f`` (share answered correctly in
    all ``m``; OpenCompass's headline circular metric is ``perf_circular``).
    Details: ``pred``, ``answer``, ``correct``, ``qid``, ``circular_pattern``.

    Difference from OpenCompass: the origin order is the sorted option letters
    rather than whatever pattern the first row happens to carry.  A family
    with no rows in the batch has no metrics (logged).  Corpus-level: shards
    split within a question do not merge exactly.

    >>> ts = [{'qid': 0, 'circular_pattern': p} for p in ('AB', 'BA')]
    >>> CircularEvaluator().score(['A', 'A'], ['A', 'B'], ts)['perf_circular']
    0.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = False

    def __init__(self, circular_pattern: str = "circular", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if circular_pattern not in ("circular", "all_possible"):
            raise ValueError(f"CircularEvaluator: circular_pattern must be 'circular' or 'all_possible', got {circular_pattern!r}")
        self.circular_pattern = circular_pattern

    def _families(self, keys: tuple[str, ...]) -> dict[str, set[tuple[str, ...]]]:
        origin = tuple(sorted(keys))
        doubled = origin + origin
        families = {
            "origin": {origin},
            "circular": {doubled[i : i + len(origin)] for i in range(len(origin))},
        }
        if self.circular_pattern == "all_possible":
            families["all_possible"] = set(itertools.permutations(origin))
        return families

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        rows = list(test_set) if test_set is not None else []
        if len(rows) != len(predictions):
            return {"error": f"{name}: the test set has {len(rows)} rows for {len(predictions)} predictions"}
        if not rows:
            return no_samples(self)
        if any(not isinstance(r, dict) or "circular_pattern" not in r or "qid" not in r for r in rows):
            return {"error": f"{name}: the test set needs the columns 'circular_pattern' and 'qid'"}
        patterns = [_pattern(r["circular_pattern"]) for r in rows]
        families = self._families(patterns[0])
        metrics: dict[str, Any] = {}
        per_question: dict[str, dict[Any, int]] = {f: {} for f in families}
        hits = dict.fromkeys(families, 0)
        counts = dict.fromkeys(families, 0)
        details = []
        for pred, ref, row, pattern in zip(predictions, references, rows, patterns):
            ok = pred == ref
            details.append({"pred": pred, "answer": ref, "correct": ok, "qid": row["qid"], "circular_pattern": "".join(pattern)})
            for family, members in families.items():
                if pattern in members:
                    hits[family] += ok
                    counts[family] += 1
                    per_question[family][row["qid"]] = per_question[family].get(row["qid"], 0) + ok
        for family in families:
            if counts[family]:
                metrics[f"acc_{family}"] = percent(hits[family], counts[family])
            else:
                logger.warning("%s: no row of the batch has a pattern of the %r family", name, family)
        for family, members in families.items():
            questions = per_question[family]
            if not questions:
                continue
            size = len(members)
            for j in range(1, size + 1):
                share = percent(sum(1 for c in questions.values() if c >= j), len(questions))
                metrics[f"more_{j}_{family}" if j < size else f"perf_{family}"] = share
        metrics["details"] = details
        return metrics
