"""SciReasoner's GUE and LLM4Mat evaluators, as OpenCompass 0.5.4 computes them."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators.choice import _trapezoid_roc_auc, matthews_corrcoef
from assay.registry import ICL_EVALUATORS

__all__ = ["GUE_Evaluator", "LLM4Mat_Evaluator"]


def _label(text: Any) -> int | None:
    label = str(text).strip().lower()
    return 1 if label == "positive" else 0 if label == "negative" else None


@ICL_EVALUATORS.register_module()
class GUE_Evaluator(BaseEvaluator):
    """Matthews correlation of ``positive``/``negative`` answers (after ``GUE_postprocessor`` on both sides).

    Metrics: ``matthews_correlation_all`` (× 100; every answer that is not
    ``positive`` counts as negative), ``matthews_correlation_filtered`` (× 100,
    over the samples both of whose sides are ``positive`` or ``negative``; 0
    when there is none), ``non_pos_neg_count`` (the samples left out there) and
    ``total_count``.  With several replies per question only the first is read.
    Details (assay's addition; OpenCompass writes none): ``pred``, ``answer``,
    ``correct``.

    >>> r = GUE_Evaluator().score(['positive', 'negative', '', 'positive'], ['positive', 'negative', 'negative', 'negative'])
    >>> r['matthews_correlation_all'], r['matthews_correlation_filtered'], r['non_pos_neg_count']
    (57.73502691896258, 50.0, 1)
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if isinstance(predictions[0], list):
            predictions = [p[0] for p in predictions]
        as_positive = [1 if str(p).strip().lower() == "positive" else 0 for p in predictions]
        ref_positive = [1 if str(r).strip().lower() == "positive" else 0 for r in references]
        kept = [(_label(p), _label(r)) for p, r in zip(predictions, references)]
        kept = [(p, r) for p, r in kept if p is not None and r is not None]
        filtered = matthews_corrcoef([r for _, r in kept], [p for p, _ in kept]) if kept else 0.0
        return {
            "matthews_correlation_all": matthews_corrcoef(ref_positive, as_positive) * 100,
            "matthews_correlation_filtered": filtered * 100,
            "non_pos_neg_count": len(predictions) - len(kept),
            "total_count": len(predictions),
            "details": [{"pred": p, "answer": r, "correct": p == r} for p, r in zip(predictions, references)],
        }


_POSITIVE = ("Direct", "True", True)
_NEGATIVE = ("Indirect", "False", False)


def _regression_errors(y_true: list[float], y_pred: list[float]) -> tuple[float, float]:
    """scikit-learn's ``mean_absolute_error`` and root mean squared error, with its array shapes and numpy's sums."""
    import numpy as np

    truth = np.asarray(y_true, dtype=float).reshape(-1, 1)
    pred = np.asarray(y_pred, dtype=float).reshape(-1, 1)
    mae = np.average(np.average(np.abs(pred - truth), axis=0))
    rmse = np.average(np.sqrt(np.average((truth - pred) ** 2, axis=0)))
    return float(mae), float(rmse)


@ICL_EVALUATORS.register_module()
class LLM4Mat_Evaluator(BaseEvaluator):
    """LLM4Mat's material properties (after ``LLM4Mat_postprocessor`` on both sides).

    When the first reference is a number: over the samples whose two sides
    are finite numbers, ``MAE``, ``RMSE``, ``MAD`` (the error of predicting
    their mean) and ``MAD/MAE`` (``None`` when ``MAE`` is 0), with ``total``
    and ``filtered`` (the samples used; all four ``None`` when none is).
    Otherwise ``AUC``: the ROC AUC of the yes/no answers (``Direct``/``True``
    against ``Indirect``/``False``) over the samples both of whose sides are
    one of them — ``None`` when it is undefined (one class only).  No details,
    as in OpenCompass.
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        import math

        error = check_batch(self, predictions, references)
        if error:
            return error
        first = references[0]
        if isinstance(first, (int, float)) and not isinstance(first, bool):
            y_true: list[float] = []
            y_pred: list[float] = []
            for t, p in zip(references, predictions):
                try:
                    t_val, p_val = float(t), float(p)
                except (TypeError, ValueError):
                    continue
                if math.isfinite(t_val) and math.isfinite(p_val):
                    y_true.append(t_val)
                    y_pred.append(p_val)
            if not y_true:
                return {"total": len(references), "filtered": 0, "MAE": None, "RMSE": None, "MAD": None, "MAD/MAE": None}
            mae, rmse = _regression_errors(y_true, y_pred)
            import numpy as np

            mad, _ = _regression_errors(y_true, [float(np.mean(y_true))] * len(y_true))
            return {"total": len(references), "filtered": len(y_true), "MAE": mae, "RMSE": rmse, "MAD": mad,
                    "MAD/MAE": mad / mae if mae != 0 else None}
        labels: list[int] = []
        scores: list[float] = []
        for t, p in zip(references, predictions):
            truth = 1 if t in _POSITIVE else 0 if t in _NEGATIVE else None
            guess = 1 if p in _POSITIVE else 0 if p in _NEGATIVE else None
            if truth is not None and guess is not None:
                labels.append(truth)
                scores.append(guess)
        return {"AUC": _trapezoid_roc_auc(labels, scores) if labels else None}
