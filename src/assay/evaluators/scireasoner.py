"""SciReasoner's GUE evaluator, as OpenCompass 0.5.4 computes it (``GUE_Evaluator``)."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators.choice import matthews_corrcoef
from assay.registry import ICL_EVALUATORS

__all__ = ["GUE_Evaluator"]


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
