"""SciReasoner 1.5's evaluators, as OpenCompass 0.5.4 computes them.

Each reads a reference record (``answer``: a mapping, a JSON object's text, or
a bare value read as ``{'value': it}``) and the raw reply, with
``<think>…</think>`` and code fences removed.  Extras that are not numbers
(``invalid_examples``: the first 20 replies not read; ``target_metrics``) are
kept, as OpenCompass returns them.  OpenCompass writes no details; assay's (its
addition) say what each reply was read as.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from assay.datasets.scireasoner1_5 import read_float, read_property, strip_reasoning
from assay.evaluate.base import BaseEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["SciReasoner15DudeEvaluator", "SciReasoner15GOEvaluator", "SciReasoner15MaterialEvaluator",
           "SciReasoner15TMScoreEvaluator"]

_MAX_EXAMPLES = 20
_LABELLED = re.compile(r"(?:label|answer|prediction|class)\s*[:=]\s*([01])(?=$|\s|[,;}\]])")
_POSITIVE = ("similar", "active", "positive", "yes", "true")
_NEGATIVE = ("dissimilar", "inactive", "negative", "no", "false")


def _record(reference: Any) -> dict[str, Any]:
    if isinstance(reference, dict):
        return reference
    if isinstance(reference, str):
        try:
            parsed = json.loads(reference)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    return {"value": reference}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and values[order[j]] == values[order[i]]:
            j += 1
        for k in range(i, j):
            ranks[order[k]] = (i + j - 1) / 2.0 + 1.0
        i = j
    return ranks


def _pearson(x: list[float], y: list[float]) -> float | None:
    if len(x) < 2:
        return None
    x_mean, y_mean = _mean(x), _mean(y)
    numerator = sum((a - x_mean) * (b - y_mean) for a, b in zip(x, y))
    x_den = math.sqrt(sum((a - x_mean) ** 2 for a in x))
    y_den = math.sqrt(sum((b - y_mean) ** 2 for b in y))
    if x_den == 0.0 or y_den == 0.0:
        return None
    return numerator / (x_den * y_den)


def _roc_auc(labels: list[int], scores: list[float | None]) -> float | None:
    """The rank-sum (Mann–Whitney) ROC AUC over the samples with a score; ``None`` with one class."""
    pairs = sorted(((float(s), int(label)) for label, s in zip(labels, scores) if s is not None), key=lambda p: p[0])
    positives = sum(label for _, label in pairs)
    negatives = len(pairs) - positives
    if positives == 0 or negatives == 0:
        return None
    rank_sum = 0.0
    i = 0
    while i < len(pairs):
        j = i + 1
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        rank_sum += sum(label for _, label in pairs[i:j]) * ((i + j - 1) / 2.0 + 1.0)
        i = j
    return (rank_sum - positives * (positives + 1) / 2.0) / (positives * negatives)


def _regression(y_true: list[float], y_pred: list[float], total: int) -> dict[str, Any]:
    if not y_true:
        return {"total": total, "valid": 0, "valid_rate": 0.0, "MAE": None, "RMSE": None, "MAD": None,
                "MAD/MAE": None, "Pearson": None, "Spearman": None}
    errors = [p - t for t, p in zip(y_true, y_pred)]
    mae = _mean([abs(e) for e in errors])
    true_mean = _mean(y_true)
    mad = _mean([abs(t - true_mean) for t in y_true])
    return {
        "total": total, "valid": len(y_true), "valid_rate": len(y_true) / total * 100 if total else 0.0,
        "MAE": mae, "RMSE": math.sqrt(_mean([e * e for e in errors])), "MAD": mad,
        "MAD/MAE": mad / mae if mae else None, "Pearson": _pearson(y_true, y_pred),
        "Spearman": _pearson(_ranks(y_true), _ranks(y_pred)) if len(y_true) >= 2 else None,
    }


def _length_error(evaluator: object, predictions: Any, references: Any) -> dict[str, Any] | None:
    if predictions is None or references is None or len(predictions) != len(references):
        return {"error": f"{type(evaluator).__name__}: predictions and references have different length"}
    if not predictions:
        return {"error": f"{type(evaluator).__name__}: no samples to score"}
    return None


def _gold(ref: dict[str, Any], i: int, name: str, cast: Any) -> Any:
    try:
        return cast(ref["value"])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{name}: reference {i} has no {cast.__name__} 'value': {ref!r:.120}") from None


class _Regression(BaseEvaluator):
    """Shared scoring of the two regression evaluators."""

    def _read(self, reply: Any) -> float | None:
        raise NotImplementedError

    def _score(self, predictions: list[Any], references: list[Any], in_range: bool) -> dict[str, Any]:
        error = _length_error(self, predictions, references)
        if error:
            return error
        name = type(self).__name__
        y_true: list[float] = []
        y_pred: list[float] = []
        examples: list[dict[str, Any]] = []
        details: list[dict[str, Any]] = []
        out_of_range = 0
        for i, (reply, reference) in enumerate(zip(predictions, references)):
            try:
                gold = _gold(_record(reference), i, name, float)
            except ValueError as exc:
                return {"error": str(exc)}
            pred = self._read(reply)
            details.append({"pred": pred, "answer": gold})
            if pred is None or not math.isfinite(pred):
                if len(examples) < _MAX_EXAMPLES:
                    examples.append({"index": i, "prediction": reply, "answer": gold})
                continue
            out_of_range += not 0.0 <= pred <= 1.0
            y_true.append(gold)
            y_pred.append(pred)
        result = _regression(y_true, y_pred, len(references))
        if in_range:
            result["out_of_range_count"] = out_of_range
        result["invalid_count"] = len(references) - len(y_true)
        result["invalid_examples"] = examples
        result["details"] = details
        return result


@ICL_EVALUATORS.register_module()
class SciReasoner15MaterialEvaluator(_Regression):
    """Material properties: ``property_name``'s value read from each reply (a JSON object's, else
    ``{… name: number``, else the first number).  Metrics over the replies read: ``MAE``, ``RMSE``,
    ``MAD`` (of the references around their mean), ``MAD/MAE`` (``None`` when ``MAE`` is 0),
    ``Pearson``, ``Spearman`` (``None`` under two samples or without spread), with ``total``,
    ``valid``, ``valid_rate`` (percent), ``invalid_count``, ``invalid_examples``; all ``None``
    (``valid`` 0) when none is read.
    """

    def __init__(self, property_name: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.property_name = property_name

    def _read(self, reply: Any) -> float | None:
        return read_property(reply, self.property_name)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return self._score(predictions, references, in_range=False)


@ICL_EVALUATORS.register_module()
class SciReasoner15TMScoreEvaluator(_Regression):
    """TM-scores: each reply's first number, scored as ``SciReasoner15MaterialEvaluator`` scores,
    with ``out_of_range_count`` (numbers outside [0, 1], still scored)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def _read(self, reply: Any) -> float | None:
        return read_float(reply)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return self._score(predictions, references, in_range=True)


