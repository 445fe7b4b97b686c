"""BIG-Bench Hard evaluators, as OpenCompass 0.5.4 scores them."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, equal_as_is, score_pairs, share_percent
from assay.postprocess.bbh import bbh_freeform_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["BBHEvaluator", "BBHEvaluator_mcq"]


@ICL_EVALUATORS.register_module()
class BBHEvaluator(BaseEvaluator):
    """BBH free-form tasks: the reply's answer equals the target, ignoring case.

    Inputs: raw ``predictions`` and ``references``.  Both go through
    :func:`~assay.postprocess.bbh.bbh_freeform_postprocess` (the target too,
    so ``'1, 024'`` and ``'1,024'`` stay apart but ``'apple, banana'`` and
    ``'apple banana'`` meet), then compare with ``str.casefold``.  Metric:
    ``score`` in [0, 100].  Details: ``pred`` and ``answer`` (both extracted),
    ``correct``.

    >>> BBHEvaluator().score(['So the answer is **yes**.', 'the answer is 12'], ['Yes', '13'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        correct = 0
        for pred, ref in zip(predictions, references):
            answer, target = bbh_freeform_postprocess(pred), bbh_freeform_postprocess(ref)
            ok = answer.casefold() == target.casefold()
            correct += ok
            details.append({"pred": answer, "answer": target, "correct": ok})
        return {"score": share_percent(correct, len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class BBHEvaluator_mcq(BaseEvaluator):
    """BBH multiple-choice tasks: the prediction equals the reference exactly.

    Inputs: ``predictions`` and ``references`` as the postprocessors left them
    (the configs apply ``bbh-mcq`` to both, so ``'B'`` meets the target
    ``'(B)'``).  No normalisation.  Metric: ``score`` in [0, 100].  Details:
    ``pred``, ``answer``, ``correct``.

    >>> BBHEvaluator_mcq().score(['B', 'C'], ['B', 'B'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, equal_as_is, metric="score", scale=share_percent)
