"""OpenFinData's keyword evaluator as OpenCompass 0.5.4 computes it (``OpenFinDataKWEvaluator``)."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["OpenFinDataKWEvaluator"]


@ICL_EVALUATORS.register_module()
class OpenFinDataKWEvaluator(BaseEvaluator):
    """A reply is right when it contains every keyword of its reference, the keywords separated by
    ``、`` (``'苹果、香蕉'``); substrings count, case matters.  ``accuracy`` is OpenCompass's
    ``round(share, 4) * 100`` (so ``66.67``, and float noise such as ``66.67000000000002``, as there).
    OpenCompass writes no details; assay's (its addition): ``pred``, ``answer``, ``correct``.

    >>> OpenFinDataKWEvaluator().score(['苹果和香蕉', '只有苹果', '香蕉、苹果'], ['苹果、香蕉'] * 3)['accuracy']
    66.67
    """

    sample_outcome = SampleOutcome(correct="correct", decimals=2)  # the share is rounded to 4 places

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        details = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            if not isinstance(ref, str):
                return {"error": f"OpenFinDataKWEvaluator: reference {i} is {ref!r}, expected keywords separated by '、'"}
            text = "" if pred is None else str(pred)
            details.append({"pred": pred, "answer": ref, "correct": all(word in text for word in ref.split("、"))})
        hits = sum(d["correct"] for d in details)
        return {"accuracy": round(hits / len(details), 4) * 100, "details": details}
