"""Math401's, MGSM's and Mastermath's evaluators as OpenCompass 0.5.4 computes them
(``Math401Evaluator``, ``MGSM_Evaluator``, ``MastermathDatasetv1Evaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, percent, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["MGSM_Evaluator", "MastermathDatasetv1Evaluator", "Math401Evaluator", "math401_close"]


def math401_close(pred: Any, ref: Any) -> bool:
    """Math401's test: both read by Python's ``float`` and less than ``1e-3`` apart; anything unreadable is wrong.

    >>> math401_close('2.7900', '2.79'), math401_close('2.7', '2.79'), math401_close('3/4', '0.75')
    (True, False, False)
    """
    try:
        return bool(abs(float(pred) - float(ref)) < 1e-3)
    except (TypeError, ValueError, OverflowError):
        return False


@ICL_EVALUATORS.register_module()
class Math401Evaluator(BaseEvaluator):
    """Math401 accuracy: :func:`math401_close` on each pair.

    Inputs: ``predictions`` (the library's config reads them with
    ``mathbench_postprocess``) and ``references``.  Metric: ``accuracy`` in
    [0, 100].  Details: ``pred``, ``answer``, ``correct``.  Predictions and
    references of different lengths give ``{'error': ...}``.

    >>> Math401Evaluator().score(['4992', '2.79', 'x'], ['4992', '2.7900', '1'])['accuracy']
    66.66666666666667
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details = [{"pred": p, "answer": r, "correct": math401_close(p, r)} for p, r in zip(predictions, references)]
        return {"accuracy": percent(sum(d["correct"] for d in details), len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class MGSM_Evaluator(BaseEvaluator):
    """MGSM accuracy: a prediction is right when it equals its reference exactly (as text).

    Inputs: ``predictions`` (after ``mgsm_postprocess``) and ``references``.
    Metric: ``accuracy`` in [0, 100], computed as ``correct / total * 100``.
    Details, keyed by the sample's index as text (``'0'``, ``'1'``, …):
    ``references``, ``predictions``, ``correct``.

    >>> MGSM_Evaluator().score(['18', '3', ''], ['18', '3.0', '5'])['accuracy']
    33.33333333333333
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": f"MGSM_Evaluator: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return no_samples(self)
        details = {str(i): {"references": r, "predictions": p, "correct": r == p}
                   for i, (p, r) in enumerate(zip(predictions, references))}
        correct = sum(d["correct"] for d in details.values())
        return {"accuracy": share_percent(correct, len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class MastermathDatasetv1Evaluator(BaseEvaluator):
    """Mastermath accuracy: a prediction is right when it equals its reference.

    Inputs: ``predictions`` (the library's config reads them with
    ``first_option_postprocess``) and ``references``.  Metric: ``accuracy``
    in [0, 100].  Details: ``pred``, ``answer``, ``correct``.  Predictions
    and references of different lengths give ``{'error': ...}``.

    >>> MastermathDatasetv1Evaluator().score(['A', 'B', ''], ['A', 'C', 'D'])['accuracy']
    33.333333333333336
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details = [{"pred": p, "answer": r, "correct": p == r} for p, r in zip(predictions, references)]
        return {"accuracy": percent(sum(d["correct"] for d in details), len(details)), "details": details}