def _labels(text: Any) -> set[str]:
    text = strip_reasoning(text)
    if not text:
        return set()
    parts = re.split(r"[;；]\s*", text) if ";" in text or "；" in text else re.split(r"[\n,，]\s*", text)
    return {p.strip().lower() for p in parts if p.strip()}


@ICL_EVALUATORS.register_module()
class SciReasoner15GOEvaluator(BaseEvaluator):
    """Gene Ontology terms: both sides split into lower-cased term sets (at ``;`` when there is one,
    else at newlines and commas).  Metrics: the means of each sample's ``Precision``, ``Recall`` and
    ``F1 Score`` (0 where undefined), ``score`` (F1 × 100), ``exact_match`` (percent of equal sets),
    ``avg_correct_attributes``, ``avg_pred_labels``, ``avg_gold_labels``, ``empty_prediction_rate``
    (percent) and ``total``.  Details: ``precision``, ``recall``, ``f1``, ``exact``.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = _length_error(self, predictions, references)
        if error:
            return error
        details = []
        for i, (reply, reference) in enumerate(zip(predictions, references)):
            ref = _record(reference)
            if "value" not in ref:
                return {"error": f"{type(self).__name__}: reference {i} has no 'value': {ref!r:.120}"}
            got, want = _labels(reply), _labels(ref["value"])
            shared = len(got & want)
            precision, recall = _ratio(shared, len(got)), _ratio(shared, len(want))
            details.append({"precision": precision, "recall": recall, "f1": _ratio(2 * precision * recall, precision + recall),
                            "exact": got == want, "shared": shared, "predicted": len(got), "gold": len(want)})
        total = len(details)
        f1 = _mean([d["f1"] for d in details])
        return {
            "total": total, "Precision": _mean([d["precision"] for d in details]),
            "Recall": _mean([d["recall"] for d in details]), "F1 Score": f1, "score": f1 * 100,
            "exact_match": sum(d["exact"] for d in details) / total * 100,
            "avg_correct_attributes": _mean([d["shared"] for d in details]),
            "avg_pred_labels": _mean([d["predicted"] for d in details]),
            "avg_gold_labels": _mean([d["gold"] for d in details]),
            "empty_prediction_rate": sum(d["predicted"] == 0 for d in details) / total * 100,
            "details": details,
        }


def read_binary(text: Any) -> tuple[int | None, float | None]:
    """A DUD-E reply's class and score: ``label/answer/prediction/class: 0|1``, else a first number in
    [0, 1] (class 1 from 0.5), else a negative word (``no``, ``inactive``, … — looked for first, so
    ``not`` reads as ``no``), else a positive one; ``(None, None)`` when unread.

    >>> read_binary('Answer: 1'), read_binary('0.3'), read_binary('It is not active')
    ((1, 1.0), (0, 0.3), (0, 0.0))
    """
    text = strip_reasoning(text).lower()
    if not text:
        return None, None
    labelled = _LABELLED.search(text)
    if labelled:
        score = float(labelled.group(1))
        return int(score >= 0.5), score
    number = read_float(text)
    if number is not None and 0.0 <= number <= 1.0:
        return int(number >= 0.5), number
    if any(word in text for word in _NEGATIVE):
        return 0, 0.0
    if any(word in text for word in _POSITIVE):
        return 1, 1.0
    return None, None


@ICL_EVALUATORS.register_module()
class SciReasoner15DudeEvaluator(BaseEvaluator):
    """DUD-E actives: each reply read with :func:`read_binary` (an unread reply counts as class 0 with
    no score, and in ``invalid_count``).  Metrics: ``Accuracy`` (percent), ``Precision``, ``Recall``,
    ``F1 Score`` (fractions), ``positive_rate``, ``gold_positive_rate`` (percent), ``AUC`` (over the
    scored replies; ``None`` with one class), ``macro_target_f1`` and ``macro_target_recall`` (means
    over the references' ``target``s, ``'unknown'`` when missing), ``total``, ``invalid_count``,
    ``invalid_examples`` and ``target_metrics`` (each target's ``accuracy``, ``precision``,
    ``recall``, ``f1``, ``total``).  Details: ``pred``, ``score``, ``label``.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = _length_error(self, predictions, references)
        if error:
            return error
        name = type(self).__name__
        labels: list[int] = []
        preds: list[int] = []
        scores: list[float | None] = []
        examples: list[dict[str, Any]] = []
        invalid = 0
        per_target: dict[str, dict[str, int]] = {}
        for i, (reply, reference) in enumerate(zip(predictions, references)):
            ref = _record(reference)
            try:
                label = _gold(ref, i, name, int)
            except ValueError as exc:
                return {"error": str(exc)}
            pred, score = read_binary(reply)
            if pred is None:
                invalid += 1
                if len(examples) < _MAX_EXAMPLES:
                    examples.append({"index": i, "prediction": reply, "answer": label})
                pred, score = 0, None
            labels.append(label)
            preds.append(pred)
            scores.append(score)
            stats = per_target.setdefault(ref.get("target") or "unknown", {"tp": 0, "fp": 0, "tn": 0, "fn": 0, "total": 0})
            stats["total"] += 1
            if label == 1 and pred == 1:
                cell = "tp"
            elif label == 0 and pred == 1:
                cell = "fp"
            elif label == 0 and pred == 0:
                cell = "tn"
            else:  # a label other than 0 and 1 counts here too, as in OpenCompass
                cell = "fn"
            stats[cell] += 1
        tp = sum(1 for t, p in zip(labels, preds) if t == 1 and p == 1)
        fp = sum(1 for t, p in zip(labels, preds) if t == 0 and p == 1)
        tn = sum(1 for t, p in zip(labels, preds) if t == 0 and p == 0)
        fn = sum(1 for t, p in zip(labels, preds) if t == 1 and p == 0)
        total = len(labels)
        precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        targets: dict[str, dict[str, Any]] = {}
        for target, s in per_target.items():
            t_precision, t_recall = _ratio(s["tp"], s["tp"] + s["fp"]), _ratio(s["tp"], s["tp"] + s["fn"])
            targets[target] = {"accuracy": _ratio(s["tp"] + s["tn"], s["total"]), "precision": t_precision,
                               "recall": t_recall, "f1": _ratio(2 * t_precision * t_recall, t_precision + t_recall),
                               "total": s["total"]}
        return {
            "total": total, "Accuracy": _ratio(tp + tn, total) * 100, "Precision": precision, "Recall": recall,
            "F1 Score": _ratio(2 * precision * recall, precision + recall),
            "positive_rate": _ratio(sum(preds), total) * 100, "gold_positive_rate": _ratio(sum(labels), total) * 100,
            "AUC": _roc_auc(labels, scores), "macro_target_f1": _mean([t["f1"] for t in targets.values()]),
            "macro_target_recall": _mean([t["recall"] for t in targets.values()]), "invalid_count": invalid,
            "invalid_examples": examples, "target_metrics": targets,
            "details": [{"pred": p, "score": s, "label": t} for p, s, t in zip(preds, scores, labels)],
        }
