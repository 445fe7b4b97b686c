"""Exact-match evaluators: ``AccEvaluator`` and ``EMEvaluator``."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["AccEvaluator", "EMEvaluator"]


@ICL_EVALUATORS.register_module()
class AccEvaluator(BaseEvaluator):
    """Accuracy: the share of predictions equal to their reference.

    Inputs: ``predictions`` and ``references`` (compared as strings, so ``1``
    and ``'1'`` match).  Metric: ``accuracy`` in [0, 100].  Details: ``pred``,
    ``answer``, ``correct`` per sample.  Empty input is an error record.
    """

    sample_decomposable = True

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": f"{len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": "AccEvaluator: no samples to score"}
        details = []
        correct = 0
        for pred, ref in zip(predictions, references):
            ok = str(pred) == str(ref)
            correct += ok
            details.append({"pred": pred, "answer": ref, "correct": ok})
        return {"accuracy": 100 * correct / len(predictions), "details": details}


@ICL_EVALUATORS.register_module()
class EMEvaluator(BaseEvaluator):
    """Exact match against one or several reference answers.

    Inputs: ``predictions`` and ``references`` (each a string or a list of
    acceptable answers).  Both sides are normalized with
    :func:`~assay.postprocess.general.general_postprocess`; a prediction is
    correct when it equals a normalized or a raw reference.  Metric: ``score``
    in [0, 100].  Details: ``pred``, ``answer``, ``correct``.
    """

    sample_decomposable = True

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": f"{len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": "EMEvaluator: no samples to score"}
        details = []
        correct = 0
        for pred, ref in zip(predictions, references):
            raw = [str(r) for r in (ref if isinstance(ref, (list, tuple)) else [ref])]
            answers = set(raw) | {general_postprocess(r) for r in raw}
            p = general_postprocess(str(pred))
            ok = p in answers
            correct += ok
            details.append({"pred": p, "answer": raw, "correct": ok})
        return {"score": 100 * correct / len(predictions), "details": details}
