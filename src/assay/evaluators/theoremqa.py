"""TheoremQA's evaluator as OpenCompass 0.5.4 computes it (``TheoremQAEvaluatorV3``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent, test_set_column
from assay.registry import ICL_EVALUATORS

__all__ = ["TheoremQAEvaluatorV3"]

_NUMERIC_TYPES = ("float", "integer", "bool")


@ICL_EVALUATORS.register_module()
class TheoremQAEvaluatorV3(BaseEvaluator):
    """TheoremQA accuracy (metric ``score`` in [0, 100]).

    Inputs: ``predictions`` (usually after ``TheoremQA_postprocess_v3``),
    ``references`` (the ``Answer`` strings) and ``test_set`` (its
    ``Answer_type`` column).  Correct when: the reference is an option
    ``(a)``–``(f)`` contained in the answer; or the two are equal ignoring
    case; or, for ``float``/``integer``/``bool`` answers, the answer read as a
    number (latex2sympy, then arithmetic) is within 4 % of a float
    reference, rounds to an integer one, or rounds to 1/0 for True/False.
    Details: ``pred``, ``is_correct``.
    """

    sample_outcome = SampleOutcome(correct="is_correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("is_correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        from assay.evaluators._theoremqa import compare_answer, safe_eval

        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return no_samples(self)
        types = test_set_column(test_set, "Answer_type")
        if types is None:
            return {"error": "TheoremQAEvaluatorV3: the test set has no 'Answer_type' column"}
        details = []
        for index, (answer, truth) in enumerate(zip(predictions, references)):
            value = None
            if types[index] in _NUMERIC_TYPES:
                try:
                    value = safe_eval(truth, {})
                except Exception as exc:
                    return {"error": f"TheoremQAEvaluatorV3: sample {index}: the {types[index]} answer {truth!r} is not a number ({exc})"}
            details.append({"pred": answer, "is_correct": compare_answer(answer, truth, value)})
        correct = sum(d["is_correct"] for d in details)
        return {"score": correct / len(details) * 100, "details": details}


def answer_clean(pred: str) -> str:
    """OpenCompass's ``answer_clean``: the answer after the last "The answer is", converted and evaluated
    (``TheoremQA_postprocess_v3`` returns it).

    Kept out of ``__all__``: OpenCompass's own ``answer_clean`` is not served by this one.

    >>> answer_clean('So x = 2. The answer is 1/2.')
    '0.5'
    """
    from assay.evaluators._theoremqa import answer_clean as clean

    return clean(pred)
