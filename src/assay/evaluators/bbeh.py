"""BIG-Bench Extra Hard's evaluators as OpenCompass 0.5.4 computes them (``BBEHEvaluator``, ``BBEHEvaluator_mcq``)."""

from __future__ import annotations

import re
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent
from assay.postprocess.bbeh import bbeh_freeform_postprocess, bbeh_mcq_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["BBEHEvaluator", "BBEHEvaluator_mcq"]

_LIST_COMMA = re.compile(r"\s*,\s*")


def _check(evaluator: object, predictions: list[Any], references: list[Any]) -> dict[str, Any] | None:
    if len(predictions) != len(references):
        return {"error": "predictions and references have different length"}
    if not predictions:
        return no_samples(evaluator)
    bad = next((r for r in references if not isinstance(r, str)), None)
    if bad is not None:
        return {"error": f"{type(evaluator).__name__}: a reference must be text, got {type(bad).__name__} {bad!r}"}
    return None


def _result(details: list[dict[str, Any]]) -> dict[str, Any]:
    return {"score": share_percent(sum(d["correct"] for d in details), len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class BBEHEvaluator(BaseEvaluator):
    """BBEH's free-form accuracy × 100 (``score``).

    Each prediction is read again by :func:`~assay.postprocess.bbeh.bbeh_freeform_postprocess`
    and each reference lower-cased; a sample is right when they are equal, or
    equal once the reference's ends lose quotes and brackets, or, for a
    reference holding a comma, equal once the spaces around commas are
    removed from both.  Details: ``pred``, ``answer`` (both as compared), ``correct``.

    >>> BBEHEvaluator().score(['The answer is: A , B', 'no'], ['a, b', '(yes)'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = _check(self, predictions, references)
        if error:
            return error
        details = []
        for pred, ref in zip(map(bbeh_freeform_postprocess, predictions), (r.lower() for r in references)):
            correct = pred == ref or pred == ref.strip("'\"()[]") or (
                "," in ref and _LIST_COMMA.sub(",", pred) == _LIST_COMMA.sub(",", ref))
            details.append({"pred": pred, "answer": ref, "correct": correct})
        return _result(details)


@ICL_EVALUATORS.register_module()
class BBEHEvaluator_mcq(BaseEvaluator):
    """BBEH's multiple-choice accuracy × 100 (``score``): the prediction read again by
    :func:`~assay.postprocess.bbeh.bbeh_mcq_postprocess` equals the reference lower-cased with
    parentheses stripped from its ends.  Details: ``pred``, ``answer``, ``correct``.

    >>> BBEHEvaluator_mcq().score(['The answer is: (B)'], ['(B)'])['score']
    100.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = _check(self, predictions, references)
        if error:
            return error
        details = [{"pred": pred, "answer": ref, "correct": pred == ref}
                   for pred, ref in zip(map(bbeh_mcq_postprocess, predictions), (r.lower().strip("()") for r in references))]
        return _result(details)
