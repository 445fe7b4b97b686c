"""CHARM's reasoning evaluator as OpenCompass 0.5.4 computes it (``CharmReasonEvaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["CharmReasonEvaluator"]


@ICL_EVALUATORS.register_module()
class CharmReasonEvaluator(BaseEvaluator):
    """CHARM reasoning accuracy: a prediction is right when it equals its reference.

    Inputs: ``predictions`` and ``references`` (the library's configs read
    both with ``charm_reason_postprocess``).  Metric: ``score`` in [0, 100],
    computed as ``correct / total * 100``.  Details: ``pred``, ``answer``,
    ``correct``.

    >>> CharmReasonEvaluator().score(['A', 'B', 'C'], ['A', 'C', 'C'])['score']
    66.66666666666666
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return no_samples(self)
        details = [{"pred": p, "answer": r, "correct": p == r} for p, r in zip(predictions, references)]
        return {"score": share_percent(sum(d["correct"] for d in details), len(details)), "details": details}
